"""vora_cli.core.json5: JSON5 parsing, positions and lossless edits (spec: config.md)."""

from __future__ import annotations

import math
import re
from pathlib import PurePath
from typing import Any

import json5
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vora_cli.core.config.planning import plan_edits, plan_merge_patch
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import loads
from vora_cli.core.json5.values import dumps_json, require_object, same_value


def merge_patch(doc: Json5Document, patch: dict[str, Any]) -> Json5Document:
    """An RFC 7386 merge patch through the one production planner (core.config.planning)."""
    edits = plan_merge_patch(doc.value, patch)
    return plan_edits(doc, [(edit, edit.path) for edit in edits], PurePath("vora.json"))[0]


# ---------------------------------------------------------------------------------------------
# Golden configs: the exact text after each kind of edit, written out by hand.

COMMENTED = """\
// vora.json: hand-written
{
  /* agents block */
  agents: {
    defaults: {
      workspace: '~/work', // where agents live
      maxTokens: 0x1F,
    },
  },

  // the port comment belongs to port
  port: 8080, // trailing about port
  name: "gw",
}
"""


def test_commented_set_existing() -> None:
    doc = Json5Document.parse(COMMENTED)
    assert doc.set(["agents", "defaults", "workspace"], "/srv/w").text == COMMENTED.replace(
        "workspace: '~/work',", "workspace: '/srv/w',"
    )


def test_commented_insert_new() -> None:
    out = Json5Document.parse(COMMENTED).set(["agents", "defaults", "model"], "m1").text
    assert out == """\
// vora.json: hand-written
{
  /* agents block */
  agents: {
    defaults: {
      workspace: '~/work', // where agents live
      maxTokens: 0x1F,
      model: 'm1',
    },
  },

  // the port comment belongs to port
  port: 8080, // trailing about port
  name: "gw",
}
"""


def test_commented_insert_nested_new_object() -> None:
    out = Json5Document.parse(COMMENTED).set(["plugins", "entries", "x"], {"enabled": True}).text
    assert out == """\
// vora.json: hand-written
{
  /* agents block */
  agents: {
    defaults: {
      workspace: '~/work', // where agents live
      maxTokens: 0x1F,
    },
  },

  // the port comment belongs to port
  port: 8080, // trailing about port
  name: "gw",
  plugins: {
    entries: {
      x: {
        enabled: true,
      },
    },
  },
}
"""


def test_commented_unset_keeps_neighbour_comments() -> None:
    doc = Json5Document.parse(COMMENTED)
    assert doc.unset(["port"]).text == COMMENTED.replace("  port: 8080, // trailing about port\n", "")
    assert doc.unset(["agents", "defaults", "workspace"]).text == COMMENTED.replace(
        "      workspace: '~/work', // where agents live\n", ""
    )


def test_commented_merge_patch() -> None:
    out = merge_patch(Json5Document.parse(COMMENTED),
        {"port": 9090, "name": None, "agents": {"defaults": {"maxTokens": None, "x": [1]}}}
    ).text
    assert out == """\
// vora.json: hand-written
{
  /* agents block */
  agents: {
    defaults: {
      workspace: '~/work', // where agents live
      x: [
        1,
      ],
    },
  },

  // the port comment belongs to port
  port: 9090, // trailing about port
}
"""


TABS_CRLF = '{\r\n\t"gateway": {\r\n\t\t"port": 1,\r\n\t\t"bind": "lo" // no trailing commas here\r\n\t},\r\n\t"debug": false\r\n}\r\n'


def test_tabs_crlf_set_existing() -> None:
    out = Json5Document.parse(TABS_CRLF).set(["debug"], True).text
    assert out == TABS_CRLF.replace('"debug": false', '"debug": true')


def test_tabs_crlf_insert_new() -> None:
    out = Json5Document.parse(TABS_CRLF).set(["gateway", "tls"], False).text
    assert out == (
        '{\r\n\t"gateway": {\r\n\t\t"port": 1,\r\n\t\t"bind": "lo", // no trailing commas here\r\n'
        '\t\t"tls": false\r\n\t},\r\n\t"debug": false\r\n}\r\n'
    )


