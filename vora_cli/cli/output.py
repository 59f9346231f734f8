"""The output contract, once for every command (spec README, "Output contract").

Data goes to stdout: a human rendering, or with `--json` exactly one JSON document. Progress,
warnings and hints go to stderr. Colour only on a terminal and never with NO_COLOR. No prompt
when stdin is not a terminal or with `--json`.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from vora_cli.core.errors import VoraError
from vora_cli.core.strict_json import non_finite_as_strings

if TYPE_CHECKING:
    from rich.console import Console


def _presentation_setting(key: str) -> Any:
    """A setting that only changes how output looks. A broken settings file is reported by the
    command that needs a real value (every command resolves the profile); here it must not turn
    the printing of an error into a second error."""
    from vora_cli.core.settings.resolve import resolve_setting

    try:
        return resolve_setting(key).value
    except VoraError:
        return None


def color_mode() -> str:
    """NO_COLOR > the `color` setting > auto (colour on a terminal)."""
    if os.environ.get("NO_COLOR"):
        return "never"
    return _presentation_setting("color") or "auto"


def color_enabled(stream: TextIO) -> bool:
    mode = color_mode()
    if mode != "auto":
        return mode == "always"
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def stdin_is_interactive() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


# C0/C1 control characters (but newline and tab), the line and paragraph separators U+2028/U+2029
# and the bidi overrides: text that came from files or devices must not move the cursor, erase
# lines, retitle the terminal, or break a table row or one-line message in two.
# Lone surrogates (a JSON string cut by UTF-16 unit, as in a gateway transcript) cannot be
# encoded at all: they are shown as escapes too.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


# The global options the user typed (`--state-dir examples/vora`), so that a hint quotes the
# real command: "vora --state-dir examples/vora context detail", not one that reads ~/.vora.
_GLOBAL_ARGS: list[str] = []
_VORA_COMMAND = re.compile(r"(?<![\w./-])vora (?=(?:config|context|sessions|plugins|devices|doctor|completion|gateway|logs)\b)")


def set_global_args(args: list[str]) -> None:
    _GLOBAL_ARGS[:] = args


# Whether this run prints JSON. The `--json` options record it (root or command, see
# `cli/common.py`), so the boundary renders an error the way the command would have rendered
# its data; `begin_run` resets it for every run (tests run vora many times in one process).
_JSON_MODE: list[bool] = [False]


# Whether `--quiet`/`-q` was given (root or command): notes are not printed; warnings and
# errors still are.
_QUIET: list[bool] = [False]


# The command line of this run, so a hint can name a flag the way the user typed it (`-l`, not
# `--link`, when `-l` is what they typed).
_ARGV: list[str] = []


def begin_run(argv: Sequence[str] = ()) -> None:
    """Forget what the previous in-process run recorded (JSON mode, quiet, global options, argv)."""
    _JSON_MODE[0] = False
    _QUIET[0] = False
    _GLOBAL_ARGS.clear()
    _ARGV[:] = list(argv)


def typed_flag(long: str, short: str | None = None) -> str:
    """The spelling of an option the user typed: `short` (alone, or in a group like `-ly`) when
    that is what the command line holds and `long` is not, else `long`."""
    if short is None or len(short) != 2:
        return long
    args = _ARGV[:_ARGV.index("--")] if "--" in _ARGV else _ARGV
    if any(arg == long or arg.startswith(long + "=") for arg in args):
        return long
    letter = short[1]
    for arg in args:
        if arg == short or (arg.startswith("-") and not arg.startswith("--") and arg[1:].isalpha()
                            and letter in arg[1:]):
            return short
    return long


def record_quiet() -> None:
    _QUIET[0] = True


def quiet_recorded() -> bool:
    return _QUIET[0]


def record_json_mode() -> None:
    _JSON_MODE[0] = True


def json_mode_recorded() -> bool:
    return _JSON_MODE[0]


def with_global_args(text: str) -> str:
    """`text` with every `vora <command>` in it carrying the global options in use."""
    if not _GLOBAL_ARGS or "vora " not in text:
        return text
    prefix = "vora " + " ".join(_GLOBAL_ARGS) + " "
    return _VORA_COMMAND.sub(lambda m: prefix, text)


def safe_text(text: str) -> str:
    """`text` with control characters shown as escapes (`\\x1b`), for human output."""
    if text.isprintable():  # the common case, checked in C (bidi overrides are not printable)
        return text
    return _UNSAFE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


def write_stdout(text: str, *, flush: bool = False) -> None:
    """Write text to stdout as it is (a script, a diff, injected text): the data, verbatim.

    `flush`: a stream that follows something live (`vora logs --follow`) shows each batch at once.
    """
    sys.stdout.write(text)
    if flush:
        sys.stdout.flush()


def write_stderr(text: str) -> None:
    """Write to stderr and flush: hints must appear before the command goes on (or exits)."""
    sys.stderr.write(text)
    sys.stderr.flush()


def to_json(payload: Any, *, indent: int | None = 2) -> str:
    """Strict JSON: a JSON5 `Infinity`/`NaN` from a config becomes the string "Infinity"/"NaN",
    so every JSON parser (not only Python's) reads the document."""
    try:
        text = json.dumps(payload, indent=indent, ensure_ascii=False, default=str, allow_nan=False)
    except ValueError:
        text = json.dumps(non_finite_as_strings(payload), indent=indent, ensure_ascii=False, default=str, allow_nan=False)
    if text.isascii() or not _LONE_SURROGATE.search(text):
        return text
    # A lone surrogate is written as its escape (what JavaScript's JSON.stringify does).
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def json_indent() -> int | None:
    """Indented JSON for a person at a terminal; one compact line for a pipe or a file.

    Python's JSON encoder runs in C only without indentation: on a 1 MB document (a pairing
    store with 1,000 devices) the indented form costs ~70 ms more. `VORA_JSON_INDENT=2` (or the
    `json_indent` setting) forces indentation, and `0` compact output, either way.
    """
    forced = _presentation_setting("json_indent")
    if forced is not None:
        return int(forced) or None
    try:
        return 2 if sys.stdout.isatty() else None
    except (AttributeError, ValueError):
        return None


class Output:
    """What a command writes, and where. One per command run."""

    def __init__(self, json_mode: bool = False) -> None:
        self.json_mode = json_mode
        self._console: Console | None = None

    # -- stdout -----------------------------------------------------------------------------
    @property
    def rich(self) -> bool:
        return color_enabled(sys.stdout)

    @property
    def console(self) -> Console:
        """A rich console on stdout, for tables on a terminal (imported only when used)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=sys.stdout, highlight=False, soft_wrap=True,
                                    force_terminal=True if color_mode() == "always" else None)
        return self._console

    def emit(self, payload: Any, human: Callable[[Output], None] | None = None, *, failed: bool = False) -> int:
        """Render the command's data: JSON in `--json` mode, else the human renderer.

        Returns the exit code the data decides: 1 when `failed` (a check found problems, the
        report is printed all the same), else 0. Commands return it; the boundary exits with it.
        """
        if self.json_mode:
            sys.stdout.write(to_json(payload, indent=json_indent()) + "\n")
        elif human is not None:
            human(self)
        else:
            sys.stdout.write((payload if isinstance(payload, str) else to_json(payload)) + "\n")
        return 1 if failed else 0

    def text(self, text: str) -> None:
        """Verbatim text on stdout (a script, a diff, injected text), inside a human renderer."""
        write_stdout(text)

    def line(self, text: str = "", style: str | None = None) -> None:
        if self.json_mode:
            return  # in JSON mode stdout holds the one document only
        text = safe_text(text)
        if style and self.rich:
            self.console.print(text, style=style, markup=False)
        else:
            sys.stdout.write(text + "\n")

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]], title: str | None = None) -> None:
        """A table: rich on a terminal, plain aligned columns when piped (easy to cut/awk)."""
        if self.json_mode:
            return
        headers = [safe_text(h) for h in headers]
        rows = [[safe_text(cell) for cell in row] for row in rows]
        if title:
            title = safe_text(title)
        if self.rich:
            from rich.table import Table

            table = Table(title=title, title_justify="left")
            for header in headers:
                table.add_column(header, overflow="fold")
            for row in rows:
                table.add_row(*row)
            self.console.print(table)
            return
        if title:
            sys.stdout.write(title + "\n")
        widths = [len(h) for h in headers]
        for row in rows:
            for i, cell in enumerate(row):
                widths[i] = max(widths[i], len(cell))
        for row in [list(headers), *rows]:
            cells = [cell.ljust(widths[i]) for i, cell in enumerate(row)]
            sys.stdout.write("  ".join(cells).rstrip() + "\n")

    # -- stderr -----------------------------------------------------------------------------
    def note(self, text: str) -> None:
        """A hint or progress line: stderr, never stdout; nothing with `--quiet`."""
        if _QUIET[0]:
            return
        write_stderr(safe_text(with_global_args(text)) + "\n")

    def warn(self, text: str) -> None:
        prefix = "\x1b[33mwarning:\x1b[0m " if color_enabled(sys.stderr) else "warning: "
        write_stderr(prefix + safe_text(text) + "\n")

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
        write_stderr(f"{safe_text(question)} [y/N] ")
        answer = sys.stdin.readline().strip().lower()
        return answer in ("y", "yes")


def format_error(error: VoraError, json_mode: bool) -> None:
    """Print a VoraError: the JSON error document on stdout, or one line (and a hint) on stderr."""
    if json_mode:
        sys.stdout.write(to_json({"error": error.to_dict()}, indent=json_indent()) + "\n")
        return
    color = color_enabled(sys.stderr)
    label = "\x1b[1;31merror:\x1b[0m" if color else "error:"
    write_stderr(f"{label} {safe_text(error.message)}\n")
    if error.hint:
        write_stderr(f"hint: {safe_text(with_global_args(error.hint))}\n")
