"""Data tables the config tests share between the core tests (tests/core/config, tests/core/json5)
and the `vora config` tests (tests/cli): RFC 7386's examples and the parse-error shapes with a secret."""

from __future__ import annotations

from typing import Any

# RFC 7386, Appendix A: (original, patch, result), verbatim.
APPENDIX_A: list[tuple[Any, Any, Any]] = [
    ({"a": "b"}, {"a": "c"}, {"a": "c"}),
    ({"a": "b"}, {"b": "c"}, {"a": "b", "b": "c"}),
    ({"a": "b"}, {"a": None}, {}),
    ({"a": "b", "b": "c"}, {"a": None}, {"b": "c"}),
    ({"a": ["b"]}, {"a": "c"}, {"a": "c"}),
    ({"a": "c"}, {"a": ["b"]}, {"a": ["b"]}),
    ({"a": {"b": "c"}}, {"a": {"b": "d", "c": None}}, {"a": {"b": "d"}}),
    ({"a": [{"b": "c"}]}, {"a": [1]}, {"a": [1]}),
    (["a", "b"], ["c", "d"], ["c", "d"]),
    ({"a": "b"}, ["c"], ["c"]),
    ({"a": "foo"}, None, None),
    ({"a": "foo"}, "bar", "bar"),
    ({"e": None}, {"a": 1}, {"e": None, "a": 1}),
    ([1, 2], {"a": "b", "c": None}, {"a": "b"}),
    ({}, {"a": {"bb": {"ccc": None}}}, {"a": {"bb": {}}}),
]


OBJECT_ROWS = [row for row in APPENDIX_A if isinstance(row[0], dict) and isinstance(row[1], dict)]


OTHER_ROWS = [row for row in APPENDIX_A if row not in OBJECT_ROWS]


SECRET = "QmVhcmVyU2VjcmV0VmFsdWU"


# Malformed shapes, each with the secret's text where the parser stops.
SHAPES = {
    "unterminated string": '{\n  gateway: { auth: { token: "' + SECRET + '\n  } },\n}\n',
    "unterminated single-quoted": "{\n  apiKey: '" + SECRET + "\n}\n",
    "unquoted word": "{\n  channels: { slack: { botTokens: { main: " + SECRET + " } } },\n}\n",
    "unquoted with dashes": "{\n  apiKey: sk-" + SECRET + "-x,\n}\n",
    "in an array": '{\n  apiKeys: [\n    "ok-one",\n    "' + SECRET + '\n  ],\n}\n',
    "in an array of objects": '{\n  providers: [\n    { id: "a",\n      clientSecret: ' + SECRET + " },\n  ],\n}\n",
    "header map": '{\n  headers: {\n    "x-api-key": ' + SECRET + "$,\n  },\n}\n",
    "after a secret, no comma": '{\n  password: "a" ' + SECRET + "\n}\n",
    "bad escape in a secret": '{\n  cookie: "ab\\1' + SECRET + '",\n}\n',
    "one line": '{ gateway: { auth: { token: "' + SECRET + "\n",
    "secret after junk on one line": "{ a: @, token: \"" + SECRET + "\" }\n",  # the excerpt runs into it
}
