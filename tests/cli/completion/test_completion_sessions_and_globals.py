"""Issue 23, "Terminals": session keys complete in every shell (`sessions show`, `--session`),
through the `__complete` fast entry, and the global options complete after the command too."""

from __future__ import annotations

import re
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
    write_session_stores,
    zsh_complete,
)


@pytest.fixture
def env(state_dir: Path, tmp_path: Path) -> dict[str, str]:
    make_state(state_dir)
    write_session_stores(state_dir)
    return vora_on_path(tmp_path / "bin")


@pytest.fixture
def scripts(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for shell, name in (("bash", "vora.bash"), ("zsh", "_vora"), ("fish", "vora.fish")):
        out[shell] = tmp_path / name
        out[shell].write_text(script(shell))
    return out


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
