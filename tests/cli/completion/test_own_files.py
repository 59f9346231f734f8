"""vora replaces a file only while its own record proves vora wrote it (issue 22, class 3).

`vora completion SHELL --install` meets, at the script's path: a hand-written completion, a vora
script edited by hand, an older vora's script without the record line, a symlink into a dotfiles
repository. Each is `exists` naming the file, with nothing written anywhere; `--force` keeps the
file (or the link, never written through) as `.bak`, then `.bak.1`. A vora script that is merely
out of date is replaced without asking. `--uninstall` leaves the same files alone. The settings
file, the other file vora rewrites whole, keeps a hand-written copy as `.bak`.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from completion_support import SCRIPT_PATH, script

from vora_cli.core.shell_install.record import seal_script, written_by_vora

HAND_WRITTEN = {"bash": "complete -W 'doctor config' vora  # mine\n", "zsh": "#compdef vora\n_arguments '1:cmd:(doctor)'\n",
                "fish": "complete -c vora -f -a doctor  # mine\n"}


def tree(root: Path) -> dict[str, bytes | str | None]:
    """Every path under `root`: a file's bytes, a link's target, None for a folder."""
    out: dict[str, bytes | str | None] = {}
    for path in sorted(root.rglob("*")):
        key = path.relative_to(root).as_posix()
        out[key] = f"-> {os.readlink(path)}" if path.is_symlink() else (path.read_bytes() if path.is_file() else None)
    return out


def old_vora_script(shell: str) -> str:
    """A vora script from before the record line (the header, no last line)."""
    return script(shell).rsplit("\n", 2)[0] + "\n"


def edited_script(shell: str) -> str:
    return script(shell).replace("vora", "vora  ", 1)


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize("content", ["hand-written", "edited", "older vora"])
def test_a_file_vora_did_not_write_is_never_replaced(vora, home: Path, shell: str, content: str) -> None:
    target = home / SCRIPT_PATH[shell]
    target.parent.mkdir(parents=True)
    text = {"hand-written": HAND_WRITTEN[shell], "edited": edited_script(shell), "older vora": old_vora_script(shell)}[content]
    target.write_text(text)
    before = tree(home)
    result = vora("completion", shell, "--install", "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "exists" and str(target) in error["message"] and "--force" in error["hint"]
    assert tree(home) == before  # nothing written: no script, no .zshrc block, no lock file
    human = vora("completion", shell, "--install")
    assert human.exit_code == 1 and human.stderr.startswith(f"error: {target} ")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_force_keeps_the_file_as_bak_and_never_overwrites_a_bak(vora, home: Path, shell: str) -> None:
    target = home / SCRIPT_PATH[shell]
    target.parent.mkdir(parents=True)
    target.write_text(HAND_WRITTEN[shell])
    first = vora("completion", shell, "--install", "--force", "--json").json()
    backup = target.with_name(target.name + ".bak")
    assert (first["scriptAction"], first["backup"]) == ("replaced", str(backup))
    assert backup.read_text() == HAND_WRITTEN[shell] and target.read_text() == script(shell)
    # the next hand edit, forced again, goes to .bak.1: the first copy stays
    target.write_text(edited_script(shell))
    second = vora("completion", shell, "--install", "--force")
    assert second.exit_code == 0
    assert f"kept as {target}.bak.1" in second.stdout
    assert backup.read_text() == HAND_WRITTEN[shell]
    assert Path(f"{target}.bak.1").read_text() == edited_script(shell)
    # a vora script is vora's: --force writes no .bak of it
    assert vora("completion", shell, "--install", "--force", "--json").json()["backup"] is None


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_a_symlink_into_dotfiles_is_never_written_through(vora, home: Path, tmp_path: Path, shell: str) -> None:
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    mine = dotfiles / "vora-completion"
    mine.write_text(HAND_WRITTEN[shell])
    target = home / SCRIPT_PATH[shell]
    target.parent.mkdir(parents=True)
    target.symlink_to(mine)
    before, repo = tree(home), tree(dotfiles)
    refused = vora("completion", shell, "--install", "--json")
    assert refused.exit_code == 1 and refused.json()["error"]["code"] == "exists"
    assert "symlink" in refused.json()["error"]["message"] and str(mine) in refused.json()["error"]["message"]
    assert (tree(home), tree(dotfiles)) == (before, repo)
    # --force moves the link aside (still pointing into the repository) and writes a file of its own
    forced = vora("completion", shell, "--install", "--force", "--json").json()
    backup = Path(forced["backup"])
    assert backup.is_symlink() and os.readlink(backup) == str(mine)
    assert not target.is_symlink() and target.read_text() == script(shell)
    assert tree(dotfiles) == repo  # not one byte written into the repository, no lock file either


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_an_out_of_date_vora_script_is_replaced_without_asking(vora, home: Path, shell: str) -> None:
    target = home / SCRIPT_PATH[shell]
    target.parent.mkdir(parents=True)
    target.write_text(seal_script("# bash completion for vora -- an older release\ncomplete -W 'old' vora\n"))
    result = vora("completion", shell, "--install", "--json").json()
    assert (result["scriptAction"], result["backup"]) == ("replaced", None)
    assert target.read_text() == script(shell)
    assert not target.with_name(target.name + ".bak").exists()


def test_a_script_printed_by_vora_is_vora_s(vora, home: Path) -> None:
    """`vora completion zsh > PATH` (the docs' way for a packager) gives the installed bytes."""
    target = home / SCRIPT_PATH["zsh"]
    target.parent.mkdir(parents=True)
    target.write_text(vora("completion", "zsh").stdout)
    assert written_by_vora(target.read_bytes())
    assert vora("completion", "zsh", "--install", "--json").json()["scriptAction"] == "unchanged"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
@pytest.mark.parametrize("content", ["hand-written", "edited", "older vora", "symlink"])
def test_uninstall_leaves_what_vora_did_not_write(vora, home: Path, tmp_path: Path, shell: str, content: str) -> None:
    target = home / SCRIPT_PATH[shell]
    target.parent.mkdir(parents=True)
    if content == "symlink":
        (tmp_path / "mine").write_text(script(shell))
        target.symlink_to(tmp_path / "mine")
    else:
        target.write_text({"hand-written": HAND_WRITTEN[shell], "edited": edited_script(shell),
                           "older vora": old_vora_script(shell)}[content])
    before = tree(home)
    result = vora("completion", shell, "--uninstall", "--json")
    assert result.exit_code == 1 and result.json()["error"]["code"] == "refused"
    assert str(target) in result.json()["error"]["message"]
    assert tree(home) == before


def test_force_needs_install(vora, home: Path) -> None:
    for extra in ((), ("--uninstall",)):
        result = vora("completion", "bash", *extra, "--force", "--json")
        assert result.exit_code == 2 and result.json()["error"]["code"] == "usage"


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (.ci/run installs it)")
def test_zsh_still_completes_with_vora_s_function_beside_the_bak(vora, home: Path) -> None:
    """compinit reads every `_*` file on $fpath: the kept `_vora.bak` must not take vora over."""
    target = home / SCRIPT_PATH["zsh"]
    target.parent.mkdir(parents=True)
    target.write_text("#compdef vora\n_vora.bak() { compadd mine }\n")
    assert vora("completion", "zsh", "--install", "--force").exit_code == 0
    program = f"fpath=({target.parent} $fpath); autoload -Uz compinit; compinit -D -u; print -r -- ${{_comps[vora]}}"
    out = subprocess.run(["zsh", "-f", "-c", program], capture_output=True, text=True, timeout=60, check=True,
                         env={**os.environ, "HOME": str(home)})
    assert out.stdout.strip() == "_vora"


# -- the settings file, the other file vora rewrites whole -------------------------------------------

def test_settings_set_keeps_a_hand_written_settings_file_as_bak(vora, home: Path) -> None:
    path = home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True)
    mine = "# my settings, by hand\ncolor = \"never\"  # no colours in CI logs\n"
    path.write_text(mine)
    result = vora("settings", "set", "json_indent", "4", "--json").json()
    assert result["backup"] == f"{path}.bak"
    assert Path(result["backup"]).read_text() == mine
    assert 'color = "never"' in path.read_text() and "json_indent = 4" in path.read_text()
    # vora's own file from then on: no second copy
    again = vora("settings", "set", "json_indent", "2")
    assert again.exit_code == 0 and "kept as" not in again.stderr
    assert not Path(f"{path}.bak.1").exists()
    unset = vora("settings", "unset", "json_indent", "--json").json()
    assert unset["backup"] is None
