"""Every closed value set the help spells as `a|b|c` completes as exactly those words, in every shell.

Issue 15 §4: `doctor --format text|json|github|junit|sarif` completed nothing, while `--fail-on`
and `--kind` did: the rule is read off the help (the metavar), not off a list someone keeps.

Issue 23, "Terminals": session keys complete in every shell (`sessions show`, `--session`),
through the `__complete` fast entry, and the global options complete after the command too.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from completion_support import (
    SESSION_KEYS,
    bash_complete,
    fish_complete,
    make_state,
    needs_fish,
    needs_zsh,
    script,
    vora_on_path,
    vora_tree,
    write_session_stores,
    zsh_complete,
)

PIPE_LIST = re.compile(r"[a-z][a-z0-9-]*(\|[a-z][a-z0-9-]*)+")


def closed_options() -> list[tuple[str, str, list[str]]]:
    """(command path, option, words) for each option whose metavar is a pipe list."""
    found = []
    for command in vora_tree().walk():
        for option in command.options:
            if option.takes_value and PIPE_LIST.fullmatch(option.metavar):
                found.append((command.path, max(option.names, key=len), option.metavar.split("|")))
    return found


def test_the_pipe_lists_are_found() -> None:
    paths = {(path, name) for path, name, _ in closed_options()}
    assert {("vora doctor", "--format"), ("vora doctor", "--fail-on"), ("vora context list", "--kind")} <= paths


@pytest.mark.parametrize(("path", "name", "words"), closed_options())
def test_a_pipe_list_metavar_is_a_choice_of_those_words(path: str, name: str, words: list[str]) -> None:
    command = vora_tree().find(path)
    assert command is not None
    option = next(o for o in command.options if name in o.names)
    assert option.value == "choice:" + " ".join(words)


@pytest.mark.parametrize(("line", "expected"), [
    ("vora doctor --format ", ["text", "json", "github", "junit", "sarif"]),
    ("vora doctor --format j", ["json", "junit"]),
    ("vora doctor --fail-on ", ["warn", "error"]),
])
def test_bash_completes_the_closed_sets(tmp_path: Path, env: dict[str, str], line: str,
                                        expected: list[str]) -> None:
    path = tmp_path / "vora.bash"
    path.write_text(script("bash"))
    assert bash_complete(path, env, line) == expected


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (.ci/run installs it)")
@pytest.mark.parametrize(("line", "expected"), [
    ("vora doctor --format ", ["github", "json", "junit", "sarif", "text"]),
    ("vora doctor --format=s", ["--format=sarif"]),
])
def test_fish_completes_the_closed_sets(tmp_path: Path, env: dict[str, str], line: str,
                                        expected: list[str]) -> None:
    path = tmp_path / "vora.fish"
    path.write_text(script("fish"))
    program = f"source {shlex.quote(str(path))}; complete -C {shlex.quote(line)}"
    out = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, env=env,
                         check=True, timeout=30).stdout
    assert sorted(w.split("\t")[0] for w in out.splitlines() if w) == expected


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (.ci/run installs it)")
@pytest.mark.parametrize(("line", "expected"), [
    ("vora doctor --format ", ["github", "json", "junit", "sarif", "text"]),
    ("vora doctor --fail-on ", ["error", "warn"]),
])
def test_zsh_completes_the_closed_sets(tmp_path: Path, env: dict[str, str], line: str, expected: list[str]) -> None:
    from completion_support import zsh_complete

    path = tmp_path / "_vora"
    path.write_text(script("zsh"))
    assert sorted(zsh_complete(path, env, line)) == expected


# -- --query's fields and the gateway's methods (issue 38) -----------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    ("vora doctor --query che", ["checks", "checks[].id", "checks[].status", "checks[].message", "checks[].file",
                                 "checks[].line", "checks[].col", "checks[].locations", "checks[].evidence",
                                 "checks[].details", "checks[].fix", "checks[].locations[].file",
                                 "checks[].locations[].line", "checks[].locations[].col",
                                 "checks[].locations[].message", "checks[].locations[].status", "checks[].fix.id",
                                 "checks[].fix.kind", "checks[].fix.automatic", "checks[].fix.description",
                                 "checks[].fix.command", "checks[].fix.alternatives", "checks[].fix.operations"]),
    ("vora config get --query ", ["key", "value", "source"]),
    ("vora --state-dir x plugins list --query plugins[].s", ["plugins[].status", "plugins[].slots"]),
    ("vora gateway call sessions.l", ["sessions.list"]),
    ("vora gateway call web.", ["web.login.start", "web.login.wait"]),
])
def test_bash_completes_query_fields_and_gateway_methods(tmp_path: Path, env: dict[str, str], line: str,
                                                         expected: list[str]) -> None:
    """After `--query`, the command's JSON fields (recorded from real runs); `gateway call`, the
    methods the gateway release lists (`core/gateway/methods.py`)."""
    path = tmp_path / "vora.bash"
    path.write_text(script("bash"))
    assert bash_complete(path, env, line) == expected


def test_the_gateway_methods_are_the_releases() -> None:
    """Recorded from openclaw 2026.4.12's own list (`scripts/gen_gateway_methods.py`), with its version."""
    from vora_cli.core.gateway.methods import CHANNEL_METHODS, METHODS, VERSION

    assert VERSION == "openclaw 2026.4.12"
    assert {"health", "status", "logs.tail", "sessions.list", "config.get", "chat.send"} <= set(METHODS)
    assert len(set(METHODS)) == len(METHODS) == 128 and not set(CHANNEL_METHODS) & set(METHODS)


