"""Issue 12, point 7 (acceptance audit): doctor's excerpt of an unparseable config line never shows
a value that sat below a secret-named key earlier on that line — whether the error itself is below
it (hidden) or a secret subtree closed before it on the same line (not hidden). The hiding rule itself,
and its linear work, is in `tests/core/secrets/test_excerpt_values.py`."""

from __future__ import annotations

from pathlib import Path

import pytest

MARK = "ZQXVmarker"

SHAPES = {
    # The error is below the secret-named key; a value parsed before it is on the line.
    "array of strings": '{ apiKeys: [ "' + MARK + '1", ' + MARK + "2 ] }\n",
    "map below a token key": '{ botTokens: { main: "' + MARK + '" oops: 1 } }\n',
    "closed array before the error": '{ apiKeys: [ "' + MARK + '" ], port: 12 34 }\n',
    "number below cookie": "{ cookie: { a: 12345678" + MARK[:0] + ", b: 1 2 } }\n",
    # The secret subtree closes on the error's line, the error is outside it: not hidden.
    "subtree closing on the line": '{ botTokens: {\n  main: "' + MARK + '" }, port: 12 34 }\n',
    "array of objects closing": '{ creds: [ {\n privateKey: "x" }, { privateKey:\n "' + MARK
    + '" } ], port: 1 2 }\n',
    "secret after the error": '{ port: 12 34, apiKeys: [ "' + MARK + '" ] }\n',
}


@pytest.mark.parametrize("text", SHAPES.values(), ids=SHAPES.keys())
@pytest.mark.parametrize("json_mode", [False, True])
def test_doctor_excerpt_hides_values_of_secrets(state_dir: Path, vora, text: str, json_mode: bool) -> None:
    (state_dir / "vora.json").write_text(text)
    run = vora("doctor", "--json", "--only", "config-syntax") if json_mode else vora("doctor")
    assert run.exit_code == 1
    shown = run.stdout + run.stderr
    assert MARK not in shown
    assert "12345678" not in shown
    assert "config-syntax" in shown


def test_the_excerpt_still_shows_the_shape(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{ botTokens: {\n  main: "' + MARK + '" }, port: 18789 18790 }\n')
    check = vora("doctor", "--json", "--only", "config-syntax").json()["checks"][0]
    assert check["details"][0] == "2 | main: <redacted> }, port: 18789 18790 }"


