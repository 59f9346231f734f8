"""Legacy keys the gateway migrates before it validates (core/config/migrations): `config
validate`, `doctor`, `config set` and `security audit` judge the config as the gateway reads it,
name each legacy key as an `info` in the gateway's words, and never rewrite the file for it.

The gateway's own verdicts on configs like these are in `validate_cases.json` (`legacy-*`), its
migrations on 1,270 configs in `legacy-migrations-openclaw-2026.4.12.json`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

VoraRun = Callable[..., Run]
TOKEN = "0123456789abcdef0123456789abcdef"
INFO = "legacy key, rewritten by the gateway as it reads the config: "

OLD_INSTALL = f"""{{
  // written by an older gateway
  gateway: {{ bind: "[::1]", auth: {{ mode: "token", token: "{TOKEN}" }} }},
  channels: {{
    slack: {{ botToken: "xoxb-1", appToken: "xapp-1", streamMode: "append" }},
    googlechat: {{ groups: {{ "spaces/A": {{ allow: true }} }} }},
  }},
  heartbeat: {{ every: "30m", showOk: true }},
}}
"""


def _state(tmp_path: Path, text: str) -> tuple[Path, Path]:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    config = state / "vora.json"
    config.write_text(text)
    config.chmod(0o600)
    return state, config


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_validate_names_each_legacy_key_as_info_and_the_config_stays_valid(vora: VoraRun, tmp_path: Path) -> None:
    state, config = _state(tmp_path, OLD_INSTALL)
    before = _digest(config)
    run = vora("--state-dir", str(state), "config", "validate")
    assert run.exit_code == 0, run.stdout
    assert run.stdout.splitlines() == [
        f'{config}:3:14: info: gateway.bind: {INFO}Normalized gateway.bind "[::1]" → "loopback".',
        f"{config}:5:54: info: channels.slack.streamMode: {INFO}Moved channels.slack.streamMode → "
        "channels.slack.streaming.mode (block).",
        f'{config}:6:43: info: channels.googlechat.groups["spaces/A"].allow: {INFO}Moved '
        "channels.googlechat.groups.spaces/A.allow → channels.googlechat.groups.spaces/A.enabled.",
        f"{config}:8:3: info: heartbeat: {INFO}Moved heartbeat → agents.defaults.heartbeat.",
        f"{config}:8:3: info: heartbeat: {INFO}Moved heartbeat visibility → channels.defaults.heartbeat.",
        f"{config}: valid (5 legacy keys the gateway rewrites)",
    ]
    doc = vora("--state-dir", str(state), "config", "validate", "--json").json()
    assert (doc["valid"], doc["errors"], doc["warnings"], doc["infos"]) == (True, 0, 0, 5)
    assert {p["rule"] for p in doc["problems"]} == {"legacy"}
    assert _digest(config) == before and sorted(p.name for p in state.iterdir()) == ["vora.json"]


def test_a_legacy_key_the_gateway_cannot_migrate_is_refused_in_its_words(vora: VoraRun, tmp_path: Path) -> None:
    state, config = _state(tmp_path, '{\n  agents: { list: [{ id: "main", sandbox: { perSession: 1 } }] },\n}\n')
    run = vora("--state-dir", str(state), "config", "validate")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        f"{config}:2:13: error: agents.list: agents.list[].sandbox.perSession is legacy; use agents.list[].sandbox.scope "
        'instead. Run "openclaw doctor --fix".',
        f"{config}: invalid: 1 error, 0 warnings",
    ]


def test_doctor_says_info_where_the_gateway_starts_and_changes_nothing(vora: VoraRun, tmp_path: Path) -> None:
    state, config = _state(tmp_path, OLD_INSTALL)
    before = _digest(config)
    doc = vora("--state-dir", str(state), "doctor", "--only", "config-schema", "--json").json()
    (check,) = doc["checks"]
    assert check["status"] == "info" and doc["ok"] is True
    assert check["message"] == "the gateway rewrites 5 legacy keys as it reads the config: gateway.bind"
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "--yes")
    assert fixed.exit_code == 0 and _digest(config) == before


def test_doctor_fix_config_schema_writes_the_modern_form_only_when_named(vora: VoraRun, tmp_path: Path) -> None:
    text = (
        "{\n"
        "  // kept: a comment the operator wrote\n"
        '  gateway: { bind: "0.0.0.0", auth: { mode: "token", token: "${GW_TOKEN}" } },\n'
        '  channels: { discord: { token: "${DISCORD_TOKEN}", streaming: "partial" } },\n'
        "}\n"
    )
    state, config = _state(tmp_path, text)
    env = {"GW_TOKEN": TOKEN, "DISCORD_TOKEN": "discord-secret-0123456789"}
    preview = vora("--state-dir", str(state), "doctor", "--fix", "config-schema", "--dry-run", env=env)
    assert preview.exit_code == 0 and config.read_text() == text
    assert preview.stdout.splitlines()[-5:-1] == [  # the plan, after the report (issue 38)
        '-  gateway: { bind: "0.0.0.0", auth: { mode: "token", token: "<redacted>" } },',
        '-  channels: { discord: { token: "<redacted>", streaming: "partial" } },',
        # one migration, as the gateway's doctor: no Control UI origins pinned to today's port (each
        # start of the gateway seeds them from its port then)
        '+  gateway: { bind: "lan", auth: { mode: "token", token: "<redacted>" } },',
        '+  channels: { discord: { token: "<redacted>", streaming: { mode: "partial" } } },',
    ]
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "config-schema", "--yes", env=env)
    assert fixed.exit_code == 0, fixed.stdout + fixed.stderr
    written = config.read_text()
    assert "// kept: a comment the operator wrote" in written and "${DISCORD_TOKEN}" in written
    assert "discord-secret" not in written and TOKEN not in written  # placeholders stay as written
    got = json.loads(vora("--state-dir", str(state), "config", "get", "channels.discord", "--json", env=env).stdout)
    assert got["value"] == {"token": "<redacted>", "streaming": {"mode": "partial"}}
    assert json.loads(vora("--state-dir", str(state), "config", "get", "gateway.bind", "--json").stdout)["value"] == "lan"
    doc = vora("--state-dir", str(state), "config", "validate", "--json", env=env).json()
    assert (doc["valid"], doc["infos"]) == (True, 1)  # the origins each read seeds: never written
    assert "Seeded gateway.controlUi.allowedOrigins " in doc["problems"][0]["message"]
    again = vora("--state-dir", str(state), "doctor", "--fix", "config-schema", "--yes", env=env)
    assert again.exit_code == 0 and config.read_text() == written


def test_config_set_writes_a_legacy_spelling_the_gateway_reads_and_says_so(vora: VoraRun, tmp_path: Path) -> None:
    state, config = _state(tmp_path, f'{{ gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }} }}\n')
    run = vora("--state-dir", str(state), "config", "set", "gateway.bind", "0.0.0.0")
    assert (run.exit_code, run.stdout) == (0, "Set gateway.bind: 0.0.0.0\n")
    assert run.stderr.splitlines()[0] == ('warning: the gateway rewrites this legacy spelling as it reads the config: '
                                          'Normalized gateway.bind "0.0.0.0" → "lan".')
    # a legacy top-level key the gateway moves into another one (agents.defaults.memorySearch)
    run = vora("--state-dir", str(state), "config", "set", "memorySearch.enabled", "true")
    assert run.exit_code == 0 and "Moved memorySearch → agents.defaults.memorySearch." in run.stderr
    # another edit of a config that already has them says nothing more about them
    run = vora("--state-dir", str(state), "config", "set", "gateway.port", "18790")
    assert (run.exit_code, run.stderr.count("legacy")) == (0, 0)
    assert json.loads(vora("--state-dir", str(state), "config", "get", "gateway", "--json").stdout)["value"]["bind"] == \
        "0.0.0.0"  # vora edits what the user wrote; the gateway reads it as "lan"
    assert config.read_text().count("memorySearch") == 1


def test_a_legacy_value_the_gateway_refuses_is_still_refused_by_config_set(vora: VoraRun, tmp_path: Path) -> None:
    state, config = _state(tmp_path, "{}\n")
    run = vora("--state-dir", str(state), "config", "set", "memorySearch", "true")
    assert run.exit_code == 1 and config.read_text() == "{}\n"
    assert run.stderr.splitlines()[0] == (
        "error: the gateway would refuse this config: memorySearch: top-level memorySearch was moved; use "
        'agents.defaults.memorySearch instead. Run "openclaw doctor --fix". [legacy rule of openclaw 2026.4.12]; '
        "nothing was written")


def test_security_audit_judges_the_config_as_the_gateway_runs_it(vora: VoraRun, tmp_path: Path) -> None:
    """A discord `dm.policy: "open"` of an older release is the gateway's `dmPolicy: "open"`."""
    state, _config = _state(tmp_path, f"""{{
  gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }},
  channels: {{ discord: {{ token: "t", dm: {{ policy: "open", allowFrom: ["*"] }} }} }},
}}
""")
    doc = vora("--state-dir", str(state), "security", "audit", "--json").json()
    found = {(f["id"], f["severity"]) for f in doc["findings"] if "channels.discord.dm.open" in f["gateway"]}
    assert found == {("channel-policies", "critical")}


