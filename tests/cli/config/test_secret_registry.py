"""Secrets the name rule cannot see stay hidden in every printer (issue 35, point 1).

Two kinds: the paths of the gateway's own secret-target registry (openclaw 2026.4.12, recorded in
tests/data/upstream/secret-targets-openclaw-2026.4.12.json; the core side is
tests/core/secrets/test_secret_registry.py), per account too, and values that say they are secrets
under keys that say nothing (a header map's `Basic …`, `GITHUB_TOKEN=…` in an env list, the element
after `--password`, a PEM key). The issue showed `encryptKey`, a service-account string,
`request.auth.value`, `tls.key`/`passphrase`, `Bearer` under `X-Custom` and `--api-key`; these are
the other members: per-account paths, a service account that is an object, proxy TLS, custom
headers, and the other shapes, through get, set/unset/patch/edit (reports, diffs, old/new),
validate, doctor, security audit, backup and errors.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import Run

CONFIG = """// secrets at paths whose names say nothing
{
  gateway: { port: 18789 },
  channels: {
    feishu: { accounts: { ops: { appId: "cli_a1", encryptKey: "fs-acct-enc-0001" } } },
    googlechat: {
      accounts: {
        team: { serviceAccount: { type: "service_account", client_email: "bot@p.iam", key_id: "gc-obj-0002" } },
      },
    },
  },
  models: {
    providers: {
      corp: {
        baseUrl: "https://llm.corp.example/v1",
        headers: { "X-Title": "hdr-title-0003" },
        request: {
          headers: { "X-Tenant": "hdr-tenant-0004" },
          proxy: { url: "http://proxy:3128", tls: { passphrase: "proxy-pp-0005", cert: "proxy-cert-0006" } },
        },
      },
    },
  },
  plugins: {
    entries: {
      mcp: {
        enabled: true,
        config: {
          command: "npx mcp-server --password mcp-pass-0007 --verbose",
          args: ["--port", "8080", "--hook-token", "hook-tok-0008", "-H", "Proxy-Authorization: Basic cHJveHk6MDAwOQ=="],
          env: ["GITHUB_TOKEN=ghtok-0010", "LOG_LEVEL=debug"],
          upstream: { auth: "Digest username=\\"ops\\", response=\\"dig-0011\\"" },
          sshKey: "-----BEGIN OPENSSH PRIVATE KEY-----\\nssh-body-0012\\n-----END OPENSSH PRIVATE KEY-----",
          label: "Token budget",
        },
      },
    },
  },
}
"""
SECRETS = ["fs-acct-enc-0001", "gc-obj-0002", "bot@p.iam", "hdr-title-0003", "hdr-tenant-0004", "proxy-pp-0005",
           "proxy-cert-0006", "mcp-pass-0007", "hook-tok-0008", "cHJveHk6MDAwOQ==", "ghtok-0010", "dig-0011",
           "ssh-body-0012"]
NEW = "new-secret-0099"

GET_PATHS = [
    None, "channels", "channels.feishu.accounts", "channels.feishu.accounts.ops.encryptKey",
    "channels.googlechat.accounts.team", "channels.googlechat.accounts.team.serviceAccount.client_email",
    "models", "models.providers.corp.headers", "models.providers.corp.request",
    "models.providers.corp.request.proxy.tls.passphrase", "plugins.entries.mcp", "plugins.entries.mcp.config.args",
    "plugins.entries.mcp.config.args[3]", "plugins.entries.mcp.config.args.5", "plugins.entries.mcp.config.env",
    "plugins.entries.mcp.config.command", "plugins.entries.mcp.config.upstream", "plugins.entries.mcp.config.sshKey",
]


@pytest.fixture
def state(state_dir: Path) -> Path:
    (state_dir / "vora.json").write_text(CONFIG)
    os.chmod(state_dir / "vora.json", 0o600)
    return state_dir


def assert_hidden(run: Run, *extra: str) -> None:
    shown = run.stdout + run.stderr
    for secret in (*SECRETS, *extra):
        assert secret not in shown, (secret, shown)


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["human", "json"])
@pytest.mark.parametrize("path", GET_PATHS, ids=lambda p: p or "<root>")
def test_config_get_hides_registry_paths_and_said_secrets(state: Path, vora, path: str | None,
                                                          mode: tuple[str, ...]) -> None:
    run = vora("config", "get", *([path] if path else []), *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)
    assert "<redacted>" in run.stdout


def test_config_get_json_keeps_what_says_nothing(state: Path, vora) -> None:
    config = vora("config", "get", "plugins.entries.mcp.config", "--json").json()["value"]
    assert config["command"] == "npx mcp-server --password <redacted> --verbose"
    assert config["args"] == ["--port", "8080", "--hook-token", "<redacted>", "-H", "Proxy-Authorization: <redacted>"]
    assert config["env"] == ["GITHUB_TOKEN=<redacted>", "LOG_LEVEL=debug"]
    assert config["upstream"] == {"auth": "Digest <redacted>"}
    assert config["sshKey"].startswith("-----BEGIN OPENSSH PRIVATE KEY-----<redacted>-----END")
    assert config["label"] == "Token budget"  # an everyday word after a scheme's name is no credential
    team = vora("config", "get", "channels.googlechat.accounts.team", "--json").json()["value"]
    assert team == {"serviceAccount": {"type": "<redacted>", "client_email": "<redacted>", "key_id": "<redacted>"}}
    assert vora("config", "get", "models.providers.corp.baseUrl").stdout == "https://llm.corp.example/v1\n"


def test_reveal_shows_them(state: Path, vora) -> None:
    assert vora("config", "get", "plugins.entries.mcp.config.args[3]", "--reveal").stdout == "hook-tok-0008\n"
    assert vora("config", "get", "channels.feishu.accounts.ops.encryptKey", "--reveal").stdout == "fs-acct-enc-0001\n"


WRITES = [
    ("config", "set", "channels.feishu.accounts.ops.encryptKey", NEW),
    ("config", "set", "models.providers.corp.request.proxy.tls.passphrase", NEW),
    ("config", "set", "models.providers.corp.headers.X-Title", NEW),
    ("config", "set", "channels.googlechat.accounts.team.serviceAccount.key_id", NEW),
    ("config", "set", "plugins.entries.mcp.config.args[3]", NEW),
    ("config", "set", "plugins.entries.mcp.config.env[0]", f"GITHUB_TOKEN={NEW}"),
    ("config", "set", "plugins.entries.mcp.config.label", f"Bearer {NEW}"),
    ("config", "set", "plugins.entries.mcp.config.command", f"run --api-key={NEW}"),
    ("config", "set", "plugins.entries.mcp.config.port", "8081"),  # a plain write: the diff's context holds secrets
    ("config", "unset", "channels.feishu.accounts.ops.encryptKey"),
    ("config", "unset", "plugins.entries.mcp.config.args[3]"),
    ("config", "unset", "models.providers.corp.request"),
    ("config", "unset", "channels.googlechat"),
]


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",), ("--dry-run", "--json")],
                         ids=["human", "json", "dry-run", "dry-run-json"])
@pytest.mark.parametrize("args", WRITES, ids=lambda a: " ".join(a[1:3]))
def test_writes_hide_old_and_new(state: Path, vora, args: tuple[str, ...], mode: tuple[str, ...]) -> None:
    run = vora(*args, *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run, NEW)
    if "--dry-run" in mode:
        # the diff is shown: every line of it holds no secret (context lines included)
        assert "@@" in run.stdout


def test_a_set_reports_redacted_old_and_new_and_lands_the_value(state: Path, vora) -> None:
    run = vora("config", "set", "channels.feishu.accounts.ops.encryptKey", NEW)
    assert run.stdout == "Updated channels.feishu.accounts.ops.encryptKey: <redacted> -> <redacted>\n"
    assert f'encryptKey: "{NEW}"' in (state / "vora.json").read_text()
    run = vora("config", "set", "plugins.entries.mcp.config.args[3]", "hook-tok-0100")
    assert run.stdout == "Updated plugins.entries.mcp.config.args[3]: <redacted> -> <redacted>\n"
    audit = (state / "logs" / "config-audit.jsonl").read_text()
    assert NEW not in audit and "hook-tok" not in audit and "fs-acct" not in audit


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",)], ids=["human", "json", "dry-run"])
def test_patch_hides_them(state: Path, vora, mode: tuple[str, ...]) -> None:
    patch = (f'{{channels: {{feishu: {{accounts: {{ops: {{encryptKey: "{NEW}"}}}}}}}}, '
             'models: {providers: {corp: {headers: null}}}, '
             f'plugins: {{entries: {{mcp: {{config: {{args: ["--token", "{NEW}"], env: null}}}}}}}}}}')
    run = vora("config", "patch", "-", *mode, input=patch)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run, NEW)


def test_edit_reports_the_changes_hidden(state: Path, vora, tmp_path: Path) -> None:
    after = CONFIG.replace("fs-acct-enc-0001", NEW).replace("hook-tok-0008", "hook-tok-0101")
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({after!r})\n")
    for mode in ((), ("--json",)):
        (state / "vora.json").write_text(CONFIG)
        run = vora("config", "edit", "--force", *mode, env={"EDITOR": f"{sys.executable} {script}"})
        assert run.exit_code == 0, run.stderr
        assert_hidden(run, NEW, "hook-tok-0101")
    changes = {c["key"]: c for c in run.json()["changes"]}
    # an array that changed is reported whole (at the deepest key that differs), the secret in it hidden
    assert changes["plugins.entries.mcp.config.args"]["new"][2:4] == ["--hook-token", "<redacted>"]
    assert changes["channels.feishu.accounts.ops.encryptKey"]["new"] == "<redacted>"


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["human", "json"])
def test_validate_hides_them(state: Path, vora, mode: tuple[str, ...]) -> None:
    (state / "vora.json").write_text(CONFIG.replace("gateway: { port: 18789 }", 'gateway: { port: "Bearer zz-0013" }'))
    run = vora("config", "validate", "--strict", *mode)
    assert run.exit_code == 1
    assert_hidden(run, "zz-0013")


@pytest.mark.parametrize("mode", [(), ("--json",), ("--verbose",), ("--format", "github"), ("--format", "junit"),
                                  ("--format", "sarif")], ids=["human", "json", "verbose", "github", "junit", "sarif"])
def test_doctor_hides_them(state: Path, vora, mode: tuple[str, ...]) -> None:
    os.chmod(state / "vora.json", 0o644)  # config-secrets then names the paths it found
    assert_hidden(vora("doctor", *mode))


def test_doctor_and_audit_count_the_registry_paths(state: Path, vora) -> None:
    os.chmod(state / "vora.json", 0o644)
    found = vora("doctor", "--json", "--only", "config-secrets").json()["checks"][0]["evidence"]["config"]
    for path in ("channels.feishu.accounts.ops.encryptKey", "models.providers.corp.headers.X-Title",
                 "models.providers.corp.request.proxy.tls.passphrase"):
        assert path in found
    run = vora("security", "audit", "--json")
    assert_hidden(run)
    keys = {f.get("key") for f in run.json()["findings"]}
    assert {"channels.feishu.accounts.ops.encryptKey", "models.providers.corp.request.headers.X-Tenant"} <= keys


def test_backup_json_hides_them(state: Path, vora) -> None:
    run = vora("backup", "create", "--dry-run", "--json", "--no-workspace")
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)


@pytest.mark.parametrize("text", [
    '{ channels: { feishu: { encryptKey: "fs-broken-0014 } } }',  # unterminated, at a registry path
    '{ models: { providers: { x: { request: { tls: { key: "fs-broken-0014" x } } } } } }',  # beside the value
    '{ channels: { googlechat: { serviceAccount: { id: "fs-broken-0014", } nope } } }',
])
@pytest.mark.parametrize("args", [("config", "get"), ("config", "validate"), ("doctor",), ("doctor", "--json")],
                         ids=lambda a: " ".join(a))
def test_a_parse_error_at_a_registry_path_quotes_nothing(state: Path, vora, text: str, args: tuple[str, ...]) -> None:
    (state / "vora.json").write_text(text + "\n")
    run = vora(*args)
    assert run.exit_code == 1
    assert "fs-broken" not in run.stdout + run.stderr
    assert "vora.json:1:" in run.stdout + run.stderr


def test_a_refused_value_that_says_it_is_a_secret_is_not_quoted(state: Path, vora) -> None:
    before = (state / "vora.json").read_bytes()
    run = vora("config", "set", "gateway.port", f"Bearer {NEW}", "--type", "integer")
    assert run.exit_code == 2
    assert NEW not in run.stdout + run.stderr and "VALUE 'Bearer <redacted>' is not an integer" in run.stderr
    assert (state / "vora.json").read_bytes() == before


def test_every_get_document_parses(state: Path, vora) -> None:
    for path in GET_PATHS:
        json.loads(vora("config", "get", *([path] if path else []), "--json").stdout)
