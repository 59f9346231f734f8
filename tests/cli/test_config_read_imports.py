"""Start-up guard (issue 11, "no command gets slower"): the commands that only read the config
do not import what plans, validates or writes it."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

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
