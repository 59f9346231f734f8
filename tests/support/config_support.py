"""Data tables the config tests share between the core tests (tests/core/config, tests/core/json5)
and the `vora config` tests (tests/cli): RFC 7386's examples and the parse-error shapes with a secret."""

from __future__ import annotations

import hashlib
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


def real_shaped_config(agents: int, entries: int, bindings: int, providers: int = 0) -> str:
    """A `vora.json` of the shape a big install writes (issue 35, point 3): `agents` agents in
    `agents.list`, `entries` plugin entries and `bindings` channel bindings, one member a line,
    2-space indented, commented. Every plugin entry names a plugin that is not installed, so each
    is a problem (`validate` and `doctor` name each one, with its line). The gateway's schema
    accepts the rest. 12,000 / 12,000 / 8,000 make about 1.8 MB (the bench's case at the limit);
    the tests compare n with 4n. `providers`: model providers of a multi-tenant install, each with
    secrets of its own (an `apiKey`, a password in its `baseUrl`, a header), none alike."""
    lines = [
        "// vora.json of a big install: one agent per customer, one binding per chat",
        "{",
        '  gateway: { port: 18789, bind: "loopback", auth: { mode: "token", token: "gw-token-0123456789abcdef" } },',
        "  agents: {",
        '    defaults: { workspace: "~/agents", model: { primary: "anthropic/claude-sonnet-4-5" } },',
        "    list: [",
    ]
    for i in range(agents):
        default = ", default: true" if i == 0 else ""
        lines.append(f'      {{ id: "a{i:05d}", name: "Agent {i}"{default} }},')
    lines += ["    ],", "  },", "  bindings: ["]
    for i in range(bindings):
        lines.append(f'    {{ agentId: "a{i % max(agents, 1):05d}", match: {{ channel: "telegram", '
                     f'peer: {{ kind: "direct", id: "{100000 + i}" }} }} }},')
    lines += ["  ],", "  plugins: {", "    entries: {"]
    for i in range(entries):
        lines.append(f'      "p{i:05d}": {{ enabled: {"true" if i % 3 else "false"}, config: {{ level: {i % 7} }} }},')
    lines += ["    },", "  },"]
    if providers:
        lines.append("  models: { providers: {")
        for i in range(providers):
            key = hashlib.sha256(b"%d" % i).hexdigest()
            lines.append(f'    "p{i:05d}": {{ baseUrl: "https://tenant:{key[:24]}@h{i}.example/v1", apiKey: "{key[24:48]}", '
                         f'headers: {{ "X-Tenant": "{key[48:]}" }}, api: "openai-completions", models: [] }},')
        lines.append("  } },")
    lines += ["}", ""]
    return "\n".join(lines)
