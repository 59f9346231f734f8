"""The fast dispatch: a well-formed command line of a hot command, answered without typer or click, by
calling the command's own function; anything it cannot parse exactly as click does returns None, for
the Typer app (docs/architecture.md, "One declaration, two ways in").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from vora_cli.cli.groups import GLOBAL_FLAGS, GLOBAL_VALUE_OPTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.cli.output import Run

FORCE_TYPER = "VORA_NO_FAST_DISPATCH"
_GLOBALS = (*GLOBAL_VALUE_OPTIONS, *GLOBAL_FLAGS)
# Options every hot command declares as the root does (the generator checks it): the table keeps
# them once, in ROOT, and a command's line is parsed against that entry.
EVERY_COMMAND = ("--quiet", "-q", "--query")


class _NotFast(Exception):
    """This command line is the app's to answer."""


class _Line:
    """One command line, parsed: the root's values, the command's, and the eager options' effects."""

    def __init__(self, argv: Sequence[str], root: dict[str, Any]) -> None:
        self.argv = list(argv)
        self.root_options: dict[str, list[Any]] = root["options"]
        self.root_values: dict[str, Any] = dict(root["values"])
        self.json_mode = False
        self.quiet = False
        self.query: str | None = None  # the last `--query` given (it implies --json)
        self.path = ""  # the command's path in the table (`config get`)
        self.format: Any = None  # the last `--format` given: as click, its callback sees the final value

    def take(self, i: int, options: dict[str, list[Any]], values: dict[str, Any]) -> int:
        """Parse the option at `argv[i]` into `values`; the index after it."""
        word = self.argv[i]
        if word.startswith("--"):
            name, eq, attached = word.partition("=")
        elif len(word) == 2:
            name, eq, attached = word, "", ""
        else:  # `-`, `-5`, a cluster (`-qv`), a glued value (`-xVALUE`)
            raise _NotFast
        spec = options.get(name)
        if spec is None:
            raise _NotFast
        dest, kind, multiple, role = spec
        if kind in ("flag", "flag-off"):
            if eq:
                raise _NotFast
            value: Any = kind == "flag"
        else:
            if not eq:
                i += 1
                if i >= len(self.argv) or self.argv[i].startswith("-"):
                    raise _NotFast  # missing, or a value that looks like an option: click's to judge
                attached = self.argv[i]
            value = _convert(kind, attached)
        if role == "json" and value:
            self.json_mode = True
        elif role == "format":
            self.format = value
        elif role == "quiet":
            self.quiet = True
        elif role == "query":
            self.query = value
            self.json_mode = True
        if dest is not None:
            if multiple:
                values[dest] = [*(values.get(dest) or []), value]
            else:
                values[dest] = value
        return i + 1

    def take_global(self, i: int) -> int:
        if self.argv[i].partition("=")[0] not in _GLOBALS:
            raise _NotFast
        return self.take(i, self.root_options, self.root_values)


def _convert(kind: str, text: str) -> Any:
    """A value as click's STRING, INT and FLOAT types convert it (they call `int` and `float`)."""
    try:
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        raise _NotFast from None
    return text


def parse(argv: Sequence[str], root: dict[str, Any],
          commands: dict[str, dict[str, Any]]) -> tuple[_Line, str, dict[str, Any], dict[str, Any]] | None:
    """(the line, the command's group, its table entry, its body's values), or None: Typer's."""
    line = _Line(argv, root)
    words = line.argv
    try:
        i = 0
        while i < len(words) and words[i].startswith("-"):
            i = line.take(i, line.root_options, line.root_values)
        if i >= len(words):
            return None
        group = words[i]
        entry = commands.get(group)
        line.path = group
        i += 1
        if entry is None:
            while i < len(words) and words[i].startswith("-"):
                i = line.take_global(i)
            if i >= len(words):
                return None
            line.path = f"{group} {words[i]}"
            entry = commands.get(line.path)
            i += 1
            if entry is None:
                return None
        values = dict(entry["values"])
        positional: list[str] = []
        options = entry["options"]
        while i < len(words):
            word = words[i]
            if word == "--":
                return None
            if not word.startswith("-"):
                positional.append(word)
                i += 1
            elif word.partition("=")[0] in options:
                i = line.take(i, options, values)
            elif word.partition("=")[0] in EVERY_COMMAND:  # its effect only: the body takes no value
                i = line.take(i, line.root_options, {})
            else:
                i = line.take_global(i)
        for dest, required, rest in entry["arguments"]:
            if rest:
                values[dest] = positional or values[dest]
                positional = []
            elif positional:
                values[dest] = positional.pop(0)
            elif required:
                return None
        if positional:
            return None
    except _NotFast:
        return None
    if line.format == "json":
        line.json_mode = True
    if entry["json_only"]:
        line.json_mode = True
    for dest, _kind, _multiple, role in options.values():
        if role == "json" and dest is not None:
            values[dest] = line.json_mode  # `--json` anywhere (or `--format json`) is the command's
    return line, group, entry, values


