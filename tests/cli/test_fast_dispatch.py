"""The fast dispatch (`cli/dispatch.py`) answers exactly as the Typer app does: every hot command's
argument forms, generated from its table (`cli/dispatch_table.py`) plus odd ones picked by hand,
run through both paths on a pty-less pipe, with the same stdout and stderr bytes and exit code;
the fast path imports neither typer nor click; the table is what the app generates now.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from dispatch_support import captured as _captured
from dispatch_support import run_both
from dispatch_support import typer_main as _typer

from vora_cli import __version__
from vora_cli.cli.dispatch import FORCE_TYPER, dispatch
from vora_cli.cli.dispatch_table import COMMANDS, ROOT

REPO = Path(__file__).resolve().parents[2]

# Values for the value options and arguments: one that works on the example install, one that does not.
SAMPLES: dict[str, tuple[str, ...]] = {
    "--type": ("number", "nope"),
    "--workspace": ("workspace", "/nonexistent"),
    "--agent": ("main", "nope"),
    "--kind": ("group", "nope"),
    "--session": ("main", "nope"),
    "--format": ("json", "github", "nope"),
    "--fail-on": ("warn", "nope"),
    "--only": ("config-parse", "nope"),
    "--skip": ("config-parse",),
    "--fix-id": ("state-dir",),
    "--url": ("ws://127.0.0.1:9",),
}
NUMBERS = {"int": ("5", "0", "x", "1_000"), "float": ("0.5", "x")}
ARGUMENTS: dict[str, tuple[str, ...]] = {  # the required (or usual) arguments of each hot command
    "config get": ("gateway.port",),
    "config set": ("gateway.port", "18790"),
    "sessions show": ("main",),
}


def option_forms(path: str) -> Iterator[list[str]]:
    """Each option of the command alone (both spellings of a value), then every flag at once."""
    entry = COMMANDS[path]
    args = list(ARGUMENTS.get(path, ()))
    yield args
    flags = []
    for name, (_dest, kind, _multiple, _role) in entry["options"].items():
        if kind in ("flag", "flag-off"):
            flags.append(name)
            yield [*args, name]
            yield [name, *args]
            continue
        for value in SAMPLES.get(name, NUMBERS.get(kind, ("x",))):
            yield [*args, name, value]
            yield [*args, f"{name}={value}"]
    yield [*args, *flags]
    yield [*args, name, "--json"] if (name := next(iter(entry["options"]))) else args


ODD_FORMS: tuple[list[str], ...] = (
    ["--help"], ["-h"], ["--"], ["-qj"], ["--jso"], ["--json=1"], ["extra", "words", "here"], ["--state-dir"],
    ["--version"], ["-"], ["--json", "--json"], ["-q", "-q"], ["--dev"], ["--profile", "work"], ["--profile=!!"],
    ["--dev", "--profile", "x"], ["--config", "examples/other.json"], ["--state-dir="],
)


def _command_words(path: str) -> list[str]:
    return path.split(" ")


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Callable[[], None]]:
    """A copy of the example install, and a reset that puts it back as it was (config set writes)."""
    source = tmp_path / "source"
    shutil.copytree(REPO / "examples", source, symlinks=True)
    live = tmp_path / "examples"
    monkeypatch.setenv("VORA_NOW_MS", "1767225600000")
    monkeypatch.chdir(live.parent)

    def reset() -> None:
        shutil.rmtree(live, ignore_errors=True)
        shutil.copytree(source, live, symlinks=True)

    reset()
    return live / "vora", reset


def _check(argv: list[str], reset: Callable[[], None], answered: list[str]) -> None:
    fast, typer_result, took = run_both(argv, reset)
    assert fast == typer_result, f"vora {' '.join(argv)}: the fast path differs from Typer"
    if took:
        answered.append(" ".join(argv))


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_every_form_of_a_hot_command_answers_as_typer_does(
        path: str, example: tuple[Path, Callable[[], None]]) -> None:
    state, reset = example
    words = _command_words(path)
    answered: list[str] = []
    for form in option_forms(path):
        _check(["--state-dir", str(state), *words, *form], reset, answered)
        # the global options after the command (`vora doctor --state-dir X`), and the root's own
        _check([*words, *form, "--state-dir", str(state)], reset, answered)
    for root_form in (["--json"], ["-q"], ["--quiet", "--json"]):
        _check([*root_form, "--state-dir", str(state), *words, *ARGUMENTS.get(path, ())], reset, answered)
    for odd in ODD_FORMS:
        _check(["--state-dir", str(state), *words, *ARGUMENTS.get(path, ()), *odd], reset, answered)
        _check(["--state-dir", str(state), *odd, *words, *ARGUMENTS.get(path, ())], reset, answered)
    assert len(answered) >= 4, f"the fast path answered too few forms of {path}: {answered}"


_PER_CONNECTION = re.compile(rb'("latencyMs": |handshake in )\d+|("connId": )"[^"]*"')


def test_gateway_status_against_a_gateway_answers_as_typer_does(
        example: tuple[Path, Callable[[], None]], monkeypatch: pytest.MonkeyPatch) -> None:
    """The forms above meet no gateway (the connection is refused); these complete the handshake
    and read a log tail, with the identity and device token the first run stored (the latency the
    and the connection's id the only differences)."""
    import time

    from gateway_server import gateway_log_line, iso, running_gateway

    state, _reset = example
    monkeypatch.delenv("VORA_NOW_MS")  # the gateway checks the signature's time against its own clock
    now = int(time.time() * 1000)
    lines = [gateway_log_line(iso(now - 5_000 + i), f"line {i} token: abc123") for i in range(50)]
    lines.append(gateway_log_line(iso(now - 1_000), "ready (2 plugins: my-engine, other; 1.2s)"))
    answered: list[str] = []
    with running_gateway(log_lines=lines, uptime_ms=60_000) as gw:
        monkeypatch.setenv("VORA_GATEWAY_PORT", str(gw.port))
        _captured(lambda: _typer(["--state-dir", str(state), "gateway", "status"]))  # makes the identity
        for form in ([], ["--json"], ["--timeout", "5"], ["--json", "--timeout=5"], ["-q"]):
            argv = ["--state-dir", str(state), "gateway", "status", *form]
            fast, typer_result, took = run_both(argv, lambda: None)
            assert fast[2] == 0, fast
            assert (_PER_CONNECTION.sub(rb"\1\2N", fast[0]), fast[1:]) == (
                _PER_CONNECTION.sub(rb"\1\2N", typer_result[0]), typer_result[1:]), argv
            assert took
            answered.append(" ".join(form))
    assert len(answered) == 5


def _broken_settings(home: Path) -> None:
    path = home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("color = [unclosed\n")


@pytest.mark.slow
@pytest.mark.parametrize("case", ["missing-config", "broken-config", "broken-settings", "empty-config"])
def test_a_broken_install_fails_the_same_way_on_both_paths(
        case: str, example: tuple[Path, Callable[[], None]], home: Path) -> None:
    state, reset = example

    def broken() -> None:
        reset()
        if case == "missing-config":
            (state / "vora.json").unlink()
        elif case == "broken-config":
            (state / "vora.json").write_text("{ gateway: { port: 18789, ")
        elif case == "empty-config":
            (state / "vora.json").write_text("")
        else:
            _broken_settings(home)

    answered: list[str] = []
    for path in sorted(COMMANDS):
        args = [*_command_words(path), *ARGUMENTS.get(path, ())]
        for extra in ([], ["--json"], ["-q"]):
            _check(["--state-dir", str(state), *args, *extra], broken, answered)
    assert answered


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
        assert _captured(lambda: dispatch(argv))[1] is False  # noqa: B023 - run now


def test_the_table_covers_the_hot_commands_and_the_root() -> None:
    assert {"config file", "config get", "config set", "config validate", "context list", "context json",
            "plugins list", "devices list", "devices approve", "sessions list", "sessions show", "doctor",
            "gateway status"} == set(COMMANDS)
    assert set(ROOT["options"]) == {"--state-dir", "--config", "--profile", "--dev", "--json", "--quiet", "-q"}


def test_the_table_is_what_the_app_generates() -> None:
    from vora_cli.cli.app import root_command
    from vora_cli.cli.docgen.gen import generate
    from vora_cli.cli.docgen.tree import command_tree

    rel = "vora_cli/cli/dispatch_table.py"
    assert generate(command_tree(root_command()))[rel] == (REPO / rel).read_text(encoding="utf-8")


def test_the_environment_variable_sends_every_line_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(FORCE_TYPER, "1")
    assert dispatch(["config", "file"]) is None


_IMPORTS = """
import sys
from vora_cli.cli.dispatch import dispatch
code = dispatch(sys.argv[1:])
loaded = sorted({m.split('.')[0] for m in sys.modules} & {'typer', 'click', 'rich'})
sys.stderr.write(f"\\nFAST={code is not None} LOADED={','.join(loaded)}\\n")
"""


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(COMMANDS))
def test_the_fast_path_imports_neither_typer_nor_click(path: str, example: tuple[Path, Callable[[], None]]) -> None:
    state, _reset = example
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    argv = ["--state-dir", str(state), *_command_words(path), *ARGUMENTS.get(path, ())]
    result = subprocess.run([sys.executable, "-c", _IMPORTS, *argv], capture_output=True, text=True, env=env,
                            check=False, timeout=120)
    assert result.stderr.rstrip().endswith("FAST=True LOADED="), result.stderr


@pytest.mark.slow
def test_the_program_takes_the_fast_path_and_typer_when_asked(example: tuple[Path, Callable[[], None]]) -> None:
    state, _reset = example
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    argv = [sys.executable, "-X", "importtime", "-m", "vora_cli", "--state-dir", str(state), "config", "get",
            "gateway.port"]
    fast = subprocess.run(argv, capture_output=True, env=env, check=False, timeout=120)
    slow = subprocess.run(argv, capture_output=True, env={**env, FORCE_TYPER: "1"}, check=False, timeout=120)
    assert (fast.returncode, fast.stdout) == (slow.returncode, slow.stdout) == (0, b"18789\n")
    imported = re.compile(rb"^import time:.*\|\s+(typer|click|rich)$", re.MULTILINE)
    assert imported.findall(fast.stderr) == []
    assert set(imported.findall(slow.stderr)) >= {b"typer", b"click"}
