"""The output contract, once for every command (spec README, "Output contract").

Data goes to stdout: a human rendering, or with `--json` exactly one JSON document. Progress,
warnings and hints go to stderr. Colour only on a terminal and never with NO_COLOR. No prompt
when stdin is not a terminal or with `--json`.

Over 400 lines on purpose: with `cli/streams.py` (the early writes and the guard under every
writer of stdout) this is the one module allowed to touch stdout and stderr (a test scans the
package for writes anywhere else), so what decides how a write looks (terminal, colour, encoding,
JSON mode and indent) lives beside the writes themselves.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable, Sequence

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


def stdout_is_terminal() -> bool:
    return stream_is_terminal(sys.stdout)


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
    try:
        subprocess.run(command, shell=True, input=data, env=env, check=False)  # the operator's own $PAGER, as git runs it
    except (BrokenPipeError, OSError):
        pass  # the reader quit the pager before the end (or it vanished): nothing to report
    return True


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
    """One `vora` run's output state, the one object every write of the run consults.

    JSON mode and quiet as recorded by the options (root or command, `cli/options.py`), so the
    boundary renders an error the way the command would have rendered its data; the global
    options the operator typed (`--state-dir examples/vora`), so a hint quotes the real command
    ("vora --state-dir examples/vora context detail", not one that reads ~/.vora); the command
    line, so a hint names a flag the way it was typed (`-l`, not `--link`); and the operator's
    settings (the run's install's), for colour, pager and JSON indentation. Built by the
    boundary (`VoraGroup.main`) for every run: tests run vora many times in one process.
    """

    __slots__ = ("_settings", "argv", "global_args", "json_mode", "quiet")

    def __init__(self, argv: Sequence[str] = (), settings: Settings | None = None) -> None:
        self.argv = list(argv)
        self.json_mode = False
        self.quiet = False
        self.global_args: list[str] = []
        self._settings = settings

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

        Python's JSON encoder runs in C only without indentation, so a big document (a pairing
        store of 1,000 devices) costs more indented. `VORA_JSON_INDENT=2` (or the
        `json_indent` setting) forces indentation, and `0` compact output, either way.
        """
        forced = self.settings.presentation("json_indent")
        if forced is not None:
            return int(forced) or None
        return 2 if stream_is_terminal(sys.stdout) else None

    def stdout_json(self, payload: Any, *, js_numbers: bool = False) -> str:
        """The one JSON document a command prints on stdout (indent per `json_indent`; numbers as
        JavaScript writes them with `js_numbers`: `to_json`)."""
        return to_json(payload, indent=self.json_indent(), ascii_only=not stream_is_unicode(sys.stdout),
                       js_numbers=js_numbers) + "\n"

    def pager(self) -> str:
        return str(self.settings.presentation("pager") or "")

    # -- hints ----------------------------------------------------------------------------------
    def with_global_args(self, text: str) -> str:
        """`text` with every `vora <command>` in it carrying the global options in use."""
        if not self.global_args or "vora " not in text:
            return text
        prefix = "vora " + " ".join(self.global_args) + " "
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


def safe_text(text: str) -> str:
    """`text` with control characters shown as escapes (`\\x1b`), for human output (newlines kept)."""
    return escape_controls(text)


def safe_line(text: str) -> str:
    """`safe_text`, and newlines and tabs escaped too: one line whatever the text holds."""
    return one_line(text)


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
    """Write text to stdout as it is (a script, a diff, injected text): the data, verbatim.

    `flush`: a stream that follows something live (`vora logs --follow`) shows each batch at once.
    A stdout that cannot encode a character (`LANG=C`) gets it as an escape, not a crash.
    """
    sys.stdout.write(fit_to_stream(text, sys.stdout, symbols=False))
    if flush:
        sys.stdout.flush()


def write_stderr(text: str) -> None:
    """Write to stderr and flush: hints must appear before the command goes on (or exits).

    A stderr that takes nothing (a full disk, a closed one, its reader gone) is no failure of the
    command's: the text is lost and the run goes on; its descriptor is pointed at /dev/null, so
    Python's flush at exit neither complains nor changes the exit code."""
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except UnicodeError:
        raise
    except (OSError, ValueError, AttributeError):  # AttributeError: closed at start (None)
        if sys.stderr is not None:
            silence(sys.stderr)


