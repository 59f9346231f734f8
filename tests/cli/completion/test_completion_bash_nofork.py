"""A bash TAB on a command word, an option or a closed value set forks nothing (startup perf,
issue 11): `_vora_match` stands in for `$(compgen -W ...)` and must answer exactly as it does."""

from __future__ import annotations

import re
import shlex
import subprocess
from pathlib import Path

from completion_support import script, vora_tree

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
