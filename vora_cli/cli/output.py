"""The output contract, once for every command (spec README, "Output contract"; docs/exit-codes-and-json.md).

Why one module: with `cli/streams.py`, the one module allowed to write to stdout and stderr.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence

from vora_cli.cli.json_text import to_json
from vora_cli.cli.streams import StdoutFailed, StdoutGuard, silence
from vora_cli.core.errors import VoraError
from vora_cli.core.text import escape_controls, one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

    from rich.console import Console

    from vora_cli.cli.tables import Cell
    from vora_cli.core.settings.resolve import Settings


def stream_is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def terminal_width() -> int:
    """COLUMNS when set (as every CLI honours it), else the terminal's, else 80."""
    import shutil

    return max(shutil.get_terminal_size((80, 24)).columns, 20)


def page_through(text: str, pager: str) -> bool:
    """Show `text` in the operator's pager (`pager`: the `pager` setting, `$PAGER` first), as git
    does (`sh -c "$PAGER"`, LESS=FRX when unset); False when there is none to run (`cat`, empty,
    not on PATH): the caller prints it."""
    import shlex
    import shutil
    import subprocess

    command = pager.strip()
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    if not words or words == ["cat"] or shutil.which(words[0]) is None:
        return False
    sys.stdout.flush()
    data = text.encode(_encoding_of(sys.stdout) if not stream_is_unicode(sys.stdout) else "utf-8",
                       "backslashreplace")
    env = {**os.environ, "LESS": os.environ.get("LESS", "FRX")}
    import signal

    # Ctrl-C in the pager is the pager's (less leaves its search or its wait), as git has it
    interrupt = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        subprocess.run(command, shell=True, input=data, env=env, check=False)  # the operator's own $PAGER, as git runs it
    except (BrokenPipeError, OSError):
        pass  # the reader quit the pager before the end (or it vanished): nothing to report
    finally:
        signal.signal(signal.SIGINT, interrupt)
    return True