class Output:
    """What a command writes, and where: one per command, on its run's `Run`."""

    def __init__(self, run: Run, json_mode: bool = False, *, no_headers: bool = False) -> None:
        self.run = run
        self.json_mode = json_mode
        self.no_headers = no_headers
        self._console: Console | None = None

    # -- stdout -----------------------------------------------------------------------------
    @property
    def rich(self) -> bool:
        return self.run.color_enabled(sys.stdout)

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
        """Render the command's data: JSON in `--json` mode, else the human renderer.

        `payload` may be a function that builds the data, called only when the data is printed
        (a config write's diff costs a scan of the whole file for secrets; the human lines do not
        need it). Returns the exit code the data decides: 1 when `failed` (a check found problems,
        the report is printed all the same), else 0. Commands return it; the boundary exits with it.
        """
        if callable(payload) and (self.json_mode or human is None):
            payload = payload()
        if self.json_mode:
            sys.stdout.write(self.run.stdout_json(payload, js_numbers=js_numbers))
        elif human is not None:
            human(self)
        else:
            write_stdout((payload if isinstance(payload, str) else to_json(payload)) + "\n")
        return 1 if failed else 0

    def text(self, text: str) -> None:
        """Verbatim text on stdout (a script, a diff, injected text), inside a human renderer: as
        it is into a pipe or a file (a patch applies, a script runs); on a terminal its control
        characters shown as escapes (`\\x1b`), as `config get` shows a value, so a comment in a
        config or a workspace file cannot drive the terminal."""
        write_stdout(safe_text(text) if stdout_is_terminal() else text)

    def value(self, text: str, *, laid_out: bool) -> None:
        """A value as `config get` prints it. `laid_out`: text vora laid out (an object or array
        as indented JSON): its line breaks are vora's and stay; what a value may hold inside it is
        escaped on a terminal (`text`: JSON escapes C0 controls, this the C1 ones, bidi overrides
        and lone surrogates), never the layout around it. Else one value, a string: on a terminal
        its own line breaks are escaped too (`\\n`), so it cannot forge a line. Piped, either is
        written as it is (a script gets the stored value, byte for byte)."""
        if laid_out or not stdout_is_terminal():
            self.text(text + "\n")
        else:
            self.line(text)

    def paged(self, text: str) -> None:
        """Long verbatim text (`context preview`, `config schema`): through the pager on a
        terminal (`$PAGER`, the `pager` setting, `less -FRX`; control characters shown as
        escapes there, as `text` does), straight to stdout otherwise."""
        if self.json_mode or not stream_is_terminal(sys.stdout):
            write_stdout(text)
            return
        text = safe_text(text)  # `less -R` passes colour and OSC 8 links through raw: escaped first
        if not page_through(text, self.run.pager()):
            write_stdout(text)

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.json_mode:
            return  # in JSON mode stdout holds the one document only
        text = fit_to_stream(safe_line(text), sys.stdout)
        if style and self.rich:
            self.console.print(text, style=style, markup=False)
        else:
            sys.stdout.write(text + "\n")

    def wrapped(self, text: str, *, indent: str = "", hanging: str = "", style: str | None = None) -> None:
        """One logical line: on a terminal folded at word boundaries to its width, every line but
        the first indented by `hanging` (docs/terminal.md, "Line wrapping"); piped, one line, for grep."""
        if self.json_mode:
            return
        if not stream_is_terminal(sys.stdout):
            self.line(indent + text, style)
            return
        from vora_cli.cli.wrapping import wrap_words

        for line in wrap_words(text, terminal_width(), indent=indent, hanging=hanging):
            self.line(line, style)

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str | Cell]], title: str | None = None, *,
              keep: int = 1, whole: Sequence[str] = ()) -> None:
        """A table: fitted to the terminal's width (the first `keep` columns and the `whole` ones,
        named by header, never cut; a `Cell`'s short form when it does not fit whole: see
        `cli/tables.py`); whole cells, aligned, when piped. `--no-headers` leaves out the header
        row and the title and separates the cells by a tab (for `awk -F'\t'` and `cut`)."""
        if self.json_mode:
            return
        from itertools import chain

        from vora_cli.cli.tables import Cell, render_table, tab_separated

        def safe(cell: str | Cell) -> str | Cell:
            if isinstance(cell, Cell):
                return Cell(safe_line(cell.text), safe_line(cell.short))
            return safe_line(cell)  # a newline in a name adds no row

        # escapes first (they widen a cell); a table that needs none, the usual case, is one check
        # of all its cells, else each row that needs none is one (a tab or a line break is not
        # printable: such a cell is escaped too, `safe_line`)
        all_text = True  # every cell a str (no `Cell`): the layout need not look at each cell's type
        try:
            printable = "".join(chain.from_iterable(rows)).isprintable()  # type: ignore[arg-type]
        except TypeError:  # a `Cell`
            all_text = False
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
        width = terminal_width() if stream_is_terminal(sys.stdout) else None
        lines = render_table([safe_line(h) for h in headers], rows, width=width, keep=keep,
                             whole={upper.index(name.upper()) for name in whole}, all_text=all_text)
        if title:
            self.line(title, "bold")
        if lines:
            self.line(lines[0], "bold")
        # the cells are escaped above: the usual case. Unfitted, a line is those cells and spaces
        # (only a fitted table shows a `Cell`'s short form, which the check above did not see)
        if (width is None and printable) or "".join(lines[1:]).isprintable():
            self._plain_lines(lines[1:])
            return
        for line in lines[1:]:
            self.line(line)

    @property
    def table_is_fitted(self) -> bool:
        """Whether `table` fits its rows to a width (a `Cell`'s short form may be shown): on a
        terminal, with headers. Otherwise every cell is printed whole, and a renderer may pass
        its text alone (a list of 100,000 sessions builds no `Cell` per row)."""
        return not self.no_headers and not self.json_mode and stream_is_terminal(sys.stdout)

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
        write_stderr(fit_to_stream(safe_line(self.run.with_global_args(text)), sys.stderr) + "\n")

    def warn(self, text: str) -> None:
        prefix = "\x1b[33mwarning:\x1b[0m " if self.run.color_enabled(sys.stderr) else "warning: "
        write_stderr(prefix + fit_to_stream(safe_line(text), sys.stderr) + "\n")

    # -- questions --------------------------------------------------------------------------
    def confirm(self, question: str, *, yes: bool, flag: str = "--yes") -> bool:
        """Ask once on a terminal; `--yes` answers for scripts; never prompt otherwise."""
        if yes:
            return True
        if self.json_mode or not stdin_is_interactive():
            raise VoraError(
                "confirmation_required",
                f"{question.rstrip('?')}: needs a confirmation and there is no terminal to ask",
                f"pass {flag} to proceed",
            )
        write_stderr(f"{safe_line(question)} [y/N] ")
        answer = sys.stdin.readline().strip().lower()
        return answer in ("y", "yes")


