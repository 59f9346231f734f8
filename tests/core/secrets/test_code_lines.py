"""A line of code as a code scan quotes it (docs/secrets.md, "Code"): what only names a secret (an
environment variable's name, a property chain, a call) is shown; every credential the line holds
(by name, by shape, a value the install holds) is hidden, as in any text."""

from __future__ import annotations

import pytest
from hang_guard import cpu_hang_guard
from hypothesis import given, settings
from hypothesis import strategies as st

from vora_cli.core.code_names import code_reference_spans
from vora_cli.core.gateway.shown import Masker

# Lines that name secrets and hold none: shown as they are.
NAMES_ONLY = [
    "apiKey: opts.apiKey ?? process.env['GEMINI_API_KEY'] ?? null",
    "[opts.apiKey=process.env['GEMINI_API_KEY']] ?? null]",
    "const apiKey = opts.apiKey ?? process.env.GEMINI_API_KEY ?? null;",
    'const key = process.env["OPENAI_API_KEY"];',
    "const key = process.env?.['OPENAI_API_KEY'] ?? fallback;",
    "const key = process.env?.OPENAI_API_KEY;",
    "const key = process.env[name];",
    "token: env.SLACK_BOT_TOKEN,",
    "token: this.config.auth.token,",
    "const token = getEnv('GITHUB_TOKEN');",
    'const secret = os.environ["CLIENT_SECRET"]',
    "const secret = Deno.env.get('CLIENT_SECRET')",
    "const token = requireEnv('GITHUB_TOKEN_2');",
    "const key = config.get('OPENAI_API_KEY');",
    "const secret = import.meta.env.VITE_CLIENT_SECRET",
    "API_KEY=process.env.GEMINI_API_KEY",
    "--api-key $GEMINI_API_KEY",
    "--api-key ${GEMINI_API_KEY}",
    "fetch(url, {headers: {'x-api-key': process.env.ANTHROPIC_API_KEY}})",
    "headers: { Authorization: `Bearer ${process.env.API_TOKEN}` }",
    "headers: { Authorization: `Bearer ${opts.token}` }",
    "token: process.env.BOT_TOKEN ?? undefined,",
    "export ANTHROPIC_API_KEY=$ANTHROPIC_API_KEY",
    "client = new Client({ apiKey: config.providers.openai.apiKey });",
]

# (line, what must not show): literals after a secret name, token shapes, whatever names are near.
SECRETS = [
    ("const apiKey = 'sk-abcdefghijklmnopqrstuvwxyz012345';", "sk-abcdefghijklmnopqrstuvwxyz012345"),
    ('apiKey: "AIzaSyA1234567890abcdefghijklmnopqrstuv",', "AIzaSyA1234567890abcdefghijklmnopqrstuv"),
    ("const token = 'plainsecretvalue';", "plainsecretvalue"),
    ("password: 'abc.defGhi'", "abc.defGhi"),  # a chain inside a literal is the literal's
    ('password: "x-ABC_DEF"', "ABC_DEF"),  # a name inside a literal too
    ("password: process.env['DB_PASSWORD'] || 'hunter2hunter2'", "hunter2hunter2"),
    ("token: process.env.BOT_TOKEN ?? '123456789:AAbbccddeeffgghhiijjkkllmmnnooppqq'",
     "AAbbccddeeffgghhiijjkkllmmnnooppqq"),
    ("const gh = process.env.GH_TOKEN || 'ghp_abcdefghijklmnopqrstuvwxyz0123'", "ghp_abcdefghijklmnopqrst"),
    ("token: process.env.ghp_abcdefghijklmnopqrstuvwxyz0123", "ghp_abcdefghijklmnopqrst"),  # a shape in a chain
    ("slack: { botToken: env.SLACK_BOT_TOKEN || 'xoxb-1234567890-abcdefghij' }", "xoxb-1234567890-abcdefghij"),
    ("// token: eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBhc3RlZC10b2tlbg.q1w2e3r4t5y6", "eyJhbGciOiJIUzI1NiJ9"),
    ("headers: { Authorization: `Bearer ${apiKeyValue123456}` }", "apiKeyValue123456"),
    ("auth: { password: `p4ss-${process.env.SUFFIX}` }", "p4ss"),
    ("fetch(u, { headers: { Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz0123' } })", "abcdefghijklmnopqrstu"),
    ("token: $abc123def456ghi789", "abc123def456ghi789"),
    ("API_TOKEN=ABCDEF123456_XYZ", "ABCDEF123456"),  # a name shaped like a token is no name
    ('{"apiKey": "realSecretValue", "env": "GEMINI_API_KEY"}', "realSecretValue"),
    ("export OPENAI_API_KEY=sk-proj-abcdefghijklmnop", "sk-proj-abcdefghijklmnop"),
    # a literal in a value's place is the value, however much it looks like a variable's name
    ('const apiKey = "A1B2C3D4_E5F6G7H8_I9J0K1L2";', "A1B2C3D4_E5F6G7H8_I9J0K1L2"),
    ("password: 'P4SSW0RD_2024',", "P4SSW0RD_2024"),
    ("const token = 'HUNTER2_HUNTER2';", "HUNTER2_HUNTER2"),
    ("apiKey: 'GEMINI_API_KEY',", "GEMINI_API_KEY"),
    # handed to a call that is no getter: a value
    ('const key = Buffer.from("HUNTER2_HUNTER2");', "HUNTER2_HUNTER2"),
    ("const token = client.login('P4SSW0RD_2024');", "P4SSW0RD_2024"),
    ('const secret = new Secret("HUNTER2_HUNTER2");', "HUNTER2_HUNTER2"),
    ('const apiKey = getKey("A1B2C3D4_E5F6G7H8");', "A1B2C3D4_E5F6G7H8"),
    # a fallback literal is the value
    ('const apiKey = process.env.API_KEY || "d8e8fca2dc0f896fd7cb4cb0031ba249";', "d8e8fca2dc0f896fd7cb4cb0031ba249"),
    ("token: opts.token ?? 'HUNTER2_HUNTER2',", "HUNTER2_HUNTER2"),
    # mostly digits: no variable's name
    ("// apiKey: A1B2C3D4_E5F6G7H8 (staging)", "A1B2C3D4_E5F6G7H8"),
    ('{"apiKey": "GEMINI_API_KEY", "token": "SLACK_BOT_TOKEN"}', "SLACK_BOT_TOKEN"),
]

