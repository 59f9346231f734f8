"""The fast dispatch (`cli/dispatch.py`) cannot answer a command line differently from the Typer app.

Both paths call the same function (`@command`, `cli/declare.py`) with the same `AppState`
(`cli/invocation.py`); what could differ is the parse. So every command line the fast parser
accepts — generated from the table's own vocabulary (each option alone, repeated, with `=`,
global options before and after the command, numbers click reads or refuses, words that look like
options) — is parsed by click too, and must give the same command, the same values (as Typer hands
them to the function: a repeated option as a list, none given as None), the same global options
and the same eager effects (`--json`, `--format json`, `--quiet`). Anything it refuses goes to the
app. A few real runs check the whole path: the same bytes out, and no typer, click or rich loaded.

`vora --help`, `vora -h` and `vora` alone are answered by the fast dispatch from the page the
app generates (`ROOT_HELP` in `cli/dispatch_table.py`), where click would wrap the page to the same
width (80 columns or more, or not a terminal); on a narrower terminal the app writes it. Held to
the app's own answer byte for byte, exit code included: on pipes at several widths, on a closed
stdout and a full disk, and on a real pty.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from conftest import vora_command
from dispatch_support import captured, run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from pty_support import run_with_pty

from vora_cli import __version__
from vora_cli.cli.dispatch import EVERY_COMMAND, FORCE_TYPER, HELP_PAGE_COLUMNS, dispatch, parse
from vora_cli.cli.dispatch_table import COMMANDS, ROOT
from vora_cli.cli.invocation import AppState
from vora_cli.cli.output import Run

REPO = Path(__file__).resolve().parents[3]
HOT = sorted(COMMANDS)

# A value for each kind of option: text, numbers click reads (and ones it refuses), look-alikes of options.
VALUES = {
    "str": ("x", "json", "text", "warn", "main", "gateway.port", "-x", "--json", "", "a,b"),
    "int": ("5", "0", "-5", "1_000", "x", "0x10", " 7", "1.5"),
    "float": ("0.5", "3", "1e3", "nan", "x", "-1", "inf"),
}
WORDS = ("gateway.port", "main", "18790", "abc", "-", "--", "-5", "--jso", "-qj", "--json=1", "--help", "-h",
         "--version", "-q", "--quiet", "--json")


def _option_words(options: dict[str, list[Any]], draw: Any) -> list[str]:
    """One option with its value, or given twice (the last one wins, eager effects included)."""
    name = draw(st.sampled_from(sorted(options)))
    kind = options[name][1]
    if kind in ("flag", "flag-off"):
        return [name]
    words = []
    for _ in range(draw(st.integers(1, 2))):
        value = draw(st.sampled_from(VALUES[kind]))
        words += [f"{name}={value}"] if draw(st.booleans()) else [name, value]
    return words


@st.composite
def command_lines(draw: Any) -> list[str]:
    path = draw(st.sampled_from(HOT))
    entry = COMMANDS[path]
    globals_ = {k: v for k, v in ROOT["options"].items()
                if k in ("--state-dir", "--config", "--profile", "--dev", "--force", "--no-pager", "--ascii")}
    before = [w for _ in range(draw(st.integers(0, 2))) for w in _option_words(ROOT["options"], draw)]
    words: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        choice = draw(st.integers(0, 9))
        if choice <= 4:
            words += _option_words({**entry["options"], **{k: ROOT["options"][k] for k in EVERY_COMMAND}}, draw)
        elif choice <= 6:
            words += _option_words(globals_, draw)
        else:
            words.append(draw(st.sampled_from(WORDS)))
    return [*before, *path.split(" "), *words]


def _click_parse(argv: list[str]) -> tuple[str, dict[str, Any], dict[str, Any], Run]:
    """What the app parses `argv` into: the command's path, the root's values, the command's
    values as Typer hands them to its function, and the run's eager effects. The app's command is
    built once (`vora_command`): a parse leaves it as it was (its contexts are its own, and the
    options' callbacks write to this line's own `Run`)."""
    root = vora_command()
    run = Run(argv)
    root_ctx = root.make_context("vora", list(argv), obj=AppState(run))
    ctx: click.Context = root_ctx
    rest = [*ctx.protected_args, *ctx.args]
    names = []
    command: click.Command = root
    while isinstance(command, click.Group):
        name, sub, rest = command.resolve_command(ctx, rest)
        assert name is not None and sub is not None
        names.append(name)
        ctx = sub.make_context(name, rest, parent=ctx)
        rest = [*ctx.protected_args, *ctx.args] if isinstance(sub, click.Group) else []
        command = sub
    values = {}
    for param in command.params:
        if param.name is None or not param.expose_value:
            continue
        value = ctx.params[param.name]
        if isinstance(value, tuple):  # typer's list convertor: a repeated option as a list, none given as None
            value = None if not value and param.default is None else list(value)
        values[param.name] = value
    root_values = {k: v for k, v in root_ctx.params.items() if k not in ("version",)}
    return " ".join(names), root_values, values, run


def _same(fast: dict[str, Any], app: dict[str, Any]) -> bool:
    """Equal values (a NaN equal to a NaN: `--timeout nan` is read alike on both paths)."""
    return repr(sorted(fast.items())) == repr(sorted(app.items()))


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(command_lines())
def test_every_line_the_fast_parser_accepts_click_parses_the_same(argv: list[str]) -> None:
    parsed = parse(argv, ROOT, COMMANDS)
    if parsed is None:
        return  # the app's to answer
    line, group, entry, values = parsed
    path, root_values, click_values, run = _click_parse(argv)
    assert path.split(" ")[0] == group and COMMANDS[path] is entry, argv
    assert _same(values, click_values), argv
    assert {k: v for k, v in line.root_values.items() if k in ("state_dir", "config", "profile", "dev")} == {
        k: v for k, v in root_values.items() if k in ("state_dir", "config", "profile", "dev")}, argv
    assert (line.json_mode, line.quiet, line.query) == (run.json_mode or entry["json_only"], run.quiet,
                                                        run.query), argv
    assert (line.root_values["no_pager"], line.root_values["ascii_only"]) == (
        root_values["no_pager"], root_values["ascii_only"]), argv


@pytest.mark.parametrize("argv", [
    ["doctor", "--format", "json", "--format", "text"],  # the last wins, and so does its eager effect
    ["doctor", "--format", "text", "--format", "json"],
    ["doctor", "--only", "a", "--only", "b,c", "--skip=d"],
    ["config", "get", "gateway.port", "--state-dir", "x", "--state-dir", "y"],
    ["--profile", "a", "sessions", "list", "--active", "5", "--active", "1_000", "--profile=b"],
    ["context", "list", "--max-chars", "0", "--json", "--json"],
    ["-q", "devices", "list", "--no-headers", "--quiet"],
])
def test_repeated_and_eager_options_parse_as_click_does(argv: list[str]) -> None:
    parsed = parse(argv, ROOT, COMMANDS)
    assert parsed is not None, argv
    line, _group, _entry, values = parsed
    _path, _root, click_values, run = _click_parse(argv)
    assert _same(values, click_values)
    assert (line.json_mode, line.quiet) == (run.json_mode, run.quiet)


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "examples", symlinks=True)
    monkeypatch.setenv("VORA_NOW_MS", "1767225600000")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "examples" / "vora"


ARGUMENTS = {"config get": ["gateway.port"], "config set": ["gateway.port", "18790"], "sessions show": ["main"]}


def _basic_form(path: str) -> list[str]:
    return [*path.split(" "), *ARGUMENTS.get(path, [])]


def test_each_hot_command_answers_as_the_app_does(example: Path) -> None:
    """The whole path, once per command: the same stdout, stderr and exit code as the app's."""
    snapshot = example.parent.parent / "snapshot"
    shutil.copytree(example.parent, snapshot, symlinks=True)

    def reset() -> None:
        shutil.rmtree(example.parent)
        shutil.copytree(snapshot, example.parent, symlinks=True)

    for path in HOT:
        for extra in ([], ["--json"]):
            argv = ["--state-dir", str(example), *_basic_form(path), *extra]
            fast, app, took = run_both(argv, reset)
            assert took, argv
            assert fast == app, argv