def screen_rows(text: str, columns: int) -> int:
    """How many rows of a terminal `columns` wide `text` fills (a long line takes several; colour
    codes take none)."""
    if "\x1b" in text:
        text = re.sub("\x1b\\[[0-9;?]*[A-Za-z]", "", text)
    rows = 0
    for line in text.split("\n"):
        rows += max(1, -(-len(line) // columns))
    return rows - 1 if text.endswith("\n") else rows


# A declined question (`[y/N]` answered no, or Ctrl-D) ends the command with this exit code and a
# quiet `Cancelled.` on stderr: not an error, nothing was done (docs/exit-codes-and-json.md).
EXIT_CANCELLED = 4


class Cancelled(Exception):
    """The operator declined a question: nothing was done. The boundary says `Cancelled.` and
    exits `EXIT_CANCELLED` (`invocation.failure_code`)."""


def stdin_is_interactive() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False




@functools.cache
def _vora_command() -> re.Pattern[str]:
    """`vora <group>` in a hint: where the global options the operator typed go. The groups are
    the app's (`cli/groups.py`, declared once); `completion` is a command of the root."""
    from vora_cli.cli.groups import INSTALL_GROUPS

    names = "|".join((*INSTALL_GROUPS, "completion"))
    return re.compile(rf"(?<![\w./-])vora (?=(?:{names})\b)")


class Run:
    """One `vora` run's output state, the one object every write of the run consults: JSON mode
    and quiet as the options recorded them (so an error renders as the data would have), the
    global options and command line as typed (so a hint quotes the real command and flag
    spelling), and the operator's settings (colour, pager, JSON indentation). Built by the
    boundary (`VoraGroup.main`) for every run: tests run vora many times in one process.
    """

    __slots__ = ("_settings", "argv", "ascii_flag", "command", "global_args", "json_mode", "no_pager", "query",
                 "quiet")

    def __init__(self, argv: Sequence[str] = (), settings: Settings | None = None) -> None:
        self.argv = list(argv)
        self.json_mode = False
        self.quiet = False
        self.global_args: list[str] = []
        self._settings = settings
        self.no_pager = False  # `--no-pager`: a long view is printed, never paged
        self.ascii_flag = False  # `--ascii`: pictures and symbols in ASCII
        self.query: str | None = None  # `--query EXPR`: the JMESPath expression the JSON goes through
        self.command: str | None = None  # the command being run (`config get`), once it is known

    @property
    def settings(self) -> Settings:
        """The operator's settings (read on first need: `vora --help` reads none)."""
        if self._settings is None:
            from vora_cli.core.settings.resolve import Settings

            self._settings = Settings()
        return self._settings

    # -- presentation ---------------------------------------------------------------------------
    def color_mode(self) -> str:
        """NO_COLOR > FORCE_COLOR / CLICOLOR_FORCE > the `color` setting > auto (docs/terminal.md)."""
        if os.environ.get("NO_COLOR"):  # checked before the settings are: a TAB-fast common case
            return "never"
        return str(self.settings.presentation("color") or "auto")

    def color_enabled(self, stream: TextIO) -> bool:
        mode = self.color_mode()
        if mode != "auto":
            return mode == "always"
        return stream_is_terminal(stream)

    def json_indent(self) -> int | None:
        """Indented JSON for a person at a terminal; one compact line for a pipe or a file.
        `VORA_JSON_INDENT=2` (or the `json_indent` setting) forces indentation, `0` compact."""
        forced = self.settings.presentation("json_indent")
        if forced is not None:
            return int(forced) or None
        return 2 if stream_is_terminal(sys.stdout) else None

    def stdout_json(self, payload: Any, *, js_numbers: bool = False, select: bool = True) -> str:
        """The one JSON document a command prints on stdout (indent per `json_indent`; numbers as
        JavaScript writes them with `js_numbers`: `to_json`): what `--query` selects from it, unless
        `select` is False (an error document is never queried)."""
        if select and self.query is not None:
            from vora_cli.cli.query import select_fields

            payload = select_fields(self.query, payload, self.command)
        return to_json(payload, indent=self.json_indent(), ascii_only=not stream_is_unicode(sys.stdout),
                       js_numbers=js_numbers) + "\n"

    def streams_json(self) -> bool:
        """Whether a long list may be written item by item (`cli/streaming.py`): one compact line,
        and no `--query`, which needs the whole document."""
        return self.query is None and self.json_indent() is None

    def check_query(self) -> None:
        """A `--query` that does not parse is a usage error before the command does anything."""
        if self.query is not None:
            from vora_cli.cli.query import compile_query

            compile_query(self.query, self.command)

    def pager(self) -> str:
        """The pager a long view goes through on a terminal: none with `--no-pager`, else `$PAGER`,
        the `pager` setting, `less -FRX` (docs/terminal.md, "Pager")."""
        if self.no_pager:
            return ""
        return str(self.settings.presentation("pager") or "")

    @property
    def ascii(self) -> bool:
        """Pictures and symbols in ASCII: `--ascii`, or a stdout that cannot encode them (`LANG=C`)."""
        return self.ascii_flag or not stream_is_unicode(sys.stdout)

    # -- hints ----------------------------------------------------------------------------------
    def with_global_args(self, text: str) -> str:
        """`text` with every `vora <command>` in it carrying the global options in use."""
        if not self.global_args or "vora " not in text:
            return text
        prefix = "vora " + " ".join(self.global_args) + " "
        if prefix in text:  # given them already (a fix command rendered twice): once is enough
            return text
        return _vora_command().sub(lambda m: prefix, text)

    def typed_flag(self, long: str, short: str | None = None) -> str:
        """The spelling of an option the user typed: `short` (alone, or in a group like `-ly`) when
        that is what the command line holds and `long` is not, else `long`."""
        if short is None or len(short) != 2:
            return long
        args = self.argv[:self.argv.index("--")] if "--" in self.argv else self.argv
        if any(arg == long or arg.startswith(long + "=") for arg in args):
            return long
        letter = short[1]
        for arg in args:
            if arg == short or (arg.startswith("-") and not arg.startswith("--") and arg[1:].isalpha()
                                and letter in arg[1:]):
                return short
        return long


# What a symbol becomes on a stream that cannot encode it (`LANG=C`, `PYTHONIOENCODING=ascii`):
# words a person reads the same way, never a crash (docs/terminal.md, "Symbols").
ASCII_SYMBOLS = str.maketrans({
    "\u2713": "+",  # ✓
    "\u2717": "x",  # ✗
    "\u26a0": "!",  # ⚠
    "\U0001f9e0": "*",  # 🧠
    "\u2014": "-",  # —
    "\u2026": "...",  # …
    "\u2192": "->",  # →
    "\u00b1": "+/-",  # ±
    "\u2248": "~",  # ≈
    "\u221e": "inf",  # ∞
})


def _encoding_of(stream: TextIO) -> str:
    return (getattr(stream, "encoding", None) or "utf-8").lower().replace("_", "-")


def stream_is_unicode(stream: TextIO) -> bool:
    return _encoding_of(stream) in ("utf-8", "utf8", "utf-16", "utf-32")


def fit_to_stream(text: str, stream: TextIO, *, symbols: bool = True) -> str:
    """`text` as `stream` can encode it: symbols become ASCII (`symbols`, for human text; data
    keeps them), anything else left a `\\u` escape."""
    if text.isascii() or stream_is_unicode(stream):
        return text
    encoding = _encoding_of(stream)
    try:
        text.encode(encoding)
        return text
    except (UnicodeEncodeError, LookupError):
        pass
    if symbols:
        text = text.translate(ASCII_SYMBOLS)
    try:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:
        return text.encode("ascii", "backslashreplace").decode("ascii")


def write_stdout(text: str, *, flush: bool = False) -> None:
    """Write text to stdout verbatim (a script, a diff, injected text). `flush`: for a stream that
    follows something live (`vora logs --follow`). A character stdout cannot encode (`LANG=C`) is
    written as an escape, not a crash."""
    sys.stdout.write(fit_to_stream(text, sys.stdout, symbols=False))
    if flush:
        sys.stdout.flush()


def write_stderr(text: str) -> None:
    """Write to stderr and flush: hints must appear before the command goes on (or exits). While
    a view is held for the pager (`Output.view`), the text waits with it, keeping its place. A
    stderr that takes nothing is no failure of the command's: the text is lost, and the
    descriptor is pointed at /dev/null so the flush at exit changes nothing."""
    guard = sys.stdout
    if isinstance(guard, StdoutGuard) and guard.held is not None:
        guard.held.append((2, text))
        return
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except UnicodeError:
        raise
    except (OSError, ValueError, AttributeError):  # AttributeError: closed at start (None)
        if sys.stderr is not None:
            silence(sys.stderr)


def stderr_lines(label: str, text: str, shown_label: str | None = None) -> str:
    """`label` and `text` as the lines stderr shows: one line, or on a terminal folded to its
    width under the text's start (`error: ...` continues under its message, a note under itself
    plus two), never inside a word or a command (`wrapping.fold_line`). `shown_label`: the label
    as printed (coloured)."""
    line = label + text
    shown = line if shown_label is None else shown_label + text
    if not stream_is_terminal(sys.stderr):
        return shown + "\n"
    width = terminal_width()
    if len(line) <= width:
        return shown + "\n"
    from vora_cli.cli.wrapping import fold_line

    lines = fold_line(line, width, " " * len(label) if label else None)
    if shown_label is not None:
        lines[0] = shown_label + lines[0][len(label):]
    return "\n".join(lines) + "\n"


# The rich styles vora's pictures use, by what they say (`cli/pictures.py`).
STATUS_STYLES = {
    "ok": "green", "pass": "green", "enabled": "green", "valid": "green", "added": "green",
    "info": "cyan", "selected": "bold cyan",
    "warn": "yellow", "truncated": "yellow", "disabled": "yellow", "pending": "yellow", "skip": "dim",
    "error": "bold red", "critical": "bold red", "missing": "red", "failed": "bold red", "removed": "red",
    "blocked": "red", "dangling": "red",
}


class Output:
    """What a command writes, and where: one per command, on its run's `Run`."""

    def __init__(self, run: Run, json_mode: bool = False, *, no_headers: bool = False) -> None:
        self.run = run
        self.json_mode = json_mode
        self.no_headers = no_headers
        self._console: Console | None = None
        self._terminal: bool | None = None

    # -- stdout -----------------------------------------------------------------------------
    @property
    def rich(self) -> bool:
        return self.run.color_enabled(sys.stdout)

    @property
    def terminal(self) -> bool:
        """Whether stdout is a terminal: lines fold to its width, pictures are drawn, long views paged."""
        if self._terminal is None:
            self._terminal = stream_is_terminal(sys.stdout)
        return self._terminal

    @property
    def console(self) -> Console:
        """A rich console on stdout, for tables on a terminal (imported only when used)."""
        if self._console is None:
            from rich.console import Console

            # emoji=False: rich turns `:warning:` in a folder's name into a symbol even with
            # markup off, and a styled line holds names from the disk (doctor's check lines)
            self._console = Console(file=sys.stdout, highlight=False, soft_wrap=True, emoji=False,
                                    force_terminal=True if self.run.color_mode() == "always" else None)
        return self._console

    def emit(self, payload: Any, human: Callable[[Output], None] | None = None, *, failed: bool = False,
             js_numbers: bool = False) -> int:
        """Render the command's data: JSON in `--json` mode, else the human renderer (paged on a
        terminal when longer than the screen). `payload` may be a function, called only when the
        data is printed. Returns the exit code the data decides (1 when `failed`, the report
        printed all the same, else 0); commands return it and the boundary exits with it.
        """
        if callable(payload) and (self.json_mode or human is None):
            payload = payload()
        if self.json_mode:
            sys.stdout.write(self.run.stdout_json(payload, js_numbers=js_numbers))
        elif human is not None:
            self.view(lambda: human(self))
        else:
            write_stdout((payload if isinstance(payload, str) else to_json(payload)) + "\n")
        return 1 if failed else 0

    # -- the pager --------------------------------------------------------------------------
    def view(self, render: Callable[[], None]) -> None:
        """Run `render` (a human view) and show what it wrote: on a terminal, held until it is done
        and then paged when it is longer than the screen (`$PAGER`, the `pager` setting, `less
        -FRX`; never with `--no-pager`), else written as it was; what it said on stderr meanwhile
        follows it (docs/terminal.md, "Pager"). Piped, or in JSON mode, `render` writes directly."""
        guard = sys.stdout
        # the stream itself must be a terminal (the pager writes to the process's stdout, not to a
        # stand-in that calls itself one)
        if self.json_mode or not self.terminal or not isinstance(guard, StdoutGuard) or guard.held is not None \
                or not guard.isatty() or not self.run.pager():
            render()
            return
        guard.held = []
        try:
            render()
        finally:
            held, guard.held = guard.held, None
            if held is not None:
                self._show(held)

    def _show(self, held: list[tuple[int, str]]) -> None:
        import shutil

        size = shutil.get_terminal_size((80, 24))
        text = "".join(t for stream, t in held if stream == 1)
        everything = "".join(t for _stream, t in held)
        if screen_rows(everything, max(size.columns, 20)) >= size.lines and page_through(text, self.run.pager()):
            for stream, part in held:
                if stream == 2:
                    write_stderr(part)  # after the pager: the notes and next steps stay in sight
            return
        self._replay(held)

    def release_view(self) -> None:
        """Write out what a held view holds so far, and hold no more (a question is about to be
        asked: what it asks about must be on the screen)."""
        guard = sys.stdout
        if isinstance(guard, StdoutGuard) and guard.held is not None:
            held, guard.held = guard.held, None
            self._replay(held)

    @staticmethod
    def _replay(held: list[tuple[int, str]]) -> None:
        for stream, part in held:
            if stream == 1:
                sys.stdout.write(part)
            else:
                write_stderr(part)

    def text(self, text: str, *, fold: bool = True) -> None:
        """Verbatim text on stdout (a script, a diff, injected text) inside a human renderer: as it
        is into a pipe or a file; on a terminal with control characters escaped (`\\x1b`), so a
        config or workspace file cannot drive the terminal, and long lines folded at word
        boundaries unless `fold` is False (a shell script)."""
        if not self.terminal:
            write_stdout(text)
            return
        text = escape_controls(text)
        width = terminal_width()
        if fold and any(len(line) > width for line in text.split("\n")):
            # folded at word boundaries, each line under its own indent: `less` would cut words
            from vora_cli.cli.wrapping import fold_line

            text = "\n".join("\n".join(fold_line(line, width, line[: len(line) - len(line.lstrip(" "))] + "  "))
                             for line in text.split("\n"))
        write_stdout(text)

    def value(self, text: str, *, laid_out: bool) -> None:
        """A value as `config get` prints it. `laid_out`: text vora laid out (indented JSON), whose
        line breaks stay while what it holds is escaped on a terminal (C1 controls, bidi overrides,
        lone surrogates). Else one string, whose own line breaks are escaped on a terminal too, so
        it cannot forge a line. Piped, either is written byte for byte."""
        if laid_out or not self.terminal:
            self.text(text + "\n")
        else:
            self.line(text)

    def diff(self, text: str) -> None:
        """A unified diff, verbatim (`text`): on a terminal with colour, its removed lines red and
        its added lines green, the hunk headers cyan."""
        if not (self.terminal and self.rich):
            self.text(text)
            return
        styles = {"-": "red", "+": "green", "@": "cyan"}
        for line in escape_controls(text).splitlines():
            style = None if line.startswith(("---", "+++")) else styles.get(line[:1])
            if style:
                self.console.print(line, style=style, markup=False)
            else:
                sys.stdout.write(fit_to_stream(line, sys.stdout, symbols=False) + "\n")

    def _shown(self, text: str, stream: TextIO) -> str:
        """Human text as `stream` shows it: its symbols in ASCII with `--ascii`."""
        if self.run.ascii_flag and not text.isascii():
            text = text.translate(ASCII_SYMBOLS)
        return fit_to_stream(text, stream)

    def line(self, text: str = "", style: str | None = None, *, hanging: str | None = None,
             fold: bool = True, words: Mapping[str, str] | None = None) -> None:
        """One line of human output: on a terminal folded at word boundaries to its width (never
        inside a word, path or command), later lines indented by `hanging` (default: the line's
        indent and two); piped, one line. `words`: a style per word where it stands (a STATUS
        value), where colour is on."""
        if self.json_mode:
            return  # in JSON mode stdout holds the one document only
        text = self._shown(one_line(text), sys.stdout)
        lines = [text]
        if fold and self.terminal:
            width = terminal_width()
            if len(text) > width:
                from vora_cli.cli.wrapping import fold_line

                lines = fold_line(text, width, hanging)
        for one in lines:
            if style and self.rich:
                self.console.print(one, style=style, markup=False)
            elif words and self.rich and any(word in one for word in words):
                from rich.text import Text

                shown = Text(one)
                for word, word_style in words.items():
                    shown.highlight_regex(rf"(?<![\w-]){re.escape(word)}(?![\w-])", word_style)
                self.console.print(shown, markup=False)
            else:
                sys.stdout.write(one + "\n")

    def wrapped(self, text: str, *, indent: str = "", hanging: str = "", style: str | None = None) -> None:
        """One logical line, `line` with its indent and hanging indent named (docs/terminal.md,
        "Line wrapping")."""
        self.line(indent + text, style, hanging=hanging or None)

    def styled(self, parts: Sequence[tuple[str, str | None]]) -> None:
        """One line made of parts, each in its style (a bar's filled and empty cells, a coloured
        STATUS word) where colour is on; plain text otherwise. Not folded: a picture is drawn to
        the width it has (`cli/pictures.py`)."""
        if self.json_mode:
            return
        parts = [(self._shown(one_line(text), sys.stdout), style) for text, style in parts]
        if not self.rich or not any(style for _text, style in parts):
            sys.stdout.write("".join(text for text, _style in parts) + "\n")
            return
        from rich.text import Text

        self.console.print(Text.assemble(*((t, s) if s else t for t, s in parts)), markup=False)

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str | Cell]], title: str | None = None, *,
              keep: int = 1, whole: Sequence[str] = (), styles: Mapping[str, Mapping[str, str]] | None = None) -> None:
        """A table fitted to the terminal's width (`cli/tables.py`: the first `keep` columns and
        the `whole` ones never cut); whole cells, aligned, when piped. `--no-headers` drops the
        header row and title and separates cells by a tab. `styles`: per column header, a cell's
        style by its first word, where colour is on."""
        if self.json_mode:
            return
        from itertools import chain

        from vora_cli.cli.tables import Cell, render_table, tab_separated

        def safe(cell: str | Cell) -> str | Cell:
            if isinstance(cell, Cell):
                return Cell(one_line(cell.text), one_line(cell.short))
            return one_line(cell)  # a newline in a name adds no row

        # escapes first (they widen a cell); a table that needs none, the usual case, is one check
        # of all its cells, else each row that needs none is one (a tab or a line break is not
        # printable: such a cell is escaped too, `one_line`)
        try:
            printable = "".join(chain.from_iterable(rows)).isprintable()  # type: ignore[arg-type]
        except TypeError:  # a `Cell`
            printable = "".join(map(str, chain.from_iterable(rows))).isprintable()
        if not printable:
            rows = [row if "".join(map(str, row)).isprintable() else [safe(cell) for cell in row] for row in rows]
        if self.no_headers:  # the cells are escaped above: the tabs between them are the only ones
            self._plain_lines(tab_separated(rows))
            return
        upper = [h.upper() for h in headers]
        unknown = [name for name in whole if name.upper() not in upper]
        if unknown:
            raise ValueError(f"no column {unknown[0]!r} in {upper}")
        width = terminal_width() if self.terminal else None
        lines = render_table([one_line(h) for h in headers], rows, width=width, keep=keep,
                             whole={upper.index(name.upper()) for name in whole})
        if title:
            self.line(title, "bold")
        if lines:
            self.line(lines[0], "bold", fold=False)
        if styles and self.rich and len(lines) > 1:
            self._styled_rows(lines, upper, styles)
            return
        # the cells are escaped above: the usual case. Unfitted, a line is those cells and spaces
        # (only a fitted table shows a `Cell`'s short form, which the check above did not see)
        if (width is None and printable) or "".join(lines[1:]).isprintable():
            self._plain_lines(lines[1:])
            return
        for line in lines[1:]:
            self.line(line, fold=False)

    def _styled_rows(self, lines: Sequence[str], upper: Sequence[str],
                     styles: Mapping[str, Mapping[str, str]]) -> None:
        """The table's rows, each cell of a styled column coloured by its first word."""
        header = lines[0]
        spans: list[tuple[int, int, Mapping[str, str]]] = []
        for name, by_word in styles.items():
            column = upper.index(name.upper()) if name.upper() in upper else -1
            start = header.find(name.upper()) if column >= 0 else -1
            if start < 0:
                continue  # dropped to fit the width
            later = [header.find(h, start + 1) for h in upper[column + 1:]]
            ends = [i for i in later if i > start]
            spans.append((start, min(ends) if ends else 10**9, by_word))
        for line in lines[1:]:
            parts: list[tuple[str, str | None]] = []
            at = 0
            for start, end, by_word in sorted(spans, key=lambda s: s[0]):
                cell = line[start:end]
                word = cell.split(" ", 1)[0].split(",", 1)[0]
                shown = cell.rstrip(" ")
                parts += [(line[at:start], None), (shown, by_word.get(word)), (cell[len(shown):], None)]
                at = end if end < len(line) else len(line)
            parts.append((line[at:], None))
            self.styled(parts)

    @property
    def table_is_fitted(self) -> bool:
        """Whether `table` fits its rows to a width (a `Cell`'s short form may be shown): on a
        terminal, with headers. Otherwise every cell is printed whole, and a renderer may pass
        its text alone (a list of 100,000 sessions builds no `Cell` per row)."""
        return not self.no_headers and not self.json_mode and self.terminal

    def _plain_lines(self, lines: Sequence[str]) -> None:
        """`line` for each of `lines` (already safe: no control character, no line break), in one
        write when the stream takes any text (`fit_to_stream` decides per line otherwise)."""
        if not lines:
            return
        if stream_is_unicode(sys.stdout):
            sys.stdout.write("\n".join(lines) + "\n")
            return
        for line in lines:
            sys.stdout.write(fit_to_stream(line, sys.stdout) + "\n")

    # -- stderr -----------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """A hint or progress line: stderr, never stdout; nothing with `--quiet`."""
        if self.run.quiet:
            return
        write_stderr(stderr_lines("", self._shown(one_line(self.run.with_global_args(text)), sys.stderr)))

    def warn(self, text: str) -> None:
        """A warning on stderr; a `vora …` command in it carries the run's global options (`--state-dir`),
        as a hint's does: pasted, it must act on the same install."""
        label = "\x1b[33mwarning:\x1b[0m " if self.run.color_enabled(sys.stderr) else None
        write_stderr(stderr_lines("warning: ", self._shown(one_line(self.run.with_global_args(text)), sys.stderr),
                                  label))

    def warn_detail(self, text: str) -> None:
        """A line that belongs to the warning above it (the line to add to a file), indented under
        it on stderr, whole: it is meant to be pasted."""
        write_stderr(f"    {fit_to_stream(one_line(text), sys.stderr, symbols=False)}\n")

    # -- questions --------------------------------------------------------------------------
    def confirm(self, question: str, *, yes: bool, flag: str = "--yes") -> bool:
        """Ask once on a terminal; `--yes` answers for scripts; never prompt otherwise. Ctrl-C
        at the question ends its line before the run ends (exit 130); Ctrl-D is a no."""
        if yes:
            return True
        if self.json_mode or not stdin_is_interactive():
            raise VoraError(
                "confirmation_required",
                f"{question.rstrip('?')}: needs a confirmation and there is no terminal to ask",
                f"pass {flag} to proceed",
            )
        self.release_view()
        try:
            # folded at the terminal's width as every line is, the answer typed after its last line
            asked = stderr_lines("", f"{one_line(question)} [y/N]").rstrip("\n")
            write_stderr(f"{self._shown(asked, sys.stderr)} ")
            answer = sys.stdin.readline()
        except KeyboardInterrupt:
            write_stderr("\n")  # the shell's prompt starts on a line of its own
            raise
        if not answer.endswith("\n"):
            write_stderr("\n")  # Ctrl-D: the terminal echoed nothing
        return answer.strip().lower() in ("y", "yes")

    def confirm_or_cancel(self, question: str, *, yes: bool, flag: str = "--yes") -> None:
        """`confirm`, and a declined question ends the command: `Cancelled` (exit 4, nothing done)."""
        if not self.confirm(question, yes=yes, flag=flag):
            raise Cancelled


