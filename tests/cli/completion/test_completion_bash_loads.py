"""`vora completion bash --install` checks that a new bash loads what it installed (issue 22, class 13).

Real bash, HOME in tmp_path: a non-login interactive shell reads `/etc/bash.bashrc` and
`~/.bashrc` only, and Debian's root `.bashrc` does not source bash-completion (`docker exec …
bash`). Install then prints the one line to add; with the line added, TAB really completes.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from completion_support import SCRIPT_PATH, make_state, vora_on_path

from vora_cli.core.shell_install.bash_check import installed_bash_completion

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