def test_tabs_crlf_insert_nested_new_object() -> None:
    out = Json5Document.parse(TABS_CRLF).set(["log", "file", "path"], "/var/log").text
    assert out == (
        '{\r\n\t"gateway": {\r\n\t\t"port": 1,\r\n\t\t"bind": "lo" // no trailing commas here\r\n\t},\r\n'
        '\t"debug": false,\r\n\t"log": {\r\n\t\t"file": {\r\n\t\t\t"path": "/var/log"\r\n\t\t}\r\n\t}\r\n}\r\n'
    )


def test_tabs_crlf_unset_last_member_drops_the_comma_before_it() -> None:
    doc = Json5Document.parse(TABS_CRLF)
    assert doc.unset(["gateway", "bind"]).text == (
        '{\r\n\t"gateway": {\r\n\t\t"port": 1\r\n\t},\r\n\t"debug": false\r\n}\r\n'
    )
    assert doc.unset(["debug"]).text == (
        '{\r\n\t"gateway": {\r\n\t\t"port": 1,\r\n\t\t"bind": "lo" // no trailing commas here\r\n\t}\r\n}\r\n'
    )


def test_tabs_crlf_merge_patch() -> None:
    out = merge_patch(Json5Document.parse(TABS_CRLF), {"gateway": {"port": 2, "bind": None}, "x": {"y": None}}).text
    assert out == '{\r\n\t"gateway": {\r\n\t\t"port": 2\r\n\t},\r\n\t"debug": false,\r\n\t"x": {}\r\n}\r\n'


STRICT_BOM = '\ufeff{\n    "a": 1,\n    "b": [1, 2],\n    "c": {\n        "d": null\n    }\n}'


def test_strict_bom_set_existing_keeps_bom_and_no_final_newline() -> None:
    out = Json5Document.parse(STRICT_BOM).set(["c", "d"], {"e": "f"}).text
    assert out == '\ufeff{\n    "a": 1,\n    "b": [1, 2],\n    "c": {\n        "d": {\n            "e": "f"\n        }\n    }\n}'


def test_strict_bom_insert_new_stays_strict_json() -> None:
    out = Json5Document.parse(STRICT_BOM).set(["z"], "new").text
    assert out == '\ufeff{\n    "a": 1,\n    "b": [1, 2],\n    "c": {\n        "d": null\n    },\n    "z": "new"\n}'
    import json

    assert json.loads(out[1:]) == {"a": 1, "b": [1, 2], "c": {"d": None}, "z": "new"}


def test_strict_bom_insert_nested_and_append() -> None:
    doc = Json5Document.parse(STRICT_BOM)
    assert doc.set(["c", "n", "m"], 1).text == (
        '\ufeff{\n    "a": 1,\n    "b": [1, 2],\n    "c": {\n        "d": null,\n'
        '        "n": {\n            "m": 1\n        }\n    }\n}'
    )
    assert doc.set(["b", 2], 3).text == STRICT_BOM.replace("[1, 2]", "[1, 2, 3]")


def test_strict_bom_unset_and_patch() -> None:
    doc = Json5Document.parse(STRICT_BOM)
    assert doc.unset(["a"]).text == '\ufeff{\n    "b": [1, 2],\n    "c": {\n        "d": null\n    }\n}'
    assert doc.unset(["c", "d"]).text == '\ufeff{\n    "a": 1,\n    "b": [1, 2],\n    "c": {}\n}'
    assert doc.unset(["b", 0]).text == STRICT_BOM.replace("[1, 2]", "[2]")
    assert merge_patch(doc, {"b": None, "c": None}).text == '\ufeff{\n    "a": 1\n}'


ONE_LINE = '{"a": 1, "b": {"c": 2}}'