_IMPORTS = """
import json, sys
from vora_cli.cli.dispatch import dispatch
answered = [dispatch(argv) is not None for argv in json.loads(sys.argv[1])]
loaded = sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click', 'rich'})
sys.stderr.write(f"\\nANSWERED={all(answered)} LOADED={','.join(loaded)}\\n")
"""


def test_the_fast_path_imports_neither_typer_nor_click(example: Path) -> None:
    lines = [["--state-dir", str(example), *_basic_form(path)] for path in HOT if path != "gateway status"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", _IMPORTS, json.dumps(lines)], capture_output=True, text=True,
                            env=env, check=False, timeout=120)
    assert result.stderr.rstrip().endswith("ANSWERED=True LOADED="), result.stderr


def test_the_program_takes_the_fast_path_and_typer_when_asked(example: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    argv = [sys.executable, "-X", "importtime", "-m", "vora_cli", "--state-dir", str(example), "config", "get",
            "gateway.port"]
    fast = subprocess.run(argv, capture_output=True, env=env, check=False, timeout=120)
    slow = subprocess.run(argv, capture_output=True, env={**env, FORCE_TYPER: "1"}, check=False, timeout=120)
    assert (fast.returncode, fast.stdout) == (slow.returncode, slow.stdout) == (0, b"18789\n")
    imported = re.compile(rb"^import time:.*\|\s+(typer|click|rich)$", re.MULTILINE)
    assert imported.findall(fast.stderr) == []
    assert set(imported.findall(slow.stderr)) >= {b"typer", b"click"}


def _broken_settings(home: Path) -> None:
    path = home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("color = [unclosed\n")


@pytest.mark.parametrize("case", ["plain", "broken-settings", "indent-setting", "indent-env"])
def test_version_json_answers_as_typer_does(case: str, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`vora --version --json` (and -V, either order) is the fast path's; anything more is the app's."""
    if case == "broken-settings":
        _broken_settings(home)
    elif case == "indent-setting":
        (home / ".config" / "vora").mkdir(parents=True, exist_ok=True)
        (home / ".config" / "vora" / "settings.toml").write_text("json_indent = 4\n")
    elif case == "indent-env":
        monkeypatch.setenv("VORA_JSON_INDENT", "2")
    for argv in (["--version", "--json"], ["-V", "--json"], ["--json", "--version"], ["--json", "-V"]):
        fast, typer_result, took = run_both(argv, lambda: None)
        assert took and fast == typer_result, argv
        assert json.loads(fast[0]) == {"name": "vora", "version": __version__}
        assert fast[0].startswith(b'{\n    "name"') == (case == "indent-setting")
    for argv in (["--version", "--json", "--json"], ["--version", "--json", "doctor"], ["--json", "--version", "-q"]):
        assert captured(lambda: dispatch(argv))[1] is False  # noqa: B023 - run now


def test_the_table_covers_the_hot_commands_and_the_root() -> None:
    assert {"config file", "config get", "config set", "config validate", "context list", "context json",
            "plugins list", "devices list", "devices approve", "sessions list", "sessions show", "doctor",
            "gateway status"} == set(COMMANDS)
    assert set(ROOT["options"]) == {"--state-dir", "--config", "--profile", "--dev", "--force", "--json", "--quiet", "-q",
                                    "--no-pager", "--ascii", "--query"}


def test_the_table_is_what_the_app_generates() -> None:
    from vora_cli.cli.app import root_command
    from vora_cli.cli.docgen.gen import generate
    from vora_cli.cli.docgen.tree import command_tree

    rel = "vora_cli/cli/dispatch_table.py"
    assert generate(command_tree(root_command()))[rel] == (REPO / rel).read_text(encoding="utf-8")


def test_the_environment_variable_sends_every_line_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FORCE_TYPER, "1")
    assert dispatch(["config", "file"]) is None


def test_every_command_module_imports_without_a_cli_framework() -> None:
    """So any command can be answered by the fast dispatch: its module names typer for type checkers only."""
    script = """
import importlib, pkgutil, sys
for name in ('typer', 'click', 'rich'):
    sys.modules[name] = None
import vora_cli.cli.commands as commands
for found in pkgutil.walk_packages(commands.__path__, 'vora_cli.cli.commands.'):
    if not found.name.endswith('._options'):
        importlib.import_module(found.name)
print('ok')
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, check=False, timeout=120)
    assert result.stdout == "ok\n", result.stderr


FORMS = (["--help"], ["-h"], [])


def _env(tmp_path: Path, columns: str | None, typer: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_") and k != "COLUMNS"}
    env.update({"PYTHONPATH": str(REPO), "HOME": str(tmp_path), "VORA_STATE_DIR": str(tmp_path / "state")})
    if columns is not None:
        env["COLUMNS"] = columns
    if typer:
        env[FORCE_TYPER] = "1"
    return env


def _run(argv: list[str], env: dict[str, str], stdout: int | None = subprocess.PIPE) -> tuple[bytes, bytes, int]:
    done = subprocess.run([sys.executable, "-m", "vora_cli", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          env=env, check=False)
    return done.stdout or b"", done.stderr, done.returncode


@pytest.mark.parametrize("columns", [None, "80", "81", "200", "79", "60", "10", "0", "-5", "wide"])
@pytest.mark.parametrize("argv", FORMS, ids=["--help", "-h", "bare"])
def test_the_root_help_is_the_apps_at_every_width(argv: list[str], columns: str | None, tmp_path: Path) -> None:
    fast = _run(argv, _env(tmp_path, columns, typer=False))
    assert fast == _run(argv, _env(tmp_path, columns, typer=True))
    assert fast[2] == 0 and fast[0].startswith(b"Usage: vora [OPTIONS] COMMAND [ARGS]...")


@pytest.mark.parametrize("argv", [["--help"], []], ids=["--help", "bare"])
def test_a_failed_stdout_is_said_as_the_app_says_it(argv: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        fast = _run(argv, _env(tmp_path, None, typer=False), stdout=full.fileno())
        assert fast == _run(argv, _env(tmp_path, None, typer=True), stdout=full.fileno())
    assert fast[2] != 0 and fast[1]
    closed = [sys.executable, "-c", "import os, runpy, sys; os.close(1); sys.argv = ['vora', *sys.argv[1:]]; "
              "runpy.run_module('vora_cli', run_name='__main__')", *argv]
    both = [subprocess.run(closed, capture_output=True, env=_env(tmp_path, None, typer=t), check=False)
            for t in (False, True)]
    assert (both[0].stderr, both[0].returncode) == (both[1].stderr, both[1].returncode)


def _on_pty(argv: list[str], env: dict[str, str], columns: int) -> tuple[str, int]:
    code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", *argv], env, columns=columns)
    return shown, code


@pytest.mark.parametrize("columns", [120, 80, 79, 52])
def test_on_a_terminal_too(columns: int, tmp_path: Path) -> None:
    fast = _on_pty(["--help"], _env(tmp_path, None, typer=False), columns)
    assert fast == _on_pty(["--help"], _env(tmp_path, None, typer=True), columns)
    assert fast[1] == 0 and "Commands:" in fast[0]


def test_the_fast_path_answers_only_where_click_would_wrap_alike(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(FORCE_TYPER, raising=False)
    for columns, answered in ((HELP_PAGE_COLUMNS, True), (300, True), (HELP_PAGE_COLUMNS - 1, False), (50, False)):
        monkeypatch.setenv("COLUMNS", str(columns))
        code = dispatch(["--help"])
        assert (code == 0) is answered and (code is None) is (not answered), columns
        out = capsys.readouterr().out
        assert out.startswith("Usage: vora") if answered else out == ""
    # other forms that ask for help are the app's: it knows which command's page they mean
    monkeypatch.setenv("COLUMNS", "100")
    for argv in (["--help", "--help"], ["config", "--help"], ["--json", "--help"], ["-hq"]):
        assert dispatch(argv) is None, argv


def test_the_fast_path_loads_neither_typer_nor_click(tmp_path: Path) -> None:
    script = ("import sys, runpy; sys.argv = ['vora', '--help']\n"
              "try:\n    runpy.run_module('vora_cli', run_name='__main__')\n"
              "except SystemExit as stop:\n    code = stop.code\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich')), code,"
              " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=_env(tmp_path, None, typer=False), check=False)
    assert done.stderr.strip() == "[] 0", done.stderr
    assert done.stdout.startswith("Usage: vora")
