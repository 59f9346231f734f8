"""The generated scripts in real shells: bash always; zsh and fish when installed (.ci/run installs them).

bash: the completion function is driven with COMP_WORDS/COMP_CWORD and COMPREPLY is read back.
zsh: `_vora` runs with words/CURRENT and zsh's completion builtins replaced by recorders; one
test also presses TAB in an interactive zsh (zpty) with the real compinit.
fish: `complete -C "vora ..."` asks fish's own completion engine.
Depth 1, 2 and 3, options, option values and dynamic ids from a real state dir in tmp.

A bash TAB on a command word, an option or a closed value set forks nothing (startup perf,
issue 11): `_vora_match` stands in for `$(compgen -W ...)` and must answer exactly as it does.
"""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

import pytest
from completion_support import (
    bash_complete,
    fish_complete,
    make_state,
    needs_fish,
    needs_zsh,
    script,
    vora_on_path,
    vora_tree,
    zpty_tab_press,
    zsh_complete,
)

GLOBALS = ["--state-dir", "--config", "--profile", "--dev", "--force", "--no-pager", "--ascii"]  # offered after the command too
OTHER_GLOBALS = [g for g in GLOBALS if g != "--force"]  # a command with its own --force offers it once


@pytest.fixture
def env(state_dir: Path, tmp_path: Path) -> dict[str, str]:
    make_state(state_dir)
    return vora_on_path(tmp_path / "bin")


# -- bash ---------------------------------------------------------------------------------------



