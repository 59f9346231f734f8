"""The CLI shell: one boundary table, `--json` recorded by the option, did-you-mean, early Ctrl-C,
one registration style, every write through the output layer, no import circles."""

from __future__ import annotations

import ast
import errno
import functools
import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from import_graph import circles, import_graph
from second_user import give, reachable, run_as, svc  # noqa: F401  (fixtures)
from source_trees import source_nodes

from tests.conftest import REPO
from vora_cli.cli.app import root_command
from vora_cli.cli.clickcompat import VoraCommand, VoraSubgroup
from vora_cli.cli.invocation import as_vora_error

PACKAGE = REPO / "vora_cli"


# -- no import circles ----------------------------------------------------------------------------

def test_vora_cli_has_no_import_circles() -> None:
    assert circles(import_graph(PACKAGE, "vora_cli")) == []


@functools.cache
def _graph_with_lazy_imports() -> dict[str, set[str]]:
    return import_graph(PACKAGE, "vora_cli", top_level_only=False)


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
def test_no_circles_even_through_imports_inside_functions() -> None:
    """Lazy imports run later, but still tie modules together (app -> completion -> tree -> app was one)."""
    assert circles(_graph_with_lazy_imports()) == []


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
def test_docgen_never_imports_the_app() -> None:
    graph = _graph_with_lazy_imports()
    docgen = [m for m in graph if m.startswith("vora_cli.cli.docgen") and not m.endswith("__main__")]
    assert "vora_cli.cli.docgen.gen" in docgen  # the walk found the generator (not vacuously empty)
    for module in docgen:
        assert "vora_cli.cli.app" not in graph[module], module


# -- the boundary's exception table ---------------------------------------------------------------

@pytest.mark.parametrize(("error", "message"), [
    (NotADirectoryError(errno.ENOTDIR, "Not a directory", "/s/extensions/x"), "/s/extensions/x: Not a directory"),
    (IsADirectoryError(errno.EISDIR, "Is a directory", "/s/vora.json"), "/s/vora.json: Is a directory"),
    (PermissionError(errno.EACCES, "Permission denied", "/s/devices"), "/s/devices: Permission denied"),
    (OSError(errno.ENAMETOOLONG, "File name too long", "/s/" + "x" * 300), "/s/" + "x" * 300 + ": File name too long"),
    (OSError(errno.ENOSPC, "No space left on device", "/s/vora.json", None, "/s/.tmp"),
     "/s/vora.json -> /s/.tmp: No space left on device"),
    (OSError(errno.EIO, "Input/output error", b"/s/\xff"), "/s/\udcff: Input/output error"),
    (FileNotFoundError(errno.ENOENT, "No such file or directory"), "No such file or directory"),
])
def test_os_errors_are_io_errors_naming_the_file_and_the_reason(error: OSError, message: str) -> None:
    vora_error = as_vora_error(error)
    assert (vora_error.code, vora_error.message, vora_error.exit_code) == ("io_error", message, 1)
    assert vora_error.hint


