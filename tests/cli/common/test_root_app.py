"""The root app: global options, path and profile resolution, the output and error contract."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
import pytest
import typer

from vora_cli import __version__

REPO = Path(__file__).resolve().parents[3]


# -- profiles -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["", "-x", "a" * 65, "a b", "../x", "ü"])
def test_invalid_profile_names_are_usage_errors(vora, name: str) -> None:
    result = vora("--profile", name, "config", "file", "--json")
    assert result.exit_code == 2
    assert result.json()["error"]["code"] == "usage"


def test_dev_with_profile_is_a_usage_error(vora) -> None:
    result = vora("--dev", "--profile", "x", "config", "file")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: --dev and --profile cannot be used together\n")


def test_config_file_reports_path_and_source(vora, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    result = vora("config", "file")
    assert (result.exit_code, result.stdout) == (0, f"{home}/.vora/vora.json\n")
    doc = vora("--profile", "ops", "config", "file", "--json").json()
    assert doc["path"] == f"{home}/.vora-ops/vora.json"
    assert doc["source"] == "profile"
    monkeypatch.setenv("VORA_CONFIG_PATH", str(home / "elsewhere.json"))
    doc = vora("config", "file", "--json").json()
    assert (doc["path"], doc["source"], doc["exists"]) == (str(home / "elsewhere.json"), "env", False)
    doc = vora("--config", "~/flag.json", "config", "file", "--json").json()
    assert (doc["path"], doc["source"]) == (str(home / "flag.json"), "flag")


# -- the contract -------------------------------------------------------------------------------

def test_version(vora) -> None:
    assert vora("--version").stdout == f"vora {__version__}\n"


def test_unknown_option_is_exit_2_with_json_error(vora) -> None:
    result = vora("config", "file", "--nope", "--json")
    assert result.exit_code == 2
    error = result.json()["error"]
    assert error["code"] == "usage"
    assert "--nope" in error["message"]
    assert "vora config file --help" in error["hint"]


def test_unknown_option_human_error_goes_to_stderr(vora) -> None:
    result = vora("config", "file", "--nope")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "error: No such option: --nope" in result.stderr


def _leaf_commands() -> list[tuple[str, click.Command]]:
    from vora_cli.cli.app import app

    root = typer.main.get_command(app)
    found: list[tuple[str, click.Command]] = []

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command)
            for name in command.list_commands(ctx):
                sub = command.get_command(ctx, name)
                assert sub is not None
                walk(sub, f"{path} {name}")
        else:
            found.append((path, command))

    walk(root, "vora")
    return found


def test_every_command_has_help_and_json() -> None:
    leaves = _leaf_commands()
    assert ("vora config file" in [p for p, _ in leaves])
    for path, command in leaves:
        assert (command.help or "").strip(), f"{path} has no help text"
        options = {opt for param in command.params for opt in getattr(param, "opts", [])}
        assert "--json" in options, f"{path} lacks --json"


def test_unexpected_errors_are_one_line_unless_debug(vora_process, tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "import click\n"
        "from vora_cli.cli.app import _build_group, app\n"
        "@click.command('boom', hidden=True)\n"
        "def boom() -> None:\n"
        "    raise RuntimeError('kaboom')\n"
        "_build_group('config').add_command(boom)\n"
        "app(['config', 'boom'], prog_name='vora')\n"
    )
    env = {"PYTHONPATH": str(REPO)}
    plain = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={**_env(), **env})
    assert plain.returncode == 1
    assert "Traceback" not in plain.stderr
    assert "unexpected error: RuntimeError: kaboom" in plain.stderr
    assert "VORA_DEBUG=1" in plain.stderr
    debug = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={**_env(), **env, "VORA_DEBUG": "1"}
    )
    assert "Traceback" in debug.stderr


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


# -- real processes -----------------------------------------------------------------------------

def test_python_m_vora_cli_help_smoke(vora_process) -> None:
    result = vora_process("--help")
    assert result.returncode == 0
    for group in ("config", "context", "plugins", "devices", "doctor", "completion"):
        assert group in result.stdout
    assert "\x1b[" not in result.stdout


def test_help_does_not_import_what_it_does_not_need() -> None:
    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        "try:\n    app(['--help'], prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={**_env(), "PYTHONPATH": str(REPO)}
    )
    loaded = set(result.stderr.split())
    heavy = {"rich", "rich.console", "rich.table", "json5", "cryptography", "pydantic", "hashlib_extra", "jsonschema_rs",
             "tarfile", "zipfile", "vora_cli.core.json5.parser", "vora_cli.core.config.loading", "vora_cli.core.context", "vora_cli.core.devices",
             "vora_cli.core.plugins", "vora_cli.core.doctor", "vora_cli.core.backup",
             "vora_cli.core.security"}
    assert not (loaded & heavy), f"--help imports {sorted(loaded & heavy)}"
    assert "vora_cli.cli.app" in loaded
    # the root help lists the lazy groups from GROUP_HELP: no group's command module is imported
    from vora_cli.cli.groups import GROUP_NAMES as groups

    imported = sorted(m for m in loaded for g in groups
                      if m == f"vora_cli.cli.commands.{g}" or m.startswith(f"vora_cli.cli.commands.{g}."))
    assert not imported, f"--help imports {imported}"


def test_config_file_reads_no_config(state_dir: Path) -> None:
    """The run's install resolves paths only: `vora config file` parses no `vora.json` (issue 18)."""
    (state_dir / "vora.json").write_text("{ gateway: { port: 1 } }\n")
    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        "try:\n    app(['config', 'file'], prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**_env(), "PYTHONPATH": str(REPO)})
    assert result.stdout == f"{state_dir / 'vora.json'}\n"
    loaded = set(result.stderr.split())
    assert {"vora_cli.core.install", "vora_cli.core.paths"} <= loaded
    assert not loaded & {"vora_cli.core.config.loading", "vora_cli.core.json5.parser", "vora_cli.core.agents"}


def test_json_error_is_exactly_one_document(vora) -> None:
    result = vora("--profile", "!!", "config", "file", "--json")
    assert json.loads(result.stdout) == {
        "error": {
            "code": "usage",
            "message": "invalid profile name '!!': use 1-64 letters, digits, '_' or '-', starting with a letter or digit",
            "hint": "for example: --profile work",
        }
    }


def test_version_fast_path_matches_the_app(vora_process, vora) -> None:
    fast = vora_process("--version")
    assert (fast.returncode, fast.stdout) == (0, vora("--version").stdout)
    assert vora_process("-V").stdout == fast.stdout


def test_json_is_one_compact_line_when_piped_and_indented_on_request(vora_process) -> None:
    piped = vora_process("config", "file", "--json")
    assert piped.stdout.count("\n") == 1 and json.loads(piped.stdout)["source"] == "default"
    indented = vora_process("config", "file", "--json", env={"VORA_JSON_INDENT": "2"})
    assert indented.stdout.startswith('{\n  "path": ')
    assert json.loads(indented.stdout) == json.loads(piped.stdout)
