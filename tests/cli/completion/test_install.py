"""`vora completion SHELL --install/--uninstall`: the script goes where each shell loads it from.

Files land under the real home (HOME, XDG_*, ZDOTDIR), never VORA_HOME; no lock file is left;
installing twice changes nothing; uninstalling puts the home back as it was. The real shells
loading the installed files are in tests/cli/test_completion_shells.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from completion_support import SCRIPT_PATH, script, snapshot

from vora_cli.core.shell_install import BEGIN, END


@pytest.fixture
def vora_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """VORA_HOME elsewhere: the gateway's home must not receive shell files."""
    other = tmp_path / "vora-home"
    other.mkdir()
    monkeypatch.setenv("VORA_HOME", str(other))
    return other


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_install_writes_the_script_where_the_shell_loads_it(vora, home: Path, vora_home: Path, shell: str) -> None:
    result = vora("completion", shell, "--install", "--json")
    assert result.exit_code == 0, result.stdout
    doc = result.json()
    target = home / SCRIPT_PATH[shell]
    assert (doc["script"], doc["scriptAction"]) == (str(target), "added")
    assert target.read_text() == script(shell)
    assert oct(target.stat().st_mode & 0o777) == oct(0o644)
    assert list(vora_home.iterdir()) == []
    assert [p for p in home.rglob("*") if p.name.endswith(".lock")] == []
    if shell == "zsh":
        assert doc["rcAction"] == "added"
        rc = (home / ".zshrc").read_text()
        assert rc.startswith(BEGIN + "\n") and rc.endswith(END + "\n")
        assert f"fpath+=('{target.parent}')" in rc
        # one fpath line and one compinit/compdef line, not the script (the dir is as long as the tmp path)
        assert len(rc.replace(str(target.parent), "DIR")) < 400
    else:
        assert not (home / ".zshrc").exists() and not (home / ".bashrc").exists()


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_install_honours_xdg_dirs_and_zdotdir(vora, home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              shell: str) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    monkeypatch.setenv("ZDOTDIR", str(tmp_path / "zdot"))
    doc = vora("completion", shell, "--install", "--json").json()
    expected = {"bash": tmp_path / "data/bash-completion/completions/vora",
                "zsh": tmp_path / "data/zsh/site-functions/_vora",
                "fish": tmp_path / "conf/fish/completions/vora.fish"}[shell]
    assert doc["script"] == str(expected) and expected.is_file()
    if shell == "zsh":
        assert doc["rc"] == str(tmp_path / "zdot" / ".zshrc")
        assert (tmp_path / "zdot" / ".zshrc").is_file()
    assert not (home / ".zshrc").exists()