@pytest.mark.parametrize("call", [os.stat, os.path.realpath, os.scandir, open, os.listdir])
def test_a_nul_in_a_path_is_bad_input_and_other_value_errors_are_bugs(call: Any) -> None:
    with pytest.raises(ValueError) as raised:  # what the OS layer really raises for a NUL
        call("/tmp/a\x00b")
    vora_error = as_vora_error(raised.value)
    assert (vora_error.code, vora_error.exit_code) == ("invalid", 1)
    assert "NUL character" in vora_error.message and vora_error.hint
    assert as_vora_error(ValueError("invalid literal for int()")).code == "internal"
    assert as_vora_error(UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")).code == "internal"


def test_io_hints_say_what_to_do_about_the_os_reason() -> None:
    hints = {as_vora_error(OSError(number, os.strerror(number), "/x")).hint
             for number in (errno.ENOTDIR, errno.EISDIR, errno.EACCES, errno.ENAMETOOLONG, errno.ENOSPC)}
    assert len(hints) == 5
    assert "too long" in str(as_vora_error(OSError(errno.ENAMETOOLONG, "File name too long", "/x")).hint)
    assert "full" in str(as_vora_error(OSError(errno.ENOSPC, "No space left on device", "/x")).hint)


def test_enotdir_names_the_file_in_the_way(tmp_path: Path) -> None:
    (tmp_path / "extensions").write_text("a file")
    target = tmp_path / "extensions" / ".staging-1" / "p"
    error = as_vora_error(NotADirectoryError(errno.ENOTDIR, "Not a directory", str(target)))
    assert error.message == f"{tmp_path / 'extensions'}: Not a directory (needed as a folder for {target})"


def test_failed_subprocesses_are_external_errors() -> None:
    failed = as_vora_error(subprocess.CalledProcessError(2, ["npm", "install", "x"]))
    assert (failed.code, failed.message) == ("external", "'npm install x' failed with exit code 2")
    slow = as_vora_error(subprocess.TimeoutExpired("npm pack x", 30))
    assert (slow.code, slow.message) == ("external", "'npm pack x' did not finish in 30 s")


@pytest.mark.parametrize("error", [ValueError("x"), KeyError("k"), TypeError("t"), AttributeError("a")])
def test_everything_else_is_a_bug(error: Exception) -> None:
    assert as_vora_error(error).code == "internal"


def _snapshot(root: Path) -> dict[str, bytes | None]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else None) for p in sorted(root.rglob("*"))}


def test_a_file_where_the_extensions_dir_should_be_is_an_io_error(vora, state_dir: Path, tmp_path: Path) -> None:
    (state_dir / "vora.json").write_text("// mine\n{ gateway: { port: 18789 } }\n")
    (state_dir / "extensions").write_text("not a folder")
    plugin = tmp_path / "my-engine"
    assert vora("plugins", "init", str(plugin), "--id", "my-engine", "--kind", "context-engine").exit_code == 0
    before = _snapshot(state_dir)
    for args in (["plugins", "install", str(plugin)], ["plugins", "install", str(plugin), "--json"]):
        result = vora(*args)
        assert result.exit_code == 1
        if "--json" in args:
            error = result.json()["error"]
            assert error["code"] == "io_error"
            assert error["message"].startswith(f"{state_dir / 'extensions'}: Not a directory (needed as a folder for ")
            assert "a file stands where vora needs a folder" in error["hint"]
        else:
            assert result.stderr.startswith(f"error: {state_dir / 'extensions'}: Not a directory (needed as a folder for ")
            assert "bug" not in result.stderr
    assert _snapshot(state_dir) == before


