"""`vora completion SHELL [--json]`: print the script (install/uninstall: tests/cli/completion/test_install.py)."""

from __future__ import annotations

import os

import pytest
from completion_support import script


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_prints_the_generated_script(vora, shell: str) -> None:
    result = vora("completion", shell)
    assert (result.exit_code, result.stderr) == (0, "")
    assert result.stdout == script(shell)
    assert "\x1b[" not in result.stdout


def test_json_prints_shell_and_script(vora) -> None:
    doc = vora("completion", "zsh", "--json").json()
    assert doc == {"shell": "zsh", "script": script("zsh")}


def test_unknown_shell_is_a_usage_error(vora) -> None:
    result = vora("completion", "powershell", "--json")
    assert result.exit_code == 2
    assert result.json()["error"]["code"] == "usage"
    assert vora("completion").exit_code == 2


def test_help_and_other_commands_do_not_load_the_completion_machinery() -> None:
    import subprocess
    import sys

    from completion_support import REPO

    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        "try:\n    app(['config', 'file'], prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    loaded = set(result.stderr.split())
    assert not loaded & {"vora_cli.cli.docgen.shell_scripts", "vora_cli.cli.docgen.tree", "vora_cli.cli.docgen.reference",
                         "vora_cli.core.shell_install", "vora_cli.complete"}
