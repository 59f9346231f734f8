"""`vora completion SHELL [--install] [--json]`: print the script, or install it as one marked block."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from completion_support import script

from vora_cli.core.shell_install import BEGIN, END

RC = {"bash": ".bashrc", "zsh": ".zshrc", "fish": ".config/fish/completions/vora.fish"}


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


def test_install_bash_appends_one_block_and_keeps_the_rest(vora, home: Path) -> None:
    rc = home / ".bashrc"
    rc.write_text("# my prompt\nexport PS1='$ '")  # no trailing newline
    os.chmod(rc, 0o640)
    result = vora("completion", "bash", "--install")
    assert result.exit_code == 0
    assert result.stdout == f"Added the vora completion block in {rc} (starts at '{BEGIN}')\n"
    assert result.stderr == f"Open a new shell, or run: source {rc}\n"
    text = rc.read_text()
    assert text.startswith("# my prompt\nexport PS1='$ '\n\n" + BEGIN + "\n")
    assert text.endswith(END + "\n")
    assert script("bash").rstrip() in text
    assert stat.S_IMODE(rc.stat().st_mode) == 0o640  # an existing file keeps its mode


def test_reinstall_is_idempotent_and_replaces_in_place(vora, home: Path) -> None:
    rc = home / ".bashrc"
    rc.write_text("before\n")
    vora("completion", "bash", "--install")
    (rc.open("a")).write("after\n")
    first = rc.read_text()
    again = vora("completion", "bash", "--install", "--json")
    assert again.json() == {"shell": "bash", "path": str(rc), "action": "unchanged",
                            "startMarker": BEGIN, "endMarker": END}
    assert rc.read_text() == first
    # an old block (older vora) is replaced where it stands; text around it is untouched
    rc.write_text(f"before\n{BEGIN}\nold script\n{END}\nafter\n")
    result = vora("completion", "bash", "--install")
    assert result.stdout.startswith("Replaced the vora completion block in")
    text = rc.read_text()
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert text.startswith(f"before\n{BEGIN}\n") and text.endswith(f"{END}\nafter\n")
    assert "old script" not in text


def test_a_block_pasted_twice_ends_up_once(vora, home: Path) -> None:
    rc = home / ".zshrc"
    rc.write_text(f"a\n{BEGIN}\nx\n{END}\nb\n{BEGIN}\ny\n{END}\nc\n")
    assert vora("completion", "zsh", "--install").exit_code == 0
    text = rc.read_text()
    assert text.count(BEGIN) == 1
    assert text.startswith(f"a\n{BEGIN}\n") and text.endswith(f"{END}\nb\nc\n")


def test_a_start_marker_without_end_is_refused_and_nothing_written(vora, home: Path) -> None:
    rc = home / ".bashrc"
    rc.write_text(f"a\n{BEGIN}\nhalf a block\n")
    result = vora("completion", "bash", "--install", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused"
    assert rc.read_text() == f"a\n{BEGIN}\nhalf a block\n"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_install_targets_each_shells_file_under_vora_home(vora, home: Path, shell: str) -> None:
    doc = vora("completion", shell, "--install", "--json").json()
    target = home / RC[shell]
    assert doc["path"] == str(target)
    assert doc["action"] == "added"
    assert target.read_text() == (f"{BEGIN}\n# Added by `vora completion {shell} --install`: run it again to update "
                                  f"this block, delete the block to remove it.\n{script(shell).rstrip()}\n{END}\n")


def test_install_uses_the_resolved_home(vora, tmp_path: Path) -> None:
    other = tmp_path / "other-home"
    other.mkdir()
    result = vora("completion", "bash", "--install", env={"VORA_HOME": str(other)})
    assert result.exit_code == 0
    assert (other / ".bashrc").read_text().startswith(BEGIN)


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