def test_one_line_stays_one_line() -> None:
    doc = Json5Document.parse(ONE_LINE)
    assert doc.set(["a"], [1, 2]).text == '{"a": [1, 2], "b": {"c": 2}}'
    assert doc.set(["d"], 2).text == '{"a": 1, "b": {"c": 2}, "d": 2}'
    assert doc.set(["b", "e", "f"], "g").text == '{"a": 1, "b": {"c": 2, "e": {"f": "g"}}}'
    assert doc.unset(["a"]).text == '{"b": {"c": 2}}'
    assert doc.unset(["b"]).text == '{"a": 1}'
    assert doc.unset(["b", "c"]).text == '{"a": 1, "b": {}}'
    assert merge_patch(doc, {"a": None, "b": {"x": True}}).text == '{"b": {"c": 2, "x": true}}'


def test_empty_object() -> None:
    doc = Json5Document.parse("{}\n")
    assert doc.set(["a"], 1).text == '{\n  "a": 1\n}\n'
    assert doc.set(["a", "b"], 1).text == '{\n  "a": {\n    "b": 1\n  }\n}\n'
    assert merge_patch(doc, {"x": {"y": None, "z": [True]}}).text == '{\n  "x": {\n    "z": [\n      true\n    ]\n  }\n}\n'
    again = doc.set(["a"], 1).unset(["a"])
    assert again.text == "{}\n"


def test_empty_object_with_comment_inside() -> None:
    src = "{\n  servers: {\n    // none yet\n  },\n}\n"
    out = Json5Document.parse(src).set(["servers", "main"], {"url": "http://x"}).text
    assert out == '{\n  servers: {\n    // none yet\n    main: {\n      url: "http://x",\n    },\n  },\n}\n'


COMMENTS_EVERYWHERE = """\
/* head */ { /* after brace */
  a /* before colon */ : /* before value */ 1 /* before comma */ , // after a
  // above b
  'b': [ // open
    1, /* one */
    2 // two
  ], // after b
  c: 3 // last, no comma
} // tail
"""


def test_comments_everywhere_set_existing() -> None:
    doc = Json5Document.parse(COMMENTS_EVERYWHERE)
    assert doc.set(["a"], 10).text == COMMENTS_EVERYWHERE.replace("/* before value */ 1 ", "/* before value */ 10 ")
    assert doc.set(["b", 1], "two").text == COMMENTS_EVERYWHERE.replace('    2 // two', '    "two" // two')


def test_comments_everywhere_insert() -> None:
    doc = Json5Document.parse(COMMENTS_EVERYWHERE)
    assert doc.set(["d"], None).text == COMMENTS_EVERYWHERE.replace(
        "  c: 3 // last, no comma\n", '  c: 3, // last, no comma\n  d: null\n'
    )
    assert doc.set(["b", 2], 3).text == COMMENTS_EVERYWHERE.replace("    2 // two\n", "    2, // two\n    3\n")
    assert doc.set(["n", "m"], 0).text == COMMENTS_EVERYWHERE.replace(
        "  c: 3 // last, no comma\n", '  c: 3, // last, no comma\n  n: {\n    m: 0\n  }\n'
    )


def test_comments_everywhere_unset() -> None:
    doc = Json5Document.parse(COMMENTS_EVERYWHERE)
    # b's own lines go with it; "// above b" stays (comments above are never removed)
    assert doc.unset(["b"]).text == COMMENTS_EVERYWHERE.replace(
        "  'b': [ // open\n    1, /* one */\n    2 // two\n  ], // after b\n", ""
    )
    # the last member goes with its comment; the comma before it goes too (no trailing commas)
    assert doc.unset(["c"]).text == COMMENTS_EVERYWHERE.replace("  ], // after b\n  c: 3 // last, no comma\n", "  ] // after b\n")
    assert doc.unset(["b", 1]).text == COMMENTS_EVERYWHERE.replace("    1, /* one */\n    2 // two\n", "    1 /* one */\n")
    assert doc.unset(["b", 0]).text == COMMENTS_EVERYWHERE.replace("    1, /* one */\n", "")


def test_comments_everywhere_merge_patch() -> None:
    out = merge_patch(Json5Document.parse(COMMENTS_EVERYWHERE), {"a": None, "c": 4}).text
    assert out == COMMENTS_EVERYWHERE.replace(
        "  a /* before colon */ : /* before value */ 1 /* before comma */ , // after a\n", ""
    ).replace("c: 3", "c: 4")


