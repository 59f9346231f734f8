"""Start-up guard (issue 11, "no command gets slower"; issue 24, "import-time costs a command
does not use are gone"): the commands that only read the config do not import what plans,
validates or writes it. Counted in `sys.modules`, never timed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

WRITE_SIDE = {"vora_cli.core.config.planning", "vora_cli.core.config.writing", "vora_cli.core.config.validation",
              "vora_cli.core.config.landing", "vora_cli.core.writer", "difflib", "tempfile",
              # the gateway's validator (issue 19): only commands that validate pay for it
              "vora_cli.core.config.gateway", "jsonschema_rs"}


def _loaded_by(args: list[str], state) -> tuple[set[str], str]:
    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        f"try:\n    app({args!r}, prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
    env.update({"PYTHONPATH": str(REPO), "VORA_STATE_DIR": str(state), "VORA_HOME": str(state.parent)})
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    return set(result.stderr.split()), result.stdout


@pytest.mark.parametrize(("args", "shown"), [
    (["config", "get", "gateway.port"], "18789"),
    (["config", "get", "gateway", "--json"], "port"),
    (["config", "file"], "vora.json"),
])
def test_reading_the_config_imports_nothing_of_the_write_side(args: list[str], shown: str, tmp_path) -> None:
    state = tmp_path / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    loaded, stdout = _loaded_by(args, state)
    assert shown in stdout  # the command ran
    assert "vora_cli.core.config.loading" in loaded or args[1] == "file"
    assert not (loaded & WRITE_SIDE), f"vora {' '.join(args)} imports {sorted(loaded & WRITE_SIDE)}"


def test_setting_a_value_still_imports_the_write_side(tmp_path) -> None:
    state = tmp_path / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    loaded, _ = _loaded_by(["config", "set", "gateway.port", "18790"], state)
    assert {"vora_cli.core.config.planning", "vora_cli.core.config.writing"} <= loaded
    assert '18790' in (state / "vora.json").read_text()
    # the diff is made only when shown (--diff, --dry-run): a plain write loads no difflib
    assert not loaded & {"difflib", "vora_cli.core.config.diff"}, sorted(loaded & {"difflib"})
    # the writer's temp files are made without tempfile, and a small file's audit digests without
    # OpenSSL (`core/digests.py`): neither loads for an everyday write
    assert not loaded & {"tempfile", "_hashlib"}, sorted(loaded & {"tempfile", "_hashlib"})
    # the plugins are discovered only for a write to `plugins` or `channels`: no manifest is read here
    assert not loaded & PLUGIN_READS, sorted(loaded & PLUGIN_READS)


PLUGIN_READS = {"vora_cli.core.plugins.manifest", "vora_cli.core.plugins.discovery",
                "vora_cli.core.plugins.channel_schemas"}


def test_setting_a_plugin_value_reads_the_plugins(tmp_path) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "examples")  # with the plugin the example links
    state = tmp_path / "examples" / "vora"
    loaded, out = _loaded_by(["config", "set", "plugins.entries.my-engine.enabled", "false"], state)
    assert loaded >= PLUGIN_READS, sorted(PLUGIN_READS - loaded)
    assert "my-engine" in out and '"my-engine": { enabled: false }' in (state / "vora.json").read_text()


# plugins list, security audit and doctor read plugin manifests, the config and the state dir:
# nothing of the config's write side (planning stays: the plugins code builds its `ConfigEdit`s
# from the one dataclass it defines), no "did you mean" machinery, no platformdirs (the cache dir
# is answered without it, core/userdirs.py)
READERS_NEVER = {"vora_cli.core.config.writing", "vora_cli.core.config.readback", "vora_cli.core.config.diff",
                 "difflib", "platformdirs", "rich"}


# the gateway's code scanner and vora's own looks: the audit's plugin-code check and install's alone
SCANNER = {"vora_cli.core.plugins.code_safety", "vora_cli.core.security.code_scan"}


@pytest.mark.parametrize(("args", "shown", "unneeded"), [
    (["plugins", "list"], "", READERS_NEVER | SCANNER | {"vora_cli.core.config.validation"}),
    (["security", "audit", "--json"], '"findings"',
     READERS_NEVER | {"vora_cli.core.config.validation", "vora_cli.core.plugins.install_scan"}),
    # doctor validates the config (validation, the gateway's schema): it still writes nothing
    (["doctor", "--json"], '"checks"', READERS_NEVER | SCANNER),
])
def test_reading_commands_load_nothing_they_do_not_use(args: list[str], shown: str, unneeded: set[str],
                                                      tmp_path: Path) -> None:
    state = tmp_path / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    loaded, stdout = _loaded_by(args, state)
    assert shown in stdout and "vora_cli.core.plugins.discovery" in loaded  # the command ran, plugins read
    assert not loaded & unneeded, f"vora {' '.join(args)} loads {sorted(loaded & unneeded)}"
    assert loaded >= SCANNER or args[0] != "security"  # the audit scans the example's plugin
