"""`--uninstall` removes exactly what `--install` added also when the shell dirs are outside the
home (XDG_DATA_HOME=/ci/data, XDG_CONFIG_HOME, BASH_COMPLETION_USER_DIR, ZDOTDIR, as on CI runners
and in throwaway set-ups): the folders install made go, the folder the environment names stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from completion_support import snapshot


@pytest.fixture
def outside(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "elsewhere"
    for name in ("data", "conf", "zdot", "bash-user"):
        (root / name).mkdir(parents=True)
    (root / "data" / "other-app").mkdir()
    (root / "data" / "other-app" / "keep.txt").write_text("kept\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(root / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(root / "conf"))
    monkeypatch.setenv("ZDOTDIR", str(root / "zdot"))
    return root


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_uninstall_outside_the_home_leaves_no_empty_folders(vora, home: Path, outside: Path, shell: str) -> None:
    before, home_before = snapshot(outside), snapshot(home)
    installed = vora("completion", shell, "--install", "--json")
    assert installed.exit_code == 0 and Path(installed.json()["script"]).is_relative_to(outside)
    assert vora("completion", shell, "--uninstall").exit_code == 0
    assert snapshot(outside) == before
    assert snapshot(home) == home_before


def test_bash_completion_user_dir_outside_the_home_stays(vora, home: Path, outside: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BASH_COMPLETION_USER_DIR", str(outside / "bash-user"))
    before = snapshot(outside)
    doc = vora("completion", "bash", "--install", "--json").json()
    assert doc["script"] == str(outside / "bash-user" / "completions" / "vora")
    assert vora("completion", "bash", "--uninstall").exit_code == 0
    assert snapshot(outside) == before and (outside / "bash-user").is_dir()


def test_a_folder_someone_else_uses_is_kept(vora, outside: Path) -> None:
    fish_dir = outside / "conf" / "fish"
    fish_dir.mkdir()
    (fish_dir / "config.fish").write_text("set -g x 1\n")
    vora("completion", "fish", "--install")
    vora("completion", "fish", "--uninstall")
    assert sorted(p.name for p in fish_dir.iterdir()) == ["config.fish"]
