"""Whether a new bash loads the installed completion script (`bash_loads`), when the answer cannot be
had: no bash-completion on the machine, a .bashrc that never finishes, no bash at all. The real
install and TAB in a real bash are in `tests/cli/completion/test_install.py`."""

from __future__ import annotations

import os
from pathlib import Path

from completion_support import SCRIPT_PATH

from vora_cli.core.shell_install.bash_check import bash_loads


def test_no_bash_completion_on_the_machine_means_sourcing_the_script(home: Path) -> None:
    script = home / SCRIPT_PATH["bash"]
    found = bash_loads(script, {**os.environ, "HOME": str(home)}, candidates=())
    assert found.loads is False and found.add_line == f". {script}"
    assert "bash-completion is not installed" in found.reason


def test_a_bashrc_that_never_finishes_is_not_waited_for(home: Path) -> None:
    (home / ".bashrc").write_text("sleep 300\n")
    found = bash_loads(home / SCRIPT_PATH["bash"], {**os.environ, "HOME": str(home)}, timeout=1)
    assert found.loads is None and "did not finish within 1 s" in found.reason
    assert found.add_line is not None


def test_no_bash_to_ask(home: Path, tmp_path: Path) -> None:
    found = bash_loads(home / SCRIPT_PATH["bash"], dict(os.environ), bash=str(tmp_path / "no-such-bash"))
    assert found.loads is None and found.reason.startswith("could not check: cannot run")
