"""Every check id an example names (help epilogs, docs/, README) is one `vora doctor` knows.

`vora settings set --help` showed `doctor.skip devices-pending,workspace-files`, two ids that never
existed: copying the example failed. The examples are read where a user reads them.
"""

from __future__ import annotations

import re

from completion_support import REPO, vora_tree

# `--only a,b`, `--skip=a`, `--fix-id a`, `--fix a b`, `doctor.skip a,b`: the ids that follow
ID_LIST = re.compile(r"(?:--only|--skip|--fix-id|--fix|doctor\.skip)[ =]((?:[a-z][a-z0-9-]*[a-z0-9](?:,| )?)+)")
NOT_IDS = {"a", "b", "c", "alone", "asks", "given", "and", "repeat", "never", "applies", "or", "only", "with", "id",
           "ids", "the", "is", "are", "to", "takes", "names", "in", "of", "for", "from", "when", "each", "any"}


def named_ids(text: str) -> set[str]:
    found: set[str] = set()
    for match in ID_LIST.finditer(text):
        for word in re.split(r"[, ]", match.group(1)):
            if word and word not in NOT_IDS and "-" in word:
                found.add(word)
    return found


def known_ids() -> set[str]:
    """The ids `vora doctor` and `vora security audit` know (an example may be of either)."""
    from vora_cli.core.doctor_names import SELECTABLE_IDS
    from vora_cli.core.security import runner as security

    return set(SELECTABLE_IDS) | set(security.SELECTABLE_IDS)


def test_the_scanner_finds_ids() -> None:
    assert named_ids("vora doctor --only slot-memory,skills; vora settings set doctor.skip devices-pending,x-y") == {
        "slot-memory", "devices-pending", "x-y"}


def test_help_epilogs_name_only_real_check_ids() -> None:
    named = set()
    for command in vora_tree().walk():
        named |= named_ids(command.epilog) | named_ids(command.help)
    assert named  # the doctor and settings examples are there
    assert named - known_ids() == set()


def test_docs_and_readme_name_only_real_check_ids() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
    unknown = {(page.name, word) for page in pages for word in named_ids(page.read_text()) - known_ids()}
    assert unknown == set()