# One token of each shape the gateway's patterns know, beside names that look like keys.
TOKENS = ["sk-abcdefghijklmnopqrst", "ghp_abcdefghijklmnopqrstuvwxyz0123", "github_pat_abcdefghij0123456789ab",
          "xoxb-1234567890-abcdef", "xapp-1-abcdefghij", "gsk_abcdefghij012345", "AIzaSyA1234567890abcdefghijk",
          "pplx-abcdefghij012345", "npm_abcdefghij012345", "123456789:AAbbccddeeffgghhiijjkkllmm"]


@pytest.mark.parametrize("token", TOKENS)
@pytest.mark.parametrize("form", [
    "const apiKey = process.env.OPENAI_API_KEY ?? '{t}';", "x = {{ token: process.env['BOT_TOKEN'] || \"{t}\" }}",
    "const SECRET_NAME = '{t}';", "fetch(u, {{ headers: {{ 'x-api-key': `{t}` }} }})", "process.env.{t}",
    "// GEMINI_API_KEY={t}",
])
def test_each_token_shape_stays_hidden_beside_names(form: str, token: str) -> None:
    shown = Masker().code(form.format(t=token))
    assert token not in shown and "<redacted>" in shown


@pytest.mark.parametrize("line", NAMES_ONLY)
def test_a_line_that_only_names_secrets_is_shown_whole(line: str) -> None:
    assert Masker().code(line) == line


@pytest.mark.parametrize(("line", "secret"), SECRETS)
def test_a_credential_in_a_line_of_code_stays_hidden(line: str, secret: str) -> None:
    shown = Masker().code(line)
    assert secret not in shown and "<redacted>" in shown
    assert "<<" not in shown and ">>" not in shown  # hidden once


def test_the_names_around_a_hidden_literal_stay_shown() -> None:
    assert Masker().code("password: process.env['DB_PASSWORD'] || 'hunter2hunter2'") == \
        "password: process.env['DB_PASSWORD'] || '<redacted>'"
    assert Masker().code("auth: { password: `p4ss-${process.env.SUFFIX}` }") == \
        "auth: { password: `<redacted>${process.env.SUFFIX}` }"


def test_a_value_the_install_holds_is_hidden_even_where_it_reads_as_a_name() -> None:
    masker = Masker(["FEISHU_ENCRYPT_KEY_VALUE", "plain.chain.value"])
    assert masker.code("const k = 'FEISHU_ENCRYPT_KEY_VALUE'; const c = plain.chain.value;") == \
        "const k = '<redacted>'; const c = <redacted>;"


@given(st.text(alphabet="abcXYZ_019.$'\"`[]{}()?:=|& \\-/+", max_size=80))
@settings(max_examples=300, deadline=None)
def test_code_hides_at_least_what_a_secret_value_rule_hides(line: str) -> None:
    """Whatever the line, a known secret value in it never shows, and every kept range is inside it."""
    secret = "Zq9Zq9Zq9Zq9"
    text = f"token: '{secret}' {line} password: {secret}"
    assert secret not in Masker([secret]).code(text)
    for start, end in code_reference_spans(line):
        assert 0 <= start < end <= len(line)


@pytest.mark.parametrize("line", [
    "a." * 125_000, "process.env[" * 25_000, "'" + "A_" * 125_000, "`${a.b}" * 37_500, "x.y " * 62_500,
    "f(" * 125_000, "getEnv('AB_CD') " * 16_000,
], ids=["chain", "brackets", "open-name", "substitutions", "chains", "calls", "lookups"])
def test_linear_on_a_long_line(line: str) -> None:
    """A scan quotes 120 characters of a line; the rule itself holds on a line of any length (after
    `password:`, whose value runs to the line's end, so every name on it is looked at). The lines are
    long enough that a pattern searched through the line so far at each token runs past the hang
    guard; the linear rule takes a small part of it."""
    with cpu_hang_guard("Masker.code on a long line"):
        shown = Masker().code("password: " + line)
    assert shown.startswith("password: ")
