"""A profile name and an agent id are read as the gateway reads them (`/^[a-z0-9][a-z0-9_-]{0,63}$/i`
in JavaScript): ASCII letters of either case, digits, `_` and `-`; not the four characters Python's
IGNORECASE folds to i, s or k, and not a final newline (Python's `$` allowed one)."""

from __future__ import annotations

import pytest

from vora_cli.core.agents import normalize_agent_id
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import validate_profile
from vora_cli.core.text import NAME_RE


@pytest.mark.parametrize("name", ["main", "Work", "A-1_b", "9", "x" * 64])
def test_ascii_names_of_either_case_match(name: str) -> None:
    assert NAME_RE.match(name)


@pytest.mark.parametrize("name", ["\u0130", "\u0131", "\u017f", "\u212a", "a\u212a", "work\n", "", "-a", "x" * 65])
def test_what_javascript_refuses_is_refused(name: str) -> None:
    assert not NAME_RE.match(name)
    with pytest.raises(VoraError) as caught:
        validate_profile(name)
    assert caught.value.code == "usage"


def test_an_agent_id_with_a_folding_letter_is_normalized_as_the_gateway_does() -> None:
    assert normalize_agent_id("Main") == "main"
    assert normalize_agent_id("s\u017fk") == "s-k"
