"""`sessions show --json` writes its streamed segments into one template (issue 24): the text is
the encoder's own for every shape a segment takes (tool calls, attachments, errors, no preview,
non-ASCII, lone surrogates and characters a terminal acts on), for UTF-8 and ASCII stdout."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.cli.commands.sessions.show import segments_json
from vora_cli.cli.json_text import to_json
from vora_cli.core.sessions.manifest import Segment

_text = st.text(alphabet="ab \"\\\n\u00e9\u2028\u202e\ud800\x1b\x85", max_size=8)
_calls = st.lists(st.fixed_dictionaries({"id": st.one_of(st.none(), _text), "name": _text,
                                         "argsChars": st.integers(0, 10**6)}), max_size=2)
_images = st.lists(st.fixed_dictionaries({"type": st.just("image"), "mimeType": st.one_of(st.none(), _text),
                                          "bytes": st.integers(0, 10**9)}), max_size=2)
_segments = st.builds(Segment, st.integers(0, 10**6), _text, st.sampled_from(["user", "assistant", "tool-result"]),
                      st.integers(0, 10**9), _text, st.one_of(st.none(), _text), _calls.map(tuple),
                      st.one_of(st.none(), _text), st.one_of(st.none(), st.booleans()), _images.map(tuple))


@pytest.mark.slow  # 2.6 s of CPU on the 2-core machine
@settings(max_examples=400, deadline=None)
@given(st.lists(_segments, max_size=4), st.booleans())
def test_the_segments_text_is_the_encoders_text_of_their_dicts(segments: list[Segment], ascii_only: bool) -> None:
    expected: Any = to_json([s.to_dict() for s in segments], indent=None, ascii_only=ascii_only)[1:-1]
    assert segments_json(segments, ascii_only) == expected