def test_bash_registers_the_function(scripts: dict[str, Path], env: dict[str, str]) -> None:
    out = subprocess.run(["bash", "--norc", "-c", f"source {scripts['bash']}; complete -p vora"],
                         capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "complete -F _vora vora"


@pytest.mark.parametrize(("line", "expected"), [
    ("vora ", ["config", "context", "sessions", "plugins", "devices", "doctor", "security", "backup", "gateway", "logs", "settings", "completion"]),
    ("vora co", ["config", "context", "completion"]),
    ("vora config ", ["file", "get", "set", "unset", "patch", "validate", "schema", "edit"]),
    ("vora context l", ["list"]),
    ("vora config set --", ["--stdin", "--allow-empty", "--strict-json", "--type", "--dry-run", "--force", "--json",
                            "--quiet", "--query", "--help", *OTHER_GLOBALS]),
    ("vora config set --type ", ["string", "number", "integer", "boolean", "json"]),
    ("vora config set --type i", ["integer"]),
    ("vora --", ["--state-dir", "--config", "--profile", "--dev", "--force", "--no-pager", "--ascii", "--json", "--query",
                 "--quiet", "--version", "--help"]),
    ("vora completion ", ["bash", "zsh", "fish"]),
    ("vora completion bash --", ["--install", "--uninstall", "--force", "--json", "--quiet", "--query", "--help",
                                 *OTHER_GLOBALS]),
    ("vora --dev config validate --st", ["--strict", "--state-dir"]),
])
def test_bash_commands_options_and_choices(scripts: dict[str, Path], env: dict[str, str], line: str,
                                           expected: list[str]) -> None:
    assert bash_complete(scripts["bash"], env, line) == expected


def test_bash_dynamic_config_paths_at_depth_3(scripts: dict[str, Path], env: dict[str, str]) -> None:
    assert bash_complete(scripts["bash"], env, "vora config get gateway.p") == ["gateway.port"]
    found = bash_complete(scripts["bash"], env, "vora config unset plugins.entries")
    assert "plugins.entries.my-engine.enabled" in found
    assert '"plugins.entries[\\"@acme/memory\\"]"' not in found  # quoted for the shell, not raw
    assert r"plugins.entries\[\"@acme/memory\"\]" in found


def test_bash_forwards_global_options_to_the_dynamic_call(scripts: dict[str, Path], env: dict[str, str],
                                                          tmp_path: Path) -> None:
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    line = f"vora --state-dir {other} config get plugins.entries.o"
    assert bash_complete(scripts["bash"], env, line) == ["plugins.entries.only-here"]
    split = f"vora --state-dir = {other} config get plugins.entries.o"  # --state-dir=DIR as bash splits it
    assert bash_complete(scripts["bash"], env, split) == ["plugins.entries.only-here"]


def test_bash_values_of_path_options(scripts: dict[str, Path], env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "somedir").mkdir()
    (tmp_path / "somefile").write_text("")
    assert bash_complete(scripts["bash"], env, f"vora --state-dir {tmp_path}/some") == [f"{tmp_path}/somedir"]
    files = bash_complete(scripts["bash"], env, f"vora config patch {tmp_path}/some")
    assert sorted(files) == [f"{tmp_path}/somedir", f"{tmp_path}/somefile"]


def test_bash_offers_nothing_for_free_text(scripts: dict[str, Path], env: dict[str, str]) -> None:
    assert bash_complete(scripts["bash"], env, "vora config set gateway.port ") == []
    assert bash_complete(scripts["bash"], env, "vora nosuchcommand ") == [
        "config", "context", "sessions", "plugins", "devices", "doctor", "security", "backup", "gateway", "logs", "settings", "completion"]


def test_bash_dynamic_ids_when_the_groups_exist(scripts: dict[str, Path], env: dict[str, str]) -> None:
    """Plugin and device ids (active once the plugins and devices groups are merged)."""
    tree = vora_tree()
    if tree.find("vora plugins enable") is not None:
        assert bash_complete(scripts["bash"], env, "vora plugins enable my") == ["my-engine"]
        assert bash_complete(scripts["bash"], env, "vora plugins uninstall l") == ["lossless-claw"]
    if tree.find("vora devices approve") is not None:
        assert bash_complete(scripts["bash"], env, "vora devices approve req-7") == ["req-7f3a"]
        assert bash_complete(scripts["bash"], env, "vora devices approve --device c0") == ["c0ffee00c0ffee00"]
        assert bash_complete(scripts["bash"], env, "vora devices remove ab") == ["abcd1234abcd1234"]
    assert bash_complete(scripts["bash"], env, "vora --profile ") == ["default"]


BASH_COMPLETION = next((p for p in ("/usr/share/bash-completion/bash_completion",
                                     "/usr/local/share/bash-completion/bash_completion") if Path(p).is_file()), None)


@pytest.mark.skipif(BASH_COMPLETION is None, reason="bash-completion is not installed (.ci/run installs it)")
@pytest.mark.parametrize("xdg", [False, True])
def test_bash_completion_loads_the_installed_script(vora, home: Path, env: dict[str, str], tmp_path: Path,
                                                    xdg: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """bash-completion finds `vora` in its user dir on the first TAB; the function then completes."""
    shell_env = {k: v for k, v in env.items() if not k.startswith(("XDG_", "BASH_COMPLETION"))}
    shell_env["HOME"] = str(home)
    if xdg:
        monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
        shell_env["XDG_DATA_HOME"] = str(tmp_path / "data")
    installed = Path(vora("completion", "bash", "--install", "--json").json()["script"])
    assert installed.is_relative_to(tmp_path / "data" if xdg else home)
    line = "vora config "
    program = (
        f"source {BASH_COMPLETION}\n"
        "complete -p vora >/dev/null 2>&1 && echo preloaded\n"
        "_completion_loader vora\n"
        "complete -p vora\n"
        f"COMP_LINE={shlex.quote(line)}; COMP_POINT=${{#COMP_LINE}}; COMP_WORDS=(vora config ''); COMP_CWORD=2\n"
        "COMPREPLY=(); _vora; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
    )
    out = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                         env=shell_env, check=True, timeout=60)
    lines = out.stdout.splitlines()
    assert "preloaded" not in lines
    assert lines[0] == "complete -F _vora vora"
    assert lines[1:] == ["file", "get", "set", "unset", "patch", "validate", "schema", "edit"]


# -- zsh ----------------------------------------------------------------------------------------

@needs_zsh
@pytest.mark.parametrize(("line", "expected"), [
    ("vora ", ["config", "context", "sessions", "plugins", "devices", "doctor", "security", "backup", "gateway", "logs", "settings", "completion"]),
    ("vora config ", ["file", "get", "set", "unset", "patch", "validate", "schema", "edit"]),
    ("vora config set --t", ["--type"]),
    ("vora config set --type ", ["string", "number", "integer", "boolean", "json"]),
    ("vora config get gateway.p", ["gateway.port"]),
    ("vora completion ", ["bash", "zsh", "fish"]),
    ("vora --state-dir ", ["<dirs>"]),
    ("vora config patch ", ["<files>"]),
])
def test_zsh(scripts: dict[str, Path], env: dict[str, str], line: str, expected: list[str]) -> None:
    assert zsh_complete(scripts["zsh"], env, line) == expected


@needs_zsh
def test_zsh_forwards_global_options(scripts: dict[str, Path], env: dict[str, str], tmp_path: Path) -> None:
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    assert zsh_complete(scripts["zsh"], env, f"vora --state-dir={other} config get plugins.entries.o") == [
        "plugins.entries.only-here"]


@needs_zsh
def test_zsh_real_tab_press_in_an_interactive_shell(scripts: dict[str, Path], env: dict[str, str],
                                                    tmp_path: Path) -> None:
    zdot = tmp_path / "zdot"
    zdot.mkdir()
    (zdot / ".zshrc").write_text(f"autoload -Uz compinit && compinit -u -D\nsource {scripts['zsh']}\nPROMPT='> '\n")
    described = "Set one value, rewriting only its own text in the file."
    driver = zpty_tab_press("vora config \\t", ["validate", "unset", "schema", "patch", described])
    result = subprocess.run(["zsh", "-f", "-c", driver], capture_output=True, text=True,
                            env={**env, "ZDOTDIR": str(zdot)}, timeout=60, check=False)
    for name in ("validate", "unset", "schema", "patch"):
        assert name in result.stdout
    assert described in result.stdout  # descriptions shown


# -- fish ---------------------------------------------------------------------------------------

@needs_fish
@pytest.mark.parametrize(("line", "expected"), [
    ("vora ", ["backup", "completion", "config", "context", "devices", "doctor", "gateway", "logs", "plugins", "security", "sessions", "settings"]),
    ("vora config ", ["edit", "file", "get", "patch", "schema", "set", "unset", "validate"]),
    ("vora config set --t", ["--type"]),
    ("vora config set --type ", ["boolean", "integer", "json", "number", "string"]),
    ("vora config set --type=s", ["--type=string"]),
    ("vora config get gateway.p", ["gateway.port"]),
    ("vora completion ", ["bash", "fish", "zsh"]),
])
def test_fish(scripts: dict[str, Path], env: dict[str, str], line: str, expected: list[str]) -> None:
    assert fish_complete(scripts["fish"], env, line) == expected


@needs_fish
def test_fish_descriptions_and_global_options(scripts: dict[str, Path], env: dict[str, str],
                                              tmp_path: Path) -> None:
    program = f"source {scripts['fish']}; complete -C 'vora config '"
    out = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, env=env,
                         check=True).stdout
    assert "set\tSet one value, rewriting only its own text in the file." in out.splitlines()
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    line = f"vora --state-dir {other} config unset plugins.entries.o"
    assert fish_complete(scripts["fish"], env, line) == ["plugins.entries.only-here"]


