"""A profile name, an agent id and a session id are read as the gateway reads them (`/^[a-z0-9][a-z0-9_-]{0,63}$/i`
in JavaScript): ASCII letters of either case, digits, `_` and `-`; not the four characters Python's
IGNORECASE folds to i, s or k, and not a final newline (Python's `$` allowed one)."""

from __future__ import annotations

import pytest

from vora_cli.core.agents import normalize_agent_id
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import validate_profile
from vora_cli.core.sessions.locate import SAFE_SESSION_ID
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


@pytest.mark.parametrize(("session_id", "safe"), [
    ("abc", True), ("A.b-c_9", True), ("x" * 128, True), ("abc\n", False), ("\u212a", False), ("a\u017f", False),
    (".a", False), ("x" * 129, False)])
def test_a_session_id_is_safe_as_the_gateway_s_safe_session_id_re(session_id: str, safe: bool) -> None:
    assert bool(SAFE_SESSION_ID.match(session_id)) is safe