TRAILING = "{\n  list: [\n    'x',\n    'y',\n  ],\n  on: true,\n}\n"


def test_trailing_commas_style_kept() -> None:
    doc = Json5Document.parse(TRAILING)
    assert doc.set(["list", 2], "z").text == "{\n  list: [\n    'x',\n    'y',\n    'z',\n  ],\n  on: true,\n}\n"
    assert doc.set(["off"], False).text == '{\n  list: [\n    \'x\',\n    \'y\',\n  ],\n  on: true,\n  off: false,\n}\n'
    assert doc.unset(["on"]).text == "{\n  list: [\n    'x',\n    'y',\n  ],\n}\n"
    assert doc.unset(["list", 1]).text == "{\n  list: [\n    'x',\n  ],\n  on: true,\n}\n"
    assert doc.unset(["list", 0]).unset(["list", 0]).text == "{\n  list: [],\n  on: true,\n}\n"


def test_no_op_set_is_byte_identical() -> None:
    for src in (COMMENTED, TABS_CRLF, STRICT_BOM, ONE_LINE, COMMENTS_EVERYWHERE, TRAILING):
        doc = Json5Document.parse(src)
        for key, value in doc.value.items():
            assert doc.set([key], value).text == src
        assert merge_patch(doc, {}).text == src
    doc = Json5Document.parse(COMMENTED)
    assert doc.set(["agents", "defaults", "maxTokens"], 31).text == COMMENTED  # 0x1F is kept


def test_set_replaces_type_strictly_but_a_number_by_its_value() -> None:
    doc = Json5Document.parse('{"a": 1}')
    assert doc.set(["a"], 1.0) is doc  # the same Number to JavaScript: the text stays
    assert doc.set(["a"], 1.5).text == '{"a": 1.5}'
    assert doc.set(["a"], True).text == '{"a": true}'
    assert doc.set(["a"], math.inf).text == '{"a": Infinity}'


def test_edits_return_new_documents() -> None:
    doc = Json5Document.parse(COMMENTED)
    new = doc.set(["port"], 1)
    assert doc.text == COMMENTED and doc.value["port"] == 8080
    assert new.value["port"] == 1


def test_replace_whole_document() -> None:
    doc = Json5Document.parse("// c\n{a: 1}\n")
    assert doc.set([], {"b": 2}).text == '// c\n{\n  b: 2\n}\n'


def test_edit_errors_name_the_path() -> None:
    doc = Json5Document.parse('{"a": {"b": 1}, "l": [1, 2]}')
    with pytest.raises(VoraError) as e:
        doc.unset(["a", "x"])
    assert e.value.code == "not_found" and "a.x" in e.value.message
    with pytest.raises(VoraError) as e:
        doc.set(["a", "b", "c"], 1)
    assert e.value.code == "invalid" and "a.b" in e.value.message
    with pytest.raises(VoraError) as e:
        doc.set(["l", 5], 1)
    assert e.value.code == "not_found" and "l[5]" in e.value.message
    with pytest.raises(VoraError) as e:
        doc.unset(["l", 2])
    assert e.value.code == "not_found"
    with pytest.raises(VoraError) as e:
        doc.set(["l", "x"], 1)
    assert e.value.code == "invalid"
    with pytest.raises(VoraError) as e:
        doc.set(["a"], object())
    assert e.value.code == "invalid"


def test_get_node_position() -> None:
    doc = Json5Document.parse(COMMENTED)
    assert doc.get_node_position(["agents"]) == (4, 3)
    assert doc.get_node_position(["agents", "defaults", "maxTokens"]) == (7, 7)
    assert doc.get_node_position(["nope"]) is None
    assert doc.get_node_position([]) == (2, 1)
    crlf = Json5Document.parse('\ufeff{"l": [10,\r\n 20]}')
    assert crlf.get_node_position(["l", 1]) == (2, 2)
    assert crlf.get_node_position(["l"]) == (1, 2)