def format_error(run: Run, error: VoraError) -> None:
    """Print a VoraError in the run's mode: the JSON error document on stdout, or one line (and a
    hint) on stderr."""
    guard = sys.stdout if isinstance(sys.stdout, StdoutGuard) else None
    # The JSON error document only when it can be the one document on stdout: not when stdout is
    # what failed (that failure is the run's outcome, said on stderr), nor after part of the data
    # went out (a list cut short would read as the data followed by a second document).
    if run.json_mode and not (guard is not None and (guard.failure is not None or guard.wrote)):
        # the hint quotes the real command in JSON too: a script shows it to the operator
        document = {**error.to_dict(), "hint": run.with_global_args(error.hint) if error.hint else error.hint}
        try:
            sys.stdout.write(run.stdout_json({"error": document}))
        except StdoutFailed:
            pass  # said instead of this error when the run ends (`invocation.finish`)
        return
    color = run.color_enabled(sys.stderr)
    label = "\x1b[1;31merror:\x1b[0m" if color else "error:"
    # one line each: a newline in a file name must not print a forged `hint:` line
    write_stderr(f"{label} {fit_to_stream(safe_line(error.message), sys.stderr)}\n")
    if error.hint:
        write_stderr(f"hint: {fit_to_stream(safe_line(run.with_global_args(error.hint)), sys.stderr)}\n")
