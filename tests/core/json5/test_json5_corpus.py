"""vora reads JSON5 as the official test corpus says (issue 12, point 19).

The cases come from json5/json5-tests (https://github.com/json5/json5-tests, MIT licence,
Copyright (c) 2012-2018 Aseem Kishore and others), reproduced as data in
`tests/data/json5_corpus.json`: arrays, comments, misc, new-lines, numbers, objects, strings,
todo. A valid case (`.json`/`.json5`) must parse to the reference value, computed by the
`json5` package (the reference implementation's Python port); an invalid one (`.js`/`.txt`)
must be refused with a position.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import json5
import pytest

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import loads

CORPUS = json.loads((Path(__file__).resolve().parents[2] / "data" / "json5_corpus.json").read_text())["cases"]
VALID = [c for c in CORPUS if c["valid"]]
INVALID = [c for c in CORPUS if not c["valid"]]


def _same(a: Any, b: Any) -> bool:
    """Equal values of equal types (1 and 1.0 and True differ; NaN equals NaN; -0.0 is not 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_the_corpus_covers_every_category() -> None:
    assert {c["category"] for c in CORPUS} == {
        "arrays", "comments", "misc", "new-lines", "numbers", "objects", "strings", "todo"}
    assert len(VALID) > 60 and len(INVALID) > 25


@pytest.mark.parametrize("case", VALID, ids=[f"{c['category']}/{c['name']}" for c in VALID])
def test_a_valid_case_reads_as_the_reference_value(case: dict[str, Any]) -> None:
    expected = json5.loads(case["text"])
    assert _same(loads(case["text"], filename=case["name"]), expected)


@pytest.mark.parametrize("case", INVALID, ids=[f"{c['category']}/{c['name']}" for c in INVALID])
def test_an_invalid_case_is_refused_with_a_position(case: dict[str, Any]) -> None:
    with pytest.raises(ParseError) as caught:
        loads(case["text"], filename=case["name"])
    error = caught.value
    assert error.line >= 1 and error.col >= 1
    assert error.message.startswith(f"{case['name']}:{error.line}:{error.col}: ")
    with pytest.raises(ValueError):
        json5.loads(case["text"])  # the oracle agrees


def test_duplicate_keys_read_last_wins_and_are_reported() -> None:
    [case] = [c for c in CORPUS if c["name"] == "duplicate-keys"]
    doc = Json5Document.parse(case["text"])
    assert doc.value == {"a": False}
    [dup] = doc.duplicate_keys()
    assert (dup.path, dup.ignored, dup.effective) == (("a",), (2, 5), (3, 5))