def test_require_object() -> None:
    assert require_object(Json5Document.parse("{a: 1}").value, "f") == {"a": 1}
    assert require_object({"a": 1}, "f") == {"a": 1}
    with pytest.raises(VoraError) as e:
        require_object(loads("[1]"), "vora.json")
    assert e.value.code == "invalid" and "vora.json" in e.value.message


def test_dumps_json() -> None:
    assert dumps_json({"a": [1, math.inf, -math.inf], "é": None}) == '{"a": [1, Infinity, -Infinity], "é": null}'
    assert dumps_json({"a": 1}, "  ") == '{\n  "a": 1\n}'
    assert math.isnan(loads(dumps_json(math.nan)))


# ---------------------------------------------------------------------------------------------
# Parsing


def test_full_json5_syntax() -> None:
    src = (
        "\ufeff// c\r\n{\r\n  $include: './x.json5', ключ: 1, _a1: 2,\r\n"
        "  s: 'it\\'s \\x41\\u00e9 \\ud83d\\ude00 \\0 a\\\r\nb \\q',\r\n"
        "  d: \"tab\\tnl\\n\\v\\/\", hex: 0x1F, nhex: -0xff, lead: .5, trail: 5., plus: +1, e: 1e3,\r\n"
        "  inf: Infinity, ninf: -Infinity, nan: NaN, t: true, f: false, n: null,\r\n"
        "  arr: [1, [2, {}], ],\r\n}\r\n"
    )
    v = loads(src)
    assert v["$include"] == "./x.json5" and v["ключ"] == 1 and v["_a1"] == 2
    assert v["s"] == "it's Aé \U0001f600 \0 ab q"
    assert v["d"] == "tab\tnl\n\v/"
    assert (v["hex"], v["nhex"], v["lead"], v["trail"], v["plus"], v["e"]) == (31, -255, 0.5, 5.0, 1, 1000.0)
    assert type(v["hex"]) is int and type(v["e"]) is float and type(v["trail"]) is float
    assert v["inf"] == math.inf and v["ninf"] == -math.inf and math.isnan(v["nan"])
    assert (v["t"], v["f"], v["n"]) == (True, False, None)
    assert v["arr"] == [1, [2, {}]]
    assert list(v) == list(json5.loads(src))
    assert Json5Document.parse(src).text == src


def test_identifier_key_escapes_and_top_level_scalars() -> None:
    assert loads("{\\u0061b: 1}") == {"ab": 1}
    assert loads("  42 // answer") == 42
    assert loads("'x'") == "x"
    assert loads("[]") == []


def _parse_error(text: str) -> str:
    with pytest.raises(VoraError) as e:
        loads(text, filename="vora.json")
    assert e.value.code == "parse_error"
    assert e.value.hint
    return e.value.message


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ('{\n  a: "abc\n}', "2:6", "unterminated string"),
        ("{\n  a: 'abc", "2:6", "unterminated string"),
        ("{\n  a: 1 /* never closed\n}", "2:8", "unterminated block comment"),
        ("{\n  a: {\n    b: 1,\n", "2:6", "unclosed object"),
        ("{a: [1, 2", "1:5", "unclosed array"),
        ('{\n  a: "x\\1"\n}', "2:8", "bad escape"),
        ('{a: "\\x4"}', "1:6", "bad escape"),
        ('{a: "\\u12"}', "1:6", "bad escape"),
        ("{a: 1} x", "1:8", "after the top-level value"),
        ("{a: 1}\n}", "2:1", "after the top-level value"),
        ("{a: \x001}", "1:5", "NUL"),
        ("", "1:1", "empty document"),
        ("  // only a comment\n", "2:1", "empty document"),
        (",", "1:1", "unexpected ','"),
        ("{,}", "1:2", "unexpected ','"),
        ("[1,,2]", "1:4", "unexpected ','"),
        ("{a 1}", "1:4", "expected ':'"),
        ("{a: 1 b: 2}", "1:7", "expected ',' or '}'"),
        ("{a: tru}", "1:5", "unexpected word 'tru'"),
        ("{a: 01}", "1:5", "invalid number"),
        ("{a: }", "1:5", "unexpected '}'"),
        ("\ufeff{a: @}", "1:5", "unexpected character '@'"),
    ],
)
def test_parse_errors_give_line_and_col(text: str, where: str, what: str) -> None:
    message = _parse_error(text)
    assert message.startswith(f"vora.json:{where}: "), message
    assert what in message
    assert re.search(r"\(found .*\)$", message), message


