"""Start-up guard (issue 24, "import-time costs a command does not use are gone"): the commands
that read plugins, the config and the state dir load nothing of the config's write side, no
"did you mean" machinery and no platformdirs. Counted in `sys.modules`, never timed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

# (planning stays: the plugins code builds its `ConfigEdit`s from the one dataclass it defines)
WRITE_SIDE = {"vora_cli.core.config.writing", "vora_cli.core.config.readback", "vora_cli.core.config.diff"}
NEVER = {"difflib", "platformdirs", "rich"}


def _loaded_by(args: list[str], state: Path, home: Path) -> tuple[set[str], str]:
    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        f"try:\n    app({args!r}, prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VORA_", "XDG_"))}
    env.update({"PYTHONPATH": str(REPO), "VORA_STATE_DIR": str(state), "HOME": str(home)})
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    return set(result.stderr.split()), result.stdout


@pytest.mark.parametrize(("args", "shown", "unneeded"), [
    (["plugins", "list"], "", WRITE_SIDE | NEVER | {"vora_cli.core.config.validation"}),
    (["security", "audit", "--json"], '"findings"', WRITE_SIDE | NEVER | {"vora_cli.core.config.validation"}),
    # doctor validates the config (validation, the gateway's schema): it still writes nothing
    (["doctor", "--json"], '"checks"', WRITE_SIDE | NEVER),
])
def test_reading_commands_load_nothing_they_do_not_use(args: list[str], shown: str, unneeded: set[str],
                                                      tmp_path: Path) -> None:
    state = tmp_path / "state"
    shutil.copytree(REPO / "examples" / "vora", state)
    loaded, stdout = _loaded_by(args, state, tmp_path)
    assert shown in stdout and "vora_cli.core.plugins.discovery" in loaded  # the command ran, plugins read
    assert not loaded & unneeded, f"vora {' '.join(args)} loads {sorted(loaded & unneeded)}"
