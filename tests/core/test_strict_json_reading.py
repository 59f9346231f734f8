"""Every strict JSON reader refuses NaN, Infinity and -Infinity, as JSON.parse and RFC 8259 do
(Python's `json` reads them); they share one hook, `core/strict_json.refuse_non_finite`."""

from __future__ import annotations

import pytest

from vora_cli.core.config.readback import is_strict_json
from vora_cli.core.sessions.jsfmt import loads
from vora_cli.core.sessions.jsonl import parse_line

NON_FINITE = ["NaN", "Infinity", "-Infinity"]


@pytest.mark.parametrize("word", NON_FINITE)
def test_config_readback_calls_them_json5_only(word: str) -> None:
    assert is_strict_json(b'{"a": 1.5}')
    assert not is_strict_json(f'{{"a": {word}}}'.encode())


@pytest.mark.parametrize("word", NON_FINITE)
def test_session_files_refuse_them(word: str) -> None:
    assert loads('{"a": 2.0}') == {"a": 2}
    with pytest.raises(ValueError, match=f"{word.lstrip('-')} is not JSON"):
        loads(f'{{"a": {word}}}')
    with pytest.raises(ValueError):
        parse_line(f'{{"type": "message", "x": [{word}]}}\n'.encode())