def test_parse_error_snippet() -> None:
    assert _parse_error("{a: 1} trailing stuff here\n").endswith("(found 'trailing stuff here')")


def test_big_document_parses() -> None:
    member = '  "key_{i}": {{"name": \'agent {i}\', "n": {i}, "tags": ["a", "b"]}}, // comment {i}\n'
    text = "{\n" + "".join(member.format(i=i) for i in range(40_000)) + "}\n"
    assert len(text) > 3_000_000
    doc = Json5Document.parse(text)
    assert len(doc.value) == 40_000
    assert doc.set(["key_5", "n"], 6).value["key_5"]["n"] == 6


# ---------------------------------------------------------------------------------------------
# Property-based: random JSON5 documents in random styles, random edits.

_KEYS = st.sampled_from(["a", "b", "port", "$include", "my.key", "with space", "ключ", "x-y", "q'uote", 'd"q', "_1"])
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=False, allow_infinity=True, width=64),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=8),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=12,
)
_DOCS = st.dictionaries(_KEYS, _VALUES, max_size=5)
_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")


class _Renderer:
    """Render a value as JSON5 in a random style, tagging every comment uniquely."""

    def __init__(self, draw: Any) -> None:
        self.draw = draw
        self.unit = draw(st.sampled_from(["  ", "    ", "\t"]))
        self.eol = draw(st.sampled_from(["\n", "\r\n"]))
        self.trailing = draw(st.booleans())
        self.count = 0

    def comment(self, line: bool) -> str:
        self.count += 1
        return f"// c{self.count}" if line else f"/* c{self.count} */"

    def maybe(self) -> bool:
        return bool(self.draw(st.integers(0, 3)) == 0)

    def scalar(self, v: Any) -> str:
        if isinstance(v, str):
            if self.maybe() and "\n" not in v and "\r" not in v and "'" not in v and "\\" not in v and "\u2028" not in v and "\u2029" not in v:
                return f"'{v}'"
            return dumps_json(v)
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0 and self.maybe():
            return hex(v)
        return dumps_json(v)

    def key(self, k: str) -> str:
        style = self.draw(st.integers(0, 2))
        if style == 0 and _IDENT.match(k):
            return k
        if style == 1 and "'" not in k and "\\" not in k:
            return f"'{k}'"
        return dumps_json(k)

    def render(self, v: Any, indent: str) -> str:
        if isinstance(v, dict | list):
            items = list(v.items()) if isinstance(v, dict) else [(None, x) for x in v]
            open_, close = ("{", "}") if isinstance(v, dict) else ("[", "]")
            if not items:
                return open_ + close
            inner = indent + self.unit
            lines = [open_]
            for i, (k, x) in enumerate(items):
                head = ""
                if self.maybe():
                    lines.append(inner + self.comment(line=self.maybe()))
                if self.maybe():
                    head = self.comment(line=False) + " "
                prefix = "" if k is None else self.key(k) + ": "
                comma = "," if i < len(items) - 1 or self.trailing else ""
                tail = (" " + self.comment(line=self.maybe())) if self.maybe() else ""
                lines.append(inner + head + prefix + self.render(x, inner) + comma + tail)
            lines.append(indent + close)
            return self.eol.join(lines)
        return self.scalar(v)


@st.composite
def _documents(draw: Any) -> tuple[str, Any, int]:
    value = draw(_DOCS)
    r = _Renderer(draw)
    text = r.render(value, "")
    if draw(st.booleans()):
        text = r.comment(line=True) + r.eol + text
    if draw(st.booleans()):
        text += r.eol
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text, value, r.count