@pytest.mark.parametrize(("extra", "env"), [
    ("", {}),  # ${DISCORD_TOKEN} is not set in this shell: a warning
    ('  plugins: { entries: { "gone-plugin": { enabled: true } } },\n', {"DISCORD_TOKEN": "discord-secret-0123456789"}),
    ('  plugins: { allow: ["gone-plugin", "lobster"] },\n', {}),
])
def test_doctor_fix_config_schema_rewrites_legacy_keys_even_with_warnings(vora: VoraRun, tmp_path: Path, extra: str,
                                                                           env: dict[str, str]) -> None:
    text = ("{\n  // kept\n" + extra
            + '  channels: { discord: { token: "${DISCORD_TOKEN}", streaming: "partial" } },\n}\n')
    state, config = _state(tmp_path, text)
    check = vora("--state-dir", str(state), "doctor", "--only", "config-schema", "--json", env=env).json()["checks"][0]
    assert check["status"] == "warn" and check["fix"]["automatic"], check
    assert check["fix"]["alternatives"] == [f"vora --state-dir {state} config edit"]
    fixed = vora("--state-dir", str(state), "doctor", "--fix", "config-schema", "--yes", "--json", env=env)
    assert [f["status"] for f in fixed.json()["fixes"]] == ["applied"], fixed.stdout
    written = config.read_text()
    assert "// kept" in written and "${DISCORD_TOKEN}" in written and 'streaming: { mode: "partial" }' in written
    assert extra in written  # what the warnings name is the operator's to edit