@needs_zsh
@pytest.mark.parametrize("zshrc", ["autoload -Uz compinit && compinit -u -D\n", "", None])
def test_zsh_loads_the_installed_function_from_fpath(vora, home: Path, env: dict[str, str], zshrc: str | None) -> None:
    """With compinit already run, without it, and with no .zshrc at all: `_vora` comes from the installed file."""
    if zshrc is not None:
        (home / ".zshrc").write_text(zshrc)
    installed = Path(vora("completion", "zsh", "--install", "--json").json()["script"])
    program = (f"source {home}/.zshrc; print -r -- ${{_comps[vora]}}; autoload +X _vora; "
               "print -r -- ${functions_source[_vora]:-$(whence -v _vora)}")
    out = subprocess.run(["zsh", "-f", "-c", "zmodload zsh/parameter; " + program], capture_output=True, text=True,
                         env={**env, "HOME": str(home)}, check=True, timeout=60)
    lines = out.stdout.splitlines()
    assert lines[0] == "_vora"
    assert str(installed) in lines[1]


@needs_fish
@pytest.mark.parametrize("xdg", [False, True])
def test_fish_autoloads_the_installed_file(vora, home: Path, env: dict[str, str], tmp_path: Path, xdg: bool,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    fish_env = {k: v for k, v in env.items() if not k.startswith("XDG_")}
    fish_env["HOME"] = str(home)
    if xdg:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
        fish_env["XDG_CONFIG_HOME"] = str(tmp_path / "conf")
    assert vora("completion", "fish", "--install").exit_code == 0
    out = subprocess.run(["fish", "-c", "complete -C 'vora con'"], capture_output=True, text=True,
                         env=fish_env, check=True, timeout=60)
    assert [row.split("\t")[0] for row in out.stdout.splitlines()] == ["config", "context"]
    assert vora("completion", "fish", "--uninstall").exit_code == 0
    gone = subprocess.run(["fish", "-c", "complete -C 'vora con'"], capture_output=True, text=True,
                          env=fish_env, check=True, timeout=60)
    assert "config" not in [row.split("\t")[0] for row in gone.stdout.splitlines()]


CURS = ["", "-", "--", "--j", "c", "con", "config", "x", "*", "[a", "?", "d*", "-q", "plugin-", "a b"]


def _word_lists() -> list[str]:
    lists = set()
    for command in vora_tree().walk():
        lists.add(" ".join(c.name for c in command.subcommands))
        lists.add(" ".join(n for o in command.options for n in o.names))
        for option in command.options:
            if option.value and option.value.startswith(("choice:", "list:")):
                lists.add(option.value.split(":", 1)[1])
    return sorted(lists)


def test_vora_match_answers_as_compgen_for_every_word_list_and_prefix(tmp_path: Path) -> None:
    lists = _word_lists()
    assert len(lists) > 10
    checks = []
    for index, words in enumerate(lists):
        for cur in CURS:
            for head in ("", "a,b,"):
                # compgen's answer read back through a file, not $(...): a subshell and a `tr` per
                # check were 3,000 processes, the whole cost of this test
                checks.append(
                    f"COMPREPLY=(); _vora_match {shlex.quote(words)} {shlex.quote(cur)} {shlex.quote(head)}; "
                    f"mine=\"${{COMPREPLY[*]}}\"; compgen -P {shlex.quote(head)} "
                    f"-W {shlex.quote(words)} -- {shlex.quote(cur)} > \"$ANSWER\"; mapfile -t got < \"$ANSWER\"; "
                    f"theirs=\"${{got[*]}}\"; [[ \"$mine\" == \"$theirs\" ]] || "
                    f"echo \"DIFF {index} cur={cur!r} head={head!r}: [$mine] vs [$theirs]\""
                )
    program = (script("bash") + f"\nANSWER={shlex.quote(str(tmp_path / 'compgen.out'))}\n" + "\n".join(checks)
               + "\necho done\n")
    out = subprocess.run(["bash", "--norc", "--noprofile"], input=program, capture_output=True, text=True,
                         check=True, timeout=60)
    assert out.stdout == "done\n", out.stdout[:2000]


def test_only_files_dirs_and_dynamic_ids_run_a_subshell_on_tab() -> None:
    body = script("bash").split("\n_vora() {", 1)[1]
    forking = [line.strip() for line in body.splitlines() if "$(" in line or "<(" in line]
    assert forking and all(re.search(r"compgen -[fd] |__complete ", line) for line in forking), forking
    assert "$(compgen" not in script("bash")
