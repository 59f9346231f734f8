"""`vora completion SHELL --install/--uninstall`: the script goes where each shell loads it from.

Files land under the real home (HOME, XDG_*, ZDOTDIR), never VORA_HOME; no lock file is left;
installing twice changes nothing; uninstalling puts the home back as it was. The real shells
loading the installed files are in tests/cli/completion/test_shells.py.

`vora completion bash --install` checks that a new bash loads what it installed (issue 22, class 13).

Real bash, HOME in tmp_path: a non-login interactive shell reads `/etc/bash.bashrc` and
`~/.bashrc` only, and Debian's root `.bashrc` does not source bash-completion (`docker exec …
bash`). Install then prints the one line to add; with the line added, TAB really completes.

`--uninstall` removes exactly what `--install` added also when the shell dirs are outside the
home (XDG_DATA_HOME=/ci/data, XDG_CONFIG_HOME, BASH_COMPLETION_USER_DIR, ZDOTDIR, as on CI runners
and in throwaway set-ups): the folders install made go, the folder the environment names stays.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from completion_support import SCRIPT_PATH, make_state, script, snapshot, vora_on_path

from vora_cli.core.shell_install import BEGIN, END
from vora_cli.core.shell_install.bash_check import installed_bash_completion


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
    # (tests/cli/completion/test_install.py)
    assert human.stdout.splitlines()[0] == f"{home / SCRIPT_PATH[shell]} is current; nothing written"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize("zshrc", [None, "", "export A=1\n", "export A=1", "a\n\n\nb\n", "a=1\r\nb=2", "a\n\n",
                                   "a\n\nb", "\n", " "])
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
    assert after == before
    again = vora("completion", shell, "--uninstall")
    assert again.stdout == f"No vora completion for {shell} is installed; nothing removed\n"


def test_zshrc_that_already_puts_the_dir_on_fpath_gets_no_block(vora, home: Path) -> None:
    rc = "fpath+=(~/.local/share/zsh/site-functions)\nautoload -Uz compinit && compinit\n"
    (home / ".zshrc").write_text(rc)
    doc = vora("completion", "zsh", "--install", "--json").json()
    assert doc["rcAction"] == "not-needed" and doc["rc"] is None
    assert (home / ".zshrc").read_text() == rc


def _vora_block(home: Path, *, created: bool = False, ended: bool = False) -> str:
    from vora_cli.core.shell_install.blocks import zsh_block

    return zsh_block(home / ".local/share/zsh/site-functions", created, ended)


def _rc(home: Path, shell: str) -> Path:
    return home / (".bashrc" if shell == "bash" else ".zshrc")


# Blocks vora did not write, as a user's start-up file may hold them: lines added inside vora's
# block, vora's lines edited, an empty block, an earlier vora's pasted script (no record of it).
def _foreign_blocks(home: Path) -> dict[str, str]:
    vora_s = _vora_block(home)
    inner = vora_s.removeprefix(BEGIN + "\n").removesuffix(END + "\n")
    return {
        "extra line": f"{BEGIN}\n{inner}export MY_PRECIOUS=1\n{END}\n",
        "only mine": f"{BEGIN}\nexport MY_PRECIOUS=1\nalias ll='ls -l'\n{END}\n",
        "edited": vora_s.replace("compinit; fi", "compinit -u; fi"),
        "other folder quoted by hand": vora_s.replace(f"('{home}", f"(\"{home}").replace("functions')", "functions\")"),
        "empty": f"{BEGIN}\n{END}\n",
        "old pasted script": f"{BEGIN}\n# Added by `vora completion zsh --install`: run it again to update this block,"
                             f" delete the block to remove it.\n200 lines of script\n{END}\n",
    }


FOREIGN = ["extra line", "only mine", "edited", "other folder quoted by hand", "empty", "old pasted script"]


@pytest.mark.parametrize("shell", ["bash", "zsh"])
@pytest.mark.parametrize("kind", FOREIGN)
def test_a_block_vora_did_not_write_is_refused_and_nothing_is_written(vora, home: Path, shell: str,
                                                                      kind: str) -> None:
    rc = _rc(home, shell)
    rc.write_bytes(f"x=1\n{_foreign_blocks(home)[kind]}y=2\n".encode())
    before = snapshot(home)
    result = vora("completion", shell, "--install", "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "exists"
    assert error["message"].startswith(f"{rc}:2: ") and "nothing was written" in error["message"]
    assert "--force" in error["hint"]
    assert snapshot(home) == before
    human = vora("completion", shell, "--install")
    assert human.exit_code == 1 and len(human.stderr.splitlines()) == 2  # error and hint, one line each
    assert snapshot(home) == before


@pytest.mark.parametrize("kind", FOREIGN)
def test_uninstall_leaves_a_block_vora_did_not_write(vora, home: Path, kind: str) -> None:
    assert vora("completion", "zsh", "--install").exit_code == 0
    rc = home / ".zshrc"
    rc.write_bytes(f"a\n\n{_foreign_blocks(home)[kind]}".encode())
    before = snapshot(home)
    result = vora("completion", "zsh", "--uninstall", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused"
    assert result.json()["error"]["message"].startswith(f"{rc}:3: ")
    assert snapshot(home) == before  # the script stays too: nothing removed


@pytest.mark.parametrize("shell", ["bash", "zsh"])
@pytest.mark.parametrize("kind", ["extra line", "old pasted script", "empty"])
def test_force_keeps_the_start_up_file_as_bak(vora, home: Path, shell: str, kind: str) -> None:
    rc = _rc(home, shell)
    original = f"before\n{_foreign_blocks(home)[kind]}after\n".encode()
    rc.write_bytes(original)
    rc.chmod(0o600)
    (home / (rc.name + ".bak")).write_bytes(b"an older copy\n")
    doc = vora("completion", shell, "--install", "--force", "--json").json()
    kept = home / (rc.name + ".bak.1")
    assert doc["rcBackup"] == str(kept)
    assert kept.read_bytes() == original and oct(kept.stat().st_mode & 0o777) == oct(0o600)
    assert (home / (rc.name + ".bak")).read_bytes() == b"an older copy\n"
    if shell == "bash":
        assert doc["rcAction"] == "removed"
        assert rc.read_bytes() == b"before\nafter\n"
    else:
        assert doc["rcAction"] == "replaced"
        assert rc.read_text() == f"before\n{_vora_block(home)}after\n"
        # now vora's: installing again changes nothing, uninstall removes it without --force
        again = snapshot(home)
        assert vora("completion", shell, "--install").exit_code == 0 and snapshot(home) == again
        assert vora("completion", shell, "--uninstall").exit_code == 0
        assert rc.read_bytes() == b"before\nafter\n"


@pytest.mark.parametrize(("created", "ended"), [(False, False), (True, False), (False, True)])
def test_vora_s_own_block_is_replaced_and_removed_without_asking(vora, home: Path, tmp_path: Path,
                                                                created: bool, ended: bool) -> None:
    """Every form vora writes: with the created note, the ended note or neither, for another folder
    (XDG_DATA_HOME changed)."""
    from vora_cli.core.shell_install.blocks import zsh_block

    other = zsh_block(tmp_path / "it's elsewhere" / "site-functions", created, ended)
    rc = home / ".zshrc"
    rc.write_text(f"x=1\n{other}y=2\n")
    doc = vora("completion", "zsh", "--install", "--json").json()
    assert (doc["rcAction"], doc["rcBackup"]) == ("replaced", None)
    assert rc.read_text() == f"x=1\n{_vora_block(home, created=created, ended=ended)}y=2\n"
    assert vora("completion", "zsh", "--uninstall").exit_code == 0
    assert rc.read_text() == "x=1\ny=2\n"
    assert [p.name for p in home.iterdir()] == [".zshrc"]


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


FRAMEWORK = installed_bash_completion()
# The shell a new terminal starts: interactive, not a login shell, no terminal here.
NEW_SHELL = ["bash", "-i", "-c"]


def _system_loads_bash_completion(home: Path) -> bool:
    """Whether this machine's /etc/bash.bashrc loads bash-completion for an empty home."""
    out = subprocess.run([*NEW_SHELL, "declare -F __load_completion _comp_load"], env={**os.environ, "HOME": str(home)},
                         stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, start_new_session=True)
    return bool(out.stdout.strip())