def dispatch(argv: Sequence[str]) -> int | None:
    """Run `argv` when it is a well-formed hot command line: its exit code; else None (the app's)."""
    if os.environ.get(FORCE_TYPER):
        return None
    if list(argv) in _VERSION_JSON:
        return _version_json(argv)
    if list(argv) in _ROOT_HELP:
        return _root_help(argv)
    from vora_cli.cli.dispatch_table import COMMANDS, ROOT

    parsed = parse(argv, ROOT, COMMANDS)
    if parsed is None:
        return None
    line, group, entry, values = parsed
    import importlib

    from vora_cli.cli.invocation import AppState, failure_code, finish
    from vora_cli.cli.output import Run
    from vora_cli.cli.streams import prepare_streams

    run = Run(line.argv)
    prepare_streams()
    run.json_mode, run.quiet, run.query = line.json_mode, line.quiet, line.query
    run.command = line.path
    state = AppState(run)
    root = line.root_values
    try:
        state.start(state_dir=root["state_dir"], config=root["config"], profile=root["profile"], dev=root["dev"],
                    env=os.environ, group=group, force=root["force"], no_pager=root["no_pager"],
                    ascii_only=root["ascii_only"])
        run.check_query()
        module, _, name = entry["body"].partition(":")
        result = getattr(importlib.import_module(module), name)(state, **values)
        code = result if isinstance(result, int) else 0
    except KeyboardInterrupt:  # as typer has it: exit 130, no word (the shell has echoed ^C)
        code = 130
    except EOFError:  # as click has it: a new line, then "aborted"
        from vora_cli.cli.output import format_error, write_stderr
        from vora_cli.core.errors import VoraError

        write_stderr("\n")
        format_error(run, VoraError("refused", "aborted", None))
        code = 1
    except Exception as error:  # a failed stdout too (`StdoutFailed`): `finish` says it
        code = failure_code(run, error)
    return finish(run, code, state)


# `vora --version --json` (what scripts probe) in its two orders: the same document as the app's
# eager --version prints (`version_document`), indented as the run's JSON is.
_VERSION_JSON = (["--version", "--json"], ["-V", "--json"], ["--json", "--version"], ["--json", "-V"])


def _version_json(argv: Sequence[str]) -> int:
    from vora_cli.cli.invocation import version_document

    return _root_answer(argv, lambda run: run.stdout_json(version_document()))


def _root_answer(argv: Sequence[str], text: Callable[[Run], str]) -> int:
    """A root form's one text on stdout, through the same `Run` and boundary as the app's."""
    from vora_cli.cli.invocation import failure_code, finish
    from vora_cli.cli.output import Run, write_stdout
    from vora_cli.cli.streams import prepare_streams

    run = Run(list(argv))
    prepare_streams()
    try:
        write_stdout(text(run))
        code = 0
    except Exception as error:  # a full disk, a closed stdout, a bad settings file: the app's boundary
        code = failure_code(run, error)
    return finish(run, code)


# `vora --help`, `vora -h` and `vora` alone (the root's help, exit 0): the page the app writes,
# generated from it (`ROOT_HELP`), where click would wrap it to the same width; on a narrower
# terminal the app writes it (None).
_ROOT_HELP: tuple[list[str], ...] = (["--help"], ["-h"], [])
# click wraps help to `max(min(columns, 80) - 2, 50)` columns (`click.formatting.HelpFormatter`):
# 78 on every terminal of 80 columns or more, and when stdout is not a terminal (80 by default).
HELP_PAGE_COLUMNS = 80


def _root_help(argv: Sequence[str]) -> int | None:
    import shutil

    if shutil.get_terminal_size().columns < HELP_PAGE_COLUMNS:
        return None
    from vora_cli.cli.dispatch_table import ROOT_HELP

    return _root_answer(argv, lambda _run: ROOT_HELP + "\n")