def _eq(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_eq(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _paths(v: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    out = []
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else []
    for k, x in items:
        out.append((*prefix, k))
        out.extend(_paths(x, (*prefix, k)))
    return out


def _comments(text: str) -> set[str]:
    """The generated comments' names (`// c3`, `/* c3 */`), not a `c3` that a string's escape holds
    (`"\\u001c3"`, a control character the editor escapes)."""
    return set(re.findall(r"(?://|/\*) (c\d+)\b", text))


_FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow  # 150 documents through the pure-Python json5 package: over 2 s
@_FAST
@given(_documents())
def test_random_documents_parse_like_the_json5_package(doc: tuple[str, Any, int]) -> None:
    text, value, _ = doc
    assert _eq(loads(text), value)
    assert _eq(loads(text), json5.loads(text))


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@_FAST
@given(_documents(), st.data())
def test_random_edits_are_exact_and_keep_comments(doc: tuple[str, Any, int], data: Any) -> None:
    text, value, _ = doc
    d = Json5Document.parse(text)
    paths = _paths(value)
    before = _comments(text)
    op = data.draw(st.sampled_from(["set", "insert", "unset", "noop"]))
    if op == "insert" or not paths:
        parent = data.draw(st.sampled_from([(), *[p for p in paths if isinstance(_get(value, p), dict)]]))
        key = data.draw(_KEYS.filter(lambda k: k not in _get(value, parent)))
        new_value = data.draw(_VALUES)
        out = d.set((*parent, key), new_value)
        expected = _get(out.value, parent)
        assert list(expected)[-1] == key
        assert _eq(expected[key], new_value)
        assert _comments(out.text) == before
        return
    path = data.draw(st.sampled_from(paths))
    if op == "noop":
        assert d.set(path, _get(value, path)).text == text
        return
    if op == "set":
        new_value = data.draw(_VALUES)
        out = d.set(path, new_value)
        if same_value(_get(value, path), new_value):  # 0.0 and 0 are one number to JavaScript: no change
            assert out.text == text
            return
        assert _eq(_get(out.value, path), new_value)
        kept = before - _comments(_value_text(d, path))
        assert kept <= _comments(out.text)
        return
    out = d.unset(path)
    parent = _get(out.value, path[:-1])
    old_parent = _get(value, path[:-1])
    assert len(parent) == len(old_parent) - 1
    # comments that went away were inside the removed member or on its own line
    gone = before - _comments(out.text)
    assert gone <= _comments(_member_lines(d, path))


def _get(v: Any, path: tuple[str | int, ...]) -> Any:
    for seg in path:
        v = v[seg]
    return v


def _member(d: Json5Document, path: tuple[str | int, ...]) -> Any:
    chain = d._walk(path)
    assert len(chain) == len(path) + 1
    return chain[-1][1]


def _value_text(d: Json5Document, path: tuple[str | int, ...]) -> str:
    m = _member(d, path)
    return d.text[m.vstart : m.vend]


def _member_lines(d: Json5Document, path: tuple[str | int, ...]) -> str:
    m = _member(d, path)
    start = d.text.rfind("\n", 0, m.kstart) + 1
    end = d.text.find("\n", m.comma if m.comma >= 0 else m.vend)
    return d.text[start : end if end >= 0 else len(d.text)]


@pytest.mark.parametrize("eol", ["\n", "\r", "\r\n", "\u2028", "\u2029"])
@pytest.mark.parametrize("text", [
    "{{\ny: 1 // c{eol}}}",
    "{{\ny: 1, /* b */ // c{eol}}}",
    '{{"": "", //{eol}z: [] //{eol}}}',
    "{{\n  a: 1, // c{eol}  b: 2 // d{eol}}}",
])
def test_a_line_comment_ends_at_every_json5_line_terminator_when_editing(text: str, eol: str) -> None:
    """A line comment ends at \\n, \\r, U+2028 or U+2029: an insert after it or a removal of its
    member must not take the closing brace into the comment (it did for U+2028 and U+2029)."""
    doc = Json5Document.parse(text.format(eol=eol))
    inserted = doc.set(("new",), 1)
    assert loads(inserted.text) == {**doc.value, "new": 1}
    for key in doc.value:
        removed = doc.unset((key,))
        assert loads(removed.text) == {k: v for k, v in doc.value.items() if k != key}