def test_bash_completion_user_dir_wins(vora, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASH_COMPLETION_USER_DIR", f"{tmp_path / 'mine'}:{tmp_path / 'other'}")
    doc = vora("completion", "bash", "--install", "--json").json()
    assert doc["script"] == str(tmp_path / "mine" / "completions" / "vora")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize("zshrc", [None, "export A=1\n"])
def test_install_twice_changes_nothing(vora, home: Path, shell: str, zshrc: str | None) -> None:
    if zshrc is not None:
        (home / ".zshrc").write_text(zshrc)
    assert vora("completion", shell, "--install").exit_code == 0
    before = snapshot(home)
    stamps = {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()}
    again = vora("completion", shell, "--install", "--json")
    assert again.json()["scriptAction"] == "unchanged"
    assert again.json()["rcAction"] in ("unchanged", "not-needed")
    assert snapshot(home) == before
    assert {p: p.stat().st_mtime_ns for p in home.rglob("*") if p.is_file()} == stamps
    human = vora("completion", shell, "--install")
    # bash adds the line to put in ~/.bashrc when this home's bash does not load bash-completion
    # (tests/cli/test_completion_bash_loads.py)
    assert human.stdout.splitlines()[0] == f"{home / SCRIPT_PATH[shell]} is current; nothing written"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize("zshrc", [None, "", "export A=1\n", "export A=1", "a\n\n\nb\n"])
def test_uninstall_removes_exactly_what_install_added(vora, home: Path, shell: str, zshrc: str | None) -> None:
    (home / ".config" / "other-tool").mkdir(parents=True)
    (home / ".config" / "other-tool" / "x.toml").write_text("x = 1\n")
    (home / ".bashrc").write_text("alias ll='ls -l'\n")
    if zshrc is not None:
        (home / ".zshrc").write_text(zshrc)
    before = snapshot(home)
    assert vora("completion", shell, "--install").exit_code == 0
    assert snapshot(home) != before
    result = vora("completion", shell, "--uninstall", "--json")
    assert result.exit_code == 0
    assert result.json()["scriptAction"] == "removed"
    after = snapshot(home)
    if zshrc == "export A=1" and shell == "zsh":  # install had to end the last line; that newline stays
        after[".zshrc"] = after[".zshrc"][:-1] if after[".zshrc"] else after[".zshrc"]
    assert after == before
    again = vora("completion", shell, "--uninstall")
    assert again.stdout == f"No vora completion for {shell} is installed; nothing removed\n"


def test_zshrc_that_already_puts_the_dir_on_fpath_gets_no_block(vora, home: Path) -> None:
    rc = "fpath+=(~/.local/share/zsh/site-functions)\nautoload -Uz compinit && compinit\n"
    (home / ".zshrc").write_text(rc)
    doc = vora("completion", "zsh", "--install", "--json").json()
    assert doc["rcAction"] == "not-needed" and doc["rc"] is None
    assert (home / ".zshrc").read_text() == rc


def test_older_vora_blocks_are_migrated(vora, home: Path) -> None:
    """Earlier versions pasted the whole script into ~/.bashrc and ~/.zshrc between the markers."""
    (home / ".bashrc").write_text(f"before\n\n{BEGIN}\n200 lines of script\n{END}\nafter\n")
    (home / ".zshrc").write_text(f"before\n{BEGIN}\n26 KB of script\n{END}\nafter\n")
    bash = vora("completion", "bash", "--install", "--json").json()
    assert bash["rcAction"] == "removed"
    assert (home / ".bashrc").read_text() == "before\n\nafter\n"
    zsh = vora("completion", "zsh", "--install", "--json").json()
    assert zsh["rcAction"] == "replaced"
    text = (home / ".zshrc").read_text()
    assert text.startswith(f"before\n{BEGIN}\n") and text.endswith(f"{END}\nafter\n")
    assert "26 KB" not in text and text.count(BEGIN) == 1


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_a_half_block_is_refused_and_nothing_is_written(vora, home: Path, shell: str) -> None:
    rc = home / (".bashrc" if shell == "bash" else ".zshrc")
    rc.write_text(f"a\n{BEGIN}\nhalf a block\n")
    before = snapshot(home)
    result = vora("completion", shell, "--install", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused"
    assert str(rc) in result.json()["error"]["message"]
    assert snapshot(home) == before


def test_uninstall_leaves_a_file_that_is_not_vora_s(vora, home: Path) -> None:
    target = home / SCRIPT_PATH["fish"]
    target.parent.mkdir(parents=True)
    target.write_text("complete -c vora -f  # my own\n")
    result = vora("completion", "fish", "--uninstall", "--json")
    assert result.exit_code == 1 and result.json()["error"]["code"] == "refused"
    assert target.read_text() == "complete -c vora -f  # my own\n"


def test_install_and_uninstall_together_is_a_usage_error(vora, home: Path) -> None:
    result = vora("completion", "bash", "--install", "--uninstall", "--json")
    assert result.exit_code == 2 and result.json()["error"]["code"] == "usage"
    assert snapshot(home) == {}


def test_vora_home_is_never_used_for_shell_files(vora, home: Path, vora_home: Path) -> None:
    for shell in ("bash", "zsh", "fish"):
        assert vora("completion", shell, "--install").exit_code == 0
    assert os.listdir(vora_home) == []
