"""Issue 12, point 6: every string below a secret-named key stays hidden, at any depth, in every
command and output mode (config get/set/unset/patch/validate, doctor, context, plugins inspect).

Issue 12, point 7: a parse error never quotes a secret, in any command that loads the config.

The parser's own rule (what it hides, and where) is held in `tests/core/json5/test_json5_parse_errors.py`;
here every command shows the error with the excerpt hidden.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from config_support import SECRET, SHAPES
from conftest import Run
from plugins_support import make_plugin

CONFIG = """// secrets in every shape
{
  gateway: { mode: "local", auth: { mode: "token", token: "gw-token-0001" } },
  channels: { slack: { botTokens: { main: "xoxb-main-0002", backup: "xoxb-backup-0003" } } },
  apiKeys: ["sk-array-0004", "sk-array-0005"],
  providers: { openai: { apiKeys: [{ id: "primary", value: "sk-objarr-0006" }] } },
  http: {
    headers: { "x-api-key": "hdr-xapikey-0007", Authorization: "Bearer hdr-auth-0008", Cookie: "s=hdr-cookie-0009" },
  },
  env: { OPENAI_API_KEY: "env-openai-0010" },
  plugins: {
    entries: { "my-engine": { enabled: true, config: { privateKey: "pk-plugin-0011", label: "visible-label" } } },
    installs: { "my-engine": { source: "path", spec: "./my-engine", authToken: "inst-token-0014" } },
  },
}
"""
SECRETS = ["gw-token-0001", "xoxb-main-0002", "xoxb-backup-0003", "sk-array-0004", "sk-array-0005",
           "sk-objarr-0006", "hdr-xapikey-0007", "hdr-auth-0008", "hdr-cookie-0009", "env-openai-0010",
           "pk-plugin-0011", "inst-token-0014"]
NEW_SECRETS = ["xoxb-new-0012", "hdr-new-0013"]

# Parent paths and exact paths, one per shape: nested object, array, array of objects, header map.
GET_PATHS = [
    None, "channels", "channels.slack", "channels.slack.botTokens", "channels.slack.botTokens.main",
    "apiKeys", "apiKeys[0]", "apiKeys.1", "providers.openai", "providers.openai.apiKeys[0]",
    "providers.openai.apiKeys[0].value", "http", "http.headers", "http.headers.x-api-key",
    "http.headers.Authorization", "http.headers.Cookie", "env", "env.OPENAI_API_KEY",
    "plugins.entries.my-engine.config", "plugins.installs", "gateway.auth",
]


@pytest.fixture
def state(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text(CONFIG)
    os.chmod(state_dir / "vora.json", 0o600)
    make_plugin(state_dir / "extensions" / "my-engine")
    return state_dir


def assert_hidden(run: Run, *extra: str) -> None:
    shown = run.stdout + run.stderr
    for secret in (*SECRETS, *extra):
        assert secret not in shown, (secret, shown)


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["human", "json"])
@pytest.mark.parametrize("path", GET_PATHS, ids=lambda p: p or "<root>")
def test_config_get_hides_secrets_for_parent_and_exact_paths(state: Path, vora, path: str | None,
                                                             mode: tuple[str, ...]) -> None:
    run = vora("config", "get", *([path] if path else []), *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)
    assert "<redacted>" in run.stdout


@pytest.mark.parametrize("path, value", [
    ("channels.slack.botTokens.main", "<redacted>"),
    ("apiKeys", ["<redacted>", "<redacted>"]),
    ("providers.openai.apiKeys[0]", {"id": "<redacted>", "value": "<redacted>"}),
    ("http.headers", {"x-api-key": "<redacted>", "Authorization": "<redacted>", "Cookie": "<redacted>"}),
    ("plugins.entries.my-engine.config", {"privateKey": "<redacted>", "label": "visible-label"}),
    ("gateway.auth", {"mode": "token", "token": "<redacted>"}),
])
def test_config_get_json_values(state: Path, vora, path: str, value: object) -> None:
    assert vora("config", "get", path, "--json").json() == {"key": path, "value": value, "source": "file"}


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["human", "json"])
@pytest.mark.parametrize(("pasted", "path"), [
    ('bind: "gw-token-0001"', "gateway.bind"),  # a token pasted in the wrong field
    ('customBindHost: "host gw-token-0001 and more"', "gateway"),  # inside a longer text
    ('trustedProxies: ["10.0.0.1", "xoxb-main-0002"]', "gateway.trustedProxies"),
    ('bind: "env-openai-0010"', None),  # the whole config
])
def test_config_get_hides_a_known_secret_under_a_key_that_names_none(state: Path, vora, pasted: str,
                                                                   path: str | None, mode: tuple[str, ...]) -> None:
    config = state / "vora.json"
    config.write_text(config.read_text().replace('gateway: { mode: "local",', f'gateway: {{ mode: "local", {pasted},'))
    result = vora("--state-dir", str(state), "config", "get", *([path] if path else []), *mode)
    assert result.exit_code == 0, result.stderr
    assert "<redacted>" in result.stdout
    for secret in ("gw-token-0001", "xoxb-main-0002", "env-openai-0010"):
        assert secret not in result.stdout + result.stderr
    shown = vora("--state-dir", str(state), "config", "get", "gateway.mode").stdout
    assert shown == "local\n"  # a value that is no secret is shown as it is


def test_a_short_secret_does_not_hide_ordinary_values(state_dir: Path, vora, monkeypatch) -> None:
    """Data a script reads stays right: a password `vora` or a `FOO_TOKEN=local` is no reason to
    show `~/.<redacted>/workspace` or `mode: <redacted>`."""
    (state_dir / "vora.json").write_text('{ gateway: { mode: "local", auth: { mode: "password", password: "vora" } },'
                                         ' agents: { defaults: { workspace: "~/.vora/workspace" } } }')
    monkeypatch.setenv("FOO_TOKEN", "local")
    assert vora("config", "get", "gateway.mode").stdout == "local\n"
    assert vora("config", "get", "agents.defaults.workspace").stdout == "~/.vora/workspace\n"
    assert vora("config", "get", "gateway.auth.password").stdout == "<redacted>\n"


def test_config_get_reveal_shows_them(state: Path, vora) -> None:
    assert vora("config", "get", "channels.slack.botTokens.main", "--reveal").stdout == "xoxb-main-0002\n"
    assert vora("config", "get", "apiKeys[0]", "--reveal").stdout == "sk-array-0004\n"
    assert "hdr-xapikey-0007" in vora("config", "get", "http.headers", "--reveal", "--json").stdout


WRITES = [
    ("config", "set", "channels.slack.botTokens.main", "xoxb-new-0012"),
    ("config", "set", "http.headers.x-api-key", "hdr-new-0013"),
    ("config", "set", "apiKeys[0]", "xoxb-new-0012"),
    ("config", "set", "providers.openai.apiKeys[0]", '{id: "primary", value: "xoxb-new-0012"}'),
    ("config", "set", "channels.slack.botTokens", '{main: "xoxb-new-0012"}'),
    ("config", "unset", "apiKeys[1]"),
    ("config", "unset", "channels.slack.botTokens"),
    ("config", "unset", "http.headers"),
]


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",), ("--dry-run", "--json")],
                         ids=["human", "json", "dry-run", "dry-run-json"])
@pytest.mark.parametrize("args", WRITES, ids=lambda a: " ".join(a[1:3]))
def test_writes_hide_old_and_new_secrets(state: Path, vora, args: tuple[str, ...], mode: tuple[str, ...]) -> None:
    run = vora(*args, *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run, *NEW_SECRETS)
    assert "<redacted>" in run.stdout + run.stderr


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",), ("--dry-run", "--json")],
                         ids=["human", "json", "dry-run", "dry-run-json"])
def test_patch_hides_secrets(state: Path, vora, mode: tuple[str, ...]) -> None:
    patch = '{http: {headers: {"x-api-key": "hdr-new-0013"}}, apiKeys: null, channels: {slack: {botTokens: null}}}'
    run = vora("config", "patch", "-", *mode, input=patch)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run, *NEW_SECRETS)


def test_a_real_write_lands_the_secret_it_hides(state: Path, vora) -> None:
    run = vora("config", "set", "channels.slack.botTokens.main", "xoxb-new-0012")
    assert run.stdout == "Updated channels.slack.botTokens.main: <redacted> -> <redacted>\n"
    assert 'main: "xoxb-new-0012"' in (state / "vora.json").read_text()


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["human", "json"])
def test_validate_hides_secrets(state: Path, vora, mode: tuple[str, ...]) -> None:
    config = state / "vora.json"
    config.write_text(CONFIG.replace('mode: "local"', 'mode: "local", port: "xoxb-notaport-0015"')
                      .replace('token: "gw-token-0001"', "token: 1234567890123"))
    run = vora("config", "validate", "--strict", *mode)
    assert run.exit_code == 1
    assert_hidden(run, "1234567890123")
    assert "gateway.port" in run.stdout  # reported, in the gateway's words (which quote no value)


@pytest.mark.parametrize("mode", [(), ("--json",), ("--verbose",), ("--format", "github"), ("--format", "junit"),
                                  ("--format", "sarif")], ids=["human", "json", "verbose", "github", "junit", "sarif"])
def test_doctor_hides_secrets(state: Path, vora, mode: tuple[str, ...]) -> None:
    os.chmod(state / "vora.json", 0o644)  # config-secrets then names what it found
    run = vora("doctor", *mode)
    assert_hidden(run)


def test_doctor_lists_the_secret_paths_it_found(state: Path, vora) -> None:
    os.chmod(state / "vora.json", 0o644)
    doc = vora("doctor", "--json", "--only", "config-secrets").json()
    paths = doc["checks"][0]["evidence"]["config"]
    for path in ("channels.slack.botTokens.main", "apiKeys[0]", "providers.openai.apiKeys[0].value",
                 "http.headers.x-api-key", "env.OPENAI_API_KEY"):
        assert path in paths


@pytest.mark.parametrize("args", [("context", "list"), ("context", "json"), ("plugins", "list", "--json"),
                                  ("plugins", "inspect", "my-engine"), ("plugins", "inspect", "my-engine", "--json")])
def test_other_readers_hide_secrets(state: Path, vora, args: tuple[str, ...]) -> None:
    run = vora(*args)
    assert_hidden(run)


def test_plugins_inspect_redacts_the_install_record(state: Path, vora) -> None:
    record = vora("plugins", "inspect", "my-engine", "--json").json()["install"]
    assert record == {"source": "path", "spec": "./my-engine", "authToken": "<redacted>"}


def test_the_json_of_every_get_parses(state: Path, vora) -> None:
    for path in GET_PATHS:
        json.loads(vora("config", "get", *([path] if path else []), "--json").stdout)


@pytest.mark.parametrize("path, value_type", [("gateway.auth.token", "integer"),
                                              ("channels.slack.botTokens.main", "boolean"),
                                              ("apiKeys[0]", "number"), ("http.headers.Cookie", "integer")])
def test_a_refused_value_for_a_secret_path_is_not_quoted(state: Path, vora, path: str, value_type: str) -> None:
    before = (state / "vora.json").read_bytes()
    run = vora("config", "set", path, "xoxb-new-0012", "--type", value_type)
    assert run.exit_code == 2
    assert "xoxb-new-0012" not in run.stdout + run.stderr
    assert "VALUE <redacted> is not" in run.stderr
    assert (state / "vora.json").read_bytes() == before


def test_a_refused_plain_value_is_still_quoted(state: Path, vora) -> None:
    run = vora("config", "set", "gateway.mode", "abc", "--type", "integer")
    assert run.exit_code == 2
    assert "VALUE 'abc' is not an integer" in run.stderr


COMMANDS = [
    ("config", "get"), ("config", "get", "gateway", "--json"), ("config", "set", "gateway.port", "1"),
    ("config", "set", "gateway.port", "1", "--json"), ("config", "unset", "gateway"), ("config", "validate"),
    ("config", "validate", "--json"), ("doctor",), ("doctor", "--json"), ("doctor", "--format", "sarif"),
    ("doctor", "--format", "github"), ("context", "list"),
    ("plugins", "list"), ("plugins", "list", "--json"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
@pytest.mark.parametrize("shape", ["unterminated string", "unquoted word", "in an array", "header map",
                                   "one line"])
def test_no_command_quotes_the_secret(state_dir: Path, vora, args: tuple[str, ...], shape: str) -> None:
    config = state_dir / "vora.json"
    config.write_text(SHAPES[shape])
    before = config.read_bytes()
    run = vora(*args)
    assert run.exit_code != 0
    shown = run.stdout + run.stderr
    assert SECRET[:6] not in shown
    assert "(found <redacted>)" in shown  # reported, the excerpt hidden
    assert config.read_bytes() == before


def test_doctor_shows_the_line_up_to_the_secret(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text(SHAPES["unterminated string"])
    doc = vora("doctor", "--json", "--only", "config-syntax").json()
    check = doc["checks"][0]
    assert check["details"][0] == '2 | gateway: { auth: { token: <redacted>'
    assert check["message"].endswith("(found <redacted>)")


# The gateway's well-known token shapes (core/secrets.TOKEN_SHAPES) under keys that name nothing,
# whole or inside a longer text: one sample of each shape, none of them the documented examples.
TOKENS = ["sk-ant-api03-Zq9wX2vB7nM4kL1p", "GHP_A1b2C3d4E5f6G7h8I9j0KlMnOpQr", "github_pat_11ABCDEFG0123456789_abcdefXYZ",
          "xoxp-2048-4096-8192-a1b2c3d4e5", "xapp-1-A0B1C2D3E4-99887766", "gsk_Qw3rTy8uIo2pAs5d",
          "AIzaSyB-9x8w7v6u5t4s3r2q1p0o9n8m7l", "pplx-7f6e5d4c3b2a1909", "npm_Zx8Cv7Bn6Mm5Ll4Kk3Jj"]
_VARS = "".join(f'    T{i}: "{token}",\n' if i % 2 else f'    T{i}: "use {token} for the tenant",\n'
                for i, token in enumerate(TOKENS[1:], 1))
TOKEN_CONFIG = ('{\n  gateway: { mode: "local" },\n  env: { vars: {\n' + _VARS + '  } },\n'
                f'  agents: {{ list: [{{ id: "main", args: ["serve", "{TOKENS[0]}"] }}] }},\n}}\n')


@pytest.fixture
def tokens(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text(TOKEN_CONFIG)
    return state_dir


@pytest.mark.parametrize("args", [
    ("config", "get"), ("config", "get", "--json"), ("config", "get", "env.vars"), ("config", "get", "env.vars.T1"),
    ("config", "get", "agents.list[0].args", "--json"), ("config", "get", "--json", "--query", "value.env"),
    ("config", "set", "env.vars.T2", TOKENS[2].replace("0", "7"), "--dry-run"),
    ("config", "set", "env.vars.T3", "plain", "--json"), ("config", "unset", "env.vars.T4"),
    ("config", "set", "gateway.mode", TOKENS[5]), ("config", "set", "gateway.mode", TOKENS[5], "--json"),
    ("config", "validate"), ("doctor",), ("doctor", "--json"), ("security", "audit"), ("security", "audit", "--json"),
    ("backup", "create", "--dry-run", "--json"),
], ids=lambda a: " ".join(a))
def test_well_known_tokens_under_neutral_keys_are_never_shown(tokens: Path, vora, args: tuple[str, ...]) -> None:
    run = vora(*args)
    shown = run.stdout + run.stderr
    for token in (*TOKENS, TOKENS[2].replace("0", "7")):
        assert token not in shown and token.lower() not in shown.lower(), (token, shown)


def test_the_audit_and_doctor_count_them_as_plain_text_secrets(tokens: Path, vora) -> None:
    keys = {f["key"] for f in vora("security", "audit", "--json").json()["findings"] if f["id"] == "plaintext-secrets"}
    assert keys == {f"env.vars.T{i}" for i in range(1, len(TOKENS))} | {"agents.list[0].args[1]"}
    os.chmod(tokens / "vora.json", 0o644)
    doc = vora("doctor", "--json", "--only", "config-secrets").json()
    assert set(doc["checks"][0]["evidence"]["config"]) == keys


def test_a_token_beside_other_scripts_is_hidden_and_a_path_word_is_shown(state_dir: Path, vora) -> None:
    """`\\b` as JavaScript reads it (ASCII): a token right after 汉字 or é is a token; a path word
    that starts like one (`/srv/sk-workspace-main`) is the path's, shown whole to a script."""
    token = "sk-proj-AAAABBBBCCCC1234"
    (state_dir / "vora.json").write_text(
        f'{{ env: {{ vars: {{ A: "我的密钥是{token}谢谢", B: "tokené{token}" }} }},\n'
        + '  agents: { defaults: { workspace: "/srv/sk-workspace-main/agent" } } }\n')
    shown = vora("config", "get", "--json").stdout + vora("config", "get").stdout
    assert token not in shown
    assert vora("config", "get", "agents.defaults.workspace").stdout == "/srv/sk-workspace-main/agent\n"