@pytest.fixture
def env(state_dir: Path, tmp_path: Path) -> dict[str, str]:
    make_state(state_dir)
    write_session_stores(state_dir)
    return vora_on_path(tmp_path / "bin")


def bash_split(line: str) -> list[str]:
    """COMP_WORDS as bash builds them: split at blanks, and at ':' and '=' (COMP_WORDBREAKS)."""
    words: list[str] = []
    for part in line.split(" "):
        pieces = [p for p in re.split(r"([:=])", part) if p != ""] or [""]
        words.extend(pieces)
    return words




def bash_complete_split(script: Path, env: dict[str, str], line: str) -> list[str]:
    return bash_complete(script, env, line, words=bash_split(line))


def test_bash_completes_a_key_whose_colons_split_the_word(scripts: dict[str, Path], env: dict[str, str]) -> None:
    # bash replaces only what follows the last ':': the candidates say the rest of the key
    assert bash_complete_split(scripts["bash"], env, "vora sessions show agent:main:t") == ["telegram:group:-1001234567890"]
    assert bash_complete_split(scripts["bash"], env, "vora sessions show agent:") == [
        "main:main", "main:telegram:group:-1001234567890", "ops:cron:nightly"]
    assert bash_complete_split(scripts["bash"], env, "vora sessions show ma") == ["main"]
    assert bash_complete_split(scripts["bash"], env, "vora context list --session agent:ops:") == ["cron:nightly"]
    assert bash_complete_split(scripts["bash"], env, "vora context detail --session ") == sorted(SESSION_KEYS)


def test_bash_global_options_after_the_command(scripts: dict[str, Path], env: dict[str, str],
                                              tmp_path: Path) -> None:
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    assert bash_complete_split(scripts["bash"], env, f"vora plugins enable --state-dir {other} o") == ["only-here"]
    assert bash_complete_split(scripts["bash"], env, f"vora plugins enable --state-dir={other} o") == ["only-here"]
    (tmp_path / "somedir").mkdir()
    assert bash_complete_split(scripts["bash"], env, f"vora doctor --state-dir {tmp_path}/some") == [f"{tmp_path}/somedir"]
    assert bash_complete_split(scripts["bash"], env, "vora doctor --prof") == ["--profile"]
    assert bash_complete_split(scripts["bash"], env, "vora doctor --dev --only config-f") == ["config-file"]


@needs_zsh
def test_zsh_session_keys_and_global_options_after_the_command(scripts: dict[str, Path], env: dict[str, str],
                                                               tmp_path: Path) -> None:
    assert zsh_complete(scripts["zsh"], env, "vora sessions show agent:main:") == SESSION_KEYS[:2]
    assert zsh_complete(scripts["zsh"], env, "vora context json --session agent:o") == [SESSION_KEYS[2]]
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    assert zsh_complete(scripts["zsh"], env, f"vora plugins enable --state-dir {other} o") == ["only-here"]
    assert zsh_complete(scripts["zsh"], env, f"vora plugins enable --state-dir={other} o") == ["only-here"]
    assert zsh_complete(scripts["zsh"], env, "vora doctor --state-dir ") == ["<dirs>"]


@needs_fish
def test_fish_session_keys_and_global_options_after_the_command(scripts: dict[str, Path], env: dict[str, str],
                                                                tmp_path: Path) -> None:
    assert fish_complete(scripts["fish"], env, "vora sessions show agent:main:") == SESSION_KEYS[:2]
    assert fish_complete(scripts["fish"], env, "vora context list --session agent:o") == [SESSION_KEYS[2]]
    other = make_state(tmp_path / "other")
    (other / "vora.json").write_text('{ plugins: { entries: { "only-here": {} } } }')
    assert fish_complete(scripts["fish"], env, f"vora plugins enable --state-dir {other} o") == ["only-here"]
    assert "--state-dir" in fish_complete(scripts["fish"], env, "vora doctor --st")