@pytest.fixture
def debian_root_home(home: Path, tmp_path: Path) -> Path:
    """A home whose .bashrc is Debian's for root: aliases commented out, no bash-completion."""
    probe = tmp_path / "probe-home"
    probe.mkdir()
    if _system_loads_bash_completion(probe):
        pytest.skip("this machine's /etc/bash.bashrc loads bash-completion for every shell")
    (home / ".bashrc").write_text("# ~/.bashrc: executed by bash(1) for non-login shells.\n"
                                  "# export LS_OPTIONS='--color=auto'\n# alias ls='ls $LS_OPTIONS'\n")
    return home


needs_framework = pytest.mark.skipif(FRAMEWORK is None, reason="bash-completion is not installed (.ci/run installs it)")


def tab(home: Path, env: dict[str, str], line: str) -> list[str]:
    """Press TAB after `line` in a new interactive bash: bash-completion's loader, then vora's function."""
    words = line.split(" ")
    program = (
        "__load_completion vora 2>/dev/null || _comp_load vora 2>/dev/null; "
        f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}; COMPREPLY=(); "
        "_vora 2>/dev/null; printf 'got:%s\\n' \"${COMPREPLY[@]}\""
    )
    out = subprocess.run([*NEW_SHELL, program], env={**env, "HOME": str(home)}, stdin=subprocess.DEVNULL,
                         capture_output=True, text=True, timeout=60, start_new_session=True)
    return [w[4:] for w in out.stdout.splitlines() if w.startswith("got:") and w[4:]]