def test_a_name_too_long_is_an_io_error(vora, tmp_path: Path) -> None:
    target = tmp_path / ("x" * 300)
    result = vora("plugins", "init", str(target), "--id", "long", "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert (error["code"], error["message"]) == ("io_error", f"{target}: File name too long")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "tmp"]


def test_a_folder_vora_may_not_write_is_an_io_error(reachable: Path, svc) -> None:  # noqa: F811
    """As a real second user (root may write into a read-only folder)."""
    from click.testing import CliRunner
    from conftest import vora_command

    locked = reachable / "locked"
    locked.mkdir(mode=0o500)
    give(reachable, svc)
    home = reachable / "home"
    home.mkdir()
    give(home, svc)

    def init(where: Path) -> tuple[int, str]:
        result = CliRunner(mix_stderr=False).invoke(
            vora_command(), ["plugins", "init", str(where), "--id", "p", "--json"],
            env={"HOME": str(home), "VORA_HOME": str(home)}, catch_exceptions=False)
        return result.exit_code, result.stdout

    code, out = run_as(svc, lambda: init(locked / "p"), warm=lambda: init(reachable / "warm" / "p"), home=home)
    assert code == 1
    error = json.loads(out)["error"]
    assert error == {"code": "io_error", "message": f"cannot create directory {locked / 'p'}: Permission denied",
                     "hint": error["hint"]}
    assert list(locked.iterdir()) == []


# -- --json recorded by the option ----------------------------------------------------------------

@pytest.mark.parametrize("command", [
    ["config", "file"],
    ["config", "get", "gateway"],
    ["context", "list"],
    ["plugins", "list"],
    ["devices", "list"],
    ["doctor"],
    ["completion", "fish"],
])
def test_root_json_is_the_same_as_the_command_json(vora, state_dir: Path, command: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_NOW_MS", "1767225600000")
    (state_dir / "vora.json").write_text("{ gateway: { port: 18789 } }\n")
    own = vora(*command, "--json")
    root = vora("--json", *command)
    assert (root.exit_code, root.stdout, root.stderr) == (own.exit_code, own.stdout, own.stderr)
    json.loads(root.stdout)


@pytest.mark.parametrize("args", [
    ["--json", "config", "get", "no.such.key"],
    ["--json", "confg"],
    ["--json", "--bogus"],
    ["config", "get", "--bogus", "--json"],
    ["completion", "tcsh", "--json"],
    ["context", "json", "--bogus"],
    ["--profile", "!!", "config", "file", "--json"],
    ["--json", "--profile", "!!", "doctor"],
])
def test_errors_are_json_whenever_json_was_asked(vora, args: list[str]) -> None:
    result = vora(*args)
    assert set(result.json()) == {"error"}
    expected = (1, "not_found") if "no.such.key" in args else (2, "usage")
    assert (result.exit_code, result.json()["error"]["code"]) == expected
    assert result.stderr == ""


def test_a_value_named_json_is_not_json_mode(vora, state_dir: Path) -> None:
    """Only the option counts: a word `--json` after `--`, or the command `context json`'s name elsewhere."""
    for args, code in ((["config", "get", "--", "--json"], 1), (["config", "get", "json"], 1),
                       (["config", "get", "context", "json"], 2)):  # not set (1); one key too many (2)
        result = vora(*args)
        assert result.exit_code == code, args
        assert result.stdout == "" and result.stderr.startswith("error:"), args
    result = vora("config", "set", "env.X", "--", "--json")
    assert result.exit_code == 0
    assert result.stdout.startswith("Set env.X: --json")
    result = vora("config", "get", "json")
    assert result.exit_code == 1
    assert result.stdout == "" and result.stderr.startswith("error:")


# -- did-you-mean ---------------------------------------------------------------------------------

def _typo(name: str) -> str:
    """The name with one letter dropped from its middle (`config` -> `conig`)."""
    middle = len(name) // 2
    return name[:middle] + name[middle + 1:]


def _groups() -> list[tuple[list[str], click.Group]]:
    root = root_command()
    assert isinstance(root, click.Group)
    ctx = click.Context(root, info_name="vora")
    found: list[tuple[list[str], click.Group]] = [([], root)]
    for name in root.list_commands(ctx):
        command = root.get_command(ctx, name)
        if isinstance(command, click.Group):
            found.append(([name], command))
    return found


@pytest.mark.parametrize(("path", "group"), _groups(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_every_mistyped_command_gets_a_did_you_mean(vora, path: list[str], group: click.Group) -> None:
    ctx = click.Context(group, info_name=path[-1] if path else "vora")
    names = [n for n in group.list_commands(ctx) if not group.get_command(ctx, n).hidden]  # type: ignore[union-attr]
    assert names
    for name in names:
        typo = _typo(name)
        if typo in names:
            continue
        result = vora(*path, typo)
        assert result.exit_code == 2, (path, typo)
        line = result.stderr.splitlines()[0]
        assert "did you mean '" in line, (path, typo, line)
        suggested = line.split("did you mean '")[1].split("'")[0]
        assert suggested in names


def test_did_you_mean_names_the_nearest_command(vora) -> None:
    assert vora("confg").stderr == (
        "error: No such command 'confg'; did you mean 'config'?\nhint: run 'vora --help' for the usage\n")
    assert vora("devices", "aprove").stderr.startswith("error: No such command 'aprove'; did you mean 'approve'?")
    assert vora("plugins", "instal").exit_code == 2


def test_nothing_near_enough_gets_no_guess(vora) -> None:
    result = vora("zzqqxx")
    assert (result.exit_code, result.stderr.splitlines()[0]) == (2, "error: No such command 'zzqqxx'.")


# -- one registration style -----------------------------------------------------------------------

def test_every_command_and_group_is_built_the_one_way() -> None:
    root = root_command()
    assert isinstance(root, VoraSubgroup)

    def walk(command: click.Command, ctx: click.Context) -> None:
        if isinstance(command, click.Group):
            assert isinstance(command, VoraSubgroup), ctx.command_path
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(sub, click.Context(sub, info_name=name, parent=ctx))
        else:
            assert isinstance(command, VoraCommand), ctx.command_path

    walk(root, click.Context(root, info_name="vora"))


def _calls(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in source_nodes(path):
        if isinstance(node, ast.Call):
            text = ast.unparse(node.func)
            if text == "print" or text.endswith(("stdout.write", "stderr.write", ".echo", "console.print")):
                found.append((node.lineno, text))
            if text.endswith(".register") or text == "app.command":
                found.append((node.lineno, text))
    return found


def test_every_write_goes_through_the_output_layer() -> None:
    """And no command registers itself: groups compose plain functions with add_command."""
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path in (PACKAGE / "cli" / "output.py", PACKAGE / "cli" / "streaming.py", PACKAGE / "cli" / "streams.py"):
            continue
        offenders += [f"{path.relative_to(REPO)}:{line}: {text}" for line, text in _calls(path)]
    assert offenders == []


def test_no_command_body_raises_exit() -> None:
    offenders = []
    for path in sorted((PACKAGE / "cli" / "commands").rglob("*.py")):
        for node in source_nodes(path):
            if isinstance(node, ast.Raise) and node.exc is not None and "Exit" in ast.unparse(node.exc):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert offenders == []


@pytest.mark.parametrize(("args", "code"), [
    (["config", "validate"], 1),
    (["context", "list", "--fail-on-truncation", "--max-chars", "1000"], 1),
    (["doctor", "--fail-on", "warn"], 1),
    (["context", "list", "--fail-on-truncation"], 0),
])
def test_results_carry_their_exit_code(vora, state_dir: Path, args: list[str], code: int) -> None:
    (state_dir / "vora.json").write_text("{ gateway: { port: 'x' } }\n")
    workspace = state_dir / "workspace"
    workspace.mkdir()
    (workspace / "AGENTS.md").write_text("a line of agent rules\n" * 100)
    assert vora(*args).exit_code == code
    result = vora(*args, "--json")
    assert result.exit_code == code
    assert "error" not in result.json()


# -- early Ctrl-C ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("after_import", "typer_path"), [
    ("click", True), ("vora_cli.core.json5.path_syntax", True),
    ("vora_cli.cli.dispatch_table", False), ("vora_cli.core.json5.path_syntax", False),
])
def test_ctrl_c_at_any_point_of_start_up_exits_130_quietly(tmp_path: Path, after_import: str,
                                                           typer_path: bool) -> None:
    """SIGINT right after `click` is imported (vora is still importing typer, before the boundary
    is in place), and while the command runs (it imports the config modules, inside the boundary);
    on the fast dispatch, while it reads its table and while the command runs."""
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1", "PYTHONPATH": str(REPO)}
    if typer_path:
        env["VORA_NO_FAST_DISPATCH"] = "1"  # `config get` is hot: only the Typer path imports click
    process = subprocess.Popen(
        [sys.executable, "-m", "vora_cli", "config", "get", "gateway.port"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        if line.split("|")[-1].strip() == after_import:
            process.send_signal(signal.SIGINT)
            break
    else:
        pytest.fail(f"{after_import} was never imported:\n{''.join(seen[-5:])}")
    rest = process.stderr.read()  # the same buffered reader: lines it already holds are not lost
    process.wait(timeout=60)
    messages = [line for line in rest.splitlines() if not line.startswith("import time:")]
    assert process.returncode == 130, messages
    assert messages == []  # as a Ctrl-C later in the run: exit 130, not a word, no traceback