def _hidden(run: Run, error: VoraError) -> VoraError:
    """`error` without the word typed after `--passphrase`: that flag takes no value (it reads
    stdin), so a word after it that is not a file (`--passphrase hunter2`) is likely the secret
    itself, and an error must not echo it to the terminal's scroll-back or a CI log."""
    words = [w for i, w in enumerate(run.argv[1:], 1) if run.argv[i - 1] == "--passphrase"
             and not w.startswith("-") and not os.path.exists(w)]
    message, hint = error.message, error.hint
    for word in words:
        message = message.replace(word, "<the word after --passphrase, not shown>")
        hint = hint.replace(word, "<not shown>") if hint else hint
    if not words or (message, hint) == (error.message, error.hint):
        return error
    return VoraError(error.code, message, "--passphrase takes no value: it reads the passphrase from stdin "
                     "(or give --passphrase-file FILE)")


def format_error(run: Run, error: VoraError) -> None:
    """Print a VoraError in the run's mode: the JSON error document on stdout, or one line (and a
    hint) on stderr, folded to its width on a terminal."""
    error = _hidden(run, error)
    guard = sys.stdout if isinstance(sys.stdout, StdoutGuard) else None
    # The JSON error document only when it can be the one document on stdout: not when stdout is
    # what failed (that failure is the run's outcome, said on stderr), nor after part of the data
    # went out (a list cut short would read as the data followed by a second document).
    if run.json_mode and not (guard is not None and (guard.failure is not None or guard.wrote)):
        # the hint quotes the real command in JSON too: a script shows it to the operator
        document = {**error.to_dict(), "hint": run.with_global_args(error.hint) if error.hint else error.hint}
        try:
            sys.stdout.write(run.stdout_json({"error": document}, select=False))
        except StdoutFailed:
            pass  # said instead of this error when the run ends (`invocation.finish`)
        return
    color = run.color_enabled(sys.stderr)
    label = "\x1b[1;31merror:\x1b[0m " if color else None
    # one line each: a newline in a file name must not print a forged `hint:` line
    write_stderr(stderr_lines("error: ", fit_to_stream(one_line(error.message), sys.stderr), label))
    if error.hint:
        write_stderr(stderr_lines("hint: ", fit_to_stream(one_line(run.with_global_args(error.hint)), sys.stderr)))