@pytest.mark.slow
@needs_framework
def test_a_shell_without_bash_completion_gets_the_one_line_to_add(vora, debian_root_home: Path, state_dir: Path,
                                                                   tmp_path: Path) -> None:
    home = debian_root_home
    env = vora_on_path(tmp_path / "bin")
    make_state(state_dir)
    doc = vora("completion", "bash", "--install", "--json").json()
    assert doc["bash"]["loads"] is False
    line = doc["bash"]["addLine"]
    assert line == f"[[ -r {FRAMEWORK} ]] && . {FRAMEWORK}"
    assert tab(home, env, "vora dev") == []  # TAB really does nothing yet
    human = vora("completion", "bash", "--install")
    assert "warning: TAB will not complete vora yet: this bash does not load bash-completion" in human.stderr
    # the sentence and the line it asks to add, in one stream (issue 38): stderr
    assert human.stderr.splitlines()[-1] == f"    {line}" and line not in human.stdout
    with (home / ".bashrc").open("a") as rc:
        rc.write(line + "\n")
    fixed = vora("completion", "bash", "--install", "--json").json()
    assert fixed["bash"] == {"loads": True, "reason": "a new interactive bash loads it on the first 'vora <TAB>'",
                             "addLine": None}
    assert tab(home, env, "vora dev") == ["devices"]
    assert tab(home, env, "vora devices approve req-7") == ["req-7f3a"]
    quiet = vora("completion", "bash", "--install")
    assert "warning" not in quiet.stderr and quiet.stdout.count("\n") == 1


def test_a_bashrc_that_sources_the_script_itself_loads_it(vora, home: Path) -> None:
    (home / ".bashrc").write_text(f". {shlex.quote(str(home / SCRIPT_PATH['bash']))}\n")
    assert vora("completion", "bash", "--install", "--json").json()["bash"]["loads"] is True


def test_another_completion_for_vora_is_named_not_papered_over(vora, home: Path) -> None:
    (home / ".bashrc").write_text("complete -W 'mine' vora\n")
    found = vora("completion", "bash", "--install", "--json").json()["bash"]
    assert found["loads"] is False and found["addLine"] is None
    assert "complete -W 'mine' vora" in found["reason"]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_check_leaves_the_home_as_it_was(vora, home: Path) -> None:
    (home / ".bashrc").write_text("# nothing\n")
    vora("completion", "bash", "--install")
    names = sorted(p.relative_to(home).as_posix() for p in home.rglob("*"))
    assert names == [".bashrc", ".local", ".local/share", ".local/share/bash-completion",
                     ".local/share/bash-completion/completions", ".local/share/bash-completion/completions/vora"]


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


# A dangling .bashrc link is no problem: bash install changes .bashrc only to take an old block out.
@pytest.mark.parametrize(("shell", "problem"), [("bash", "read-only"), ("zsh", "read-only"), ("zsh", "dangling link")])
def test_a_start_up_file_vora_cannot_change_stops_install_before_any_write(vora, home: Path, shell: str,
                                                                          problem: str) -> None:
    """The script and its folders are not written when the rc file then refuses the change."""
    rc = _rc(home, shell)
    if problem == "read-only":
        rc.write_text(f"x=1\n{_vora_block(home)}" if shell == "bash" else "x=1\n")
        rc.chmod(0o444)
    else:
        rc.symlink_to(home / "dotfiles" / rc.name)  # the dotfiles folder is not there
    before = snapshot(home)
    result = vora("completion", shell, "--install", "--json")
    assert result.exit_code == 1, result.stdout
    assert str(rc) in result.json()["error"]["message"]
    assert snapshot(home) == before
    assert not (home / ".local").exists()


def test_a_read_only_zshrc_stops_uninstall_before_the_script_goes(vora, home: Path) -> None:
    assert vora("completion", "zsh", "--install").exit_code == 0
    (home / ".zshrc").chmod(0o444)
    before = snapshot(home)
    result = vora("completion", "zsh", "--uninstall", "--json")
    assert result.exit_code == 1 and result.json()["error"]["code"] == "refused"
    assert snapshot(home) == before


@pytest.mark.parametrize("rc", [b"export A=1", b"a=1\r\nb=2", b"a\n\nb"])
def test_the_newline_install_ended_the_last_line_with_leaves_with_the_block(vora, home: Path, tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch,
                                                                           rc: bytes) -> None:
    """Through an update of the block (the folder moved) too: the note that says so is kept."""
    (home / ".zshrc").write_bytes(rc)
    assert vora("completion", "zsh", "--install").exit_code == 0
    assert (home / ".zshrc").read_bytes().startswith(rc + b"\n\n")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    doc = vora("completion", "zsh", "--install", "--json").json()
    assert doc["rcAction"] == "replaced"
    assert vora("completion", "zsh", "--uninstall").exit_code == 0
    assert (home / ".zshrc").read_bytes() == rc
