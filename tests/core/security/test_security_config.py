"""The audit's config checks (gateway, secrets, channels and tools): each trips, each passes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from security_support import SAFE_CONFIG, audit, found, ids, titles

GOOD = "0123456789abcdef0123456789abcdef"


def _state(tmp_path: Path, config: str) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700, parents=True)
    os.chmod(state, 0o700)
    (state / "vora.json").write_text(config, encoding="utf-8")
    os.chmod(state / "vora.json", 0o600)
    return state


CLEAN = {
    "gateway-auth": SAFE_CONFIG, "gateway-token": SAFE_CONFIG, "gateway-env-token": SAFE_CONFIG,
    "gateway-rate-limit": f'{{ gateway: {{ bind: "lan", auth: {{ token: "{GOOD}", rateLimit: {{ maxAttempts: 5 }} }} }} }}',
    "control-ui": SAFE_CONFIG, "gateway-proxy": SAFE_CONFIG, "tailscale": SAFE_CONFIG, "mdns": SAFE_CONFIG,
    "log-redaction": SAFE_CONFIG, "gateway-http": SAFE_CONFIG, "dangerous-flags": SAFE_CONFIG,
    "plaintext-secrets": '{ gateway: { auth: { mode: "token", token: "${GW_TOKEN}" } } }',
    "channel-policies": '{ channels: { telegram: { dmPolicy: "pairing", groupPolicy: "allowlist" } } }',
    "elevated-tools": '{ tools: { elevated: { allowFrom: { telegram: ["12345"] } } } }',
    "exec-tools": '{ tools: { exec: { security: "allowlist" } } }',
}


@pytest.mark.parametrize("check_id", sorted(CLEAN))
def test_a_careful_config_passes(tmp_path: Path, check_id: str) -> None:
    state = _state(tmp_path, CLEAN[check_id])
    report = audit(state, check_id, env={"GW_TOKEN": GOOD})
    assert next((c.id, c.status, c.message) for c in report.report.checks)[1] == "pass"


TRIPS = [
    ("gateway-auth", '{ gateway: { bind: "lan" } }', {"gateway.bind_no_auth": "critical"}),
    ("gateway-auth", '{ gateway: { auth: { mode: "none" } } }', {"gateway.loopback_no_auth": "critical"}),
    ("gateway-auth", '{ gateway: { auth: { mode: "token" } } }', {"gateway.loopback_no_auth": "critical"}),
    ("gateway-token", '{ gateway: { auth: { mode: "token", token: "short" } } }', {"gateway.token_too_short": "warn"}),
    ("gateway-token", '{ gateway: { auth: { token: "change-me-to-a-long-random-token" } } }', {"": "critical"}),
    ("gateway-token", '{ gateway: { auth: { token: "changeme" } } }', {"": "critical"}),
    ("gateway-token", f'{{ gateway: {{ auth: {{ token: "{GOOD}" }} }}, hooks: {{ enabled: true, token: "{GOOD}" }} }}',
     {"hooks.token_reuse_gateway_token": "critical"}),
    ("gateway-rate-limit", f'{{ gateway: {{ bind: "lan", auth: {{ token: "{GOOD}" }} }} }}',
     {"gateway.auth_no_rate_limit": "warn"}),
    ("control-ui", f'{{ gateway: {{ bind: "lan", auth: {{ token: "{GOOD}" }}, controlUi: {{ allowedOrigins: ["*"] }} }} }}',
     {"gateway.control_ui.allowed_origins_wildcard": "critical"}),
    ("control-ui", '{ gateway: { controlUi: { allowedOrigins: ["*"], allowInsecureAuth: true } } }',
     {"gateway.control_ui.allowed_origins_wildcard": "warn", "gateway.control_ui.insecure_auth": "warn"}),
    ("control-ui", '{ gateway: { controlUi: { dangerouslyDisableDeviceAuth: true } } }',
     {"gateway.control_ui.device_auth_disabled": "critical"}),
    ("gateway-proxy", "{}", {"gateway.trusted_proxies_missing": "warn"}),
    ("gateway-proxy", '{ gateway: { bind: "lan", auth: { mode: "trusted-proxy" } } }',
     {"gateway.trusted_proxy_auth": "critical", "gateway.trusted_proxy_no_proxies": "critical",
      "gateway.trusted_proxy_no_user_header": "critical", "gateway.trusted_proxy_no_allowlist": "warn"}),
    ("gateway-proxy", '{ gateway: { allowRealIpFallback: true, trustedProxies: ["127.0.0.1"] } }',
     {"gateway.real_ip_fallback_enabled": "warn"}),
    ("tailscale", '{ gateway: { tailscale: { mode: "funnel" } } }', {"gateway.tailscale_funnel": "critical"}),
    ("tailscale", '{ gateway: { tailscale: { mode: "serve" } } }', {"gateway.tailscale_serve": "info"}),
    ("mdns", '{ discovery: { mdns: { mode: "full" } } }', {"discovery.mdns_full_mode": "warn"}),
    ("mdns", '{ gateway: { bind: "lan" }, discovery: { mdns: { mode: "full" } } }', {"discovery.mdns_full_mode": "critical"}),
    ("log-redaction", '{ logging: { redactSensitive: "off" } }', {"logging.redact_off": "warn"}),
    ("gateway-http", '{ gateway: { auth: { mode: "none" } } }', {"gateway.http.no_auth": "warn"}),
    ("gateway-http", '{ gateway: { auth: { mode: "none" }, tailscale: { mode: "serve" } } }', {"gateway.http.no_auth": "critical"}),
    ("gateway-http", '{ gateway: { tools: { allow: ["exec"] } } }', {"gateway.tools_invoke_http.dangerous_allow": "warn"}),
    ("dangerous-flags", '{ tools: { exec: { applyPatch: { workspaceOnly: false } } } }',
     {"config.insecure_or_dangerous_flags": "warn"}),
    ("plaintext-secrets", '{ gateway: { auth: { password: "hunter2hunter2hunter2" } } }',
     {"config.secrets.gateway_password_in_config": "warn"}),
    ("channel-policies", '{ channels: { telegram: { dmPolicy: "open", allowFrom: ["*"] } } }',
     {"channels.telegram.dm.open": "critical", "channels.telegram.dm.scope_main_multiuser": "warn",
      "security.trust_model.multi_user_heuristic": "warn"}),
    ("channel-policies", '{ channels: { slack: { groupPolicy: "open" } } }',
     {"security.exposure.open_groups_with_elevated": "critical", "security.trust_model.multi_user_heuristic": "warn"}),
    ("elevated-tools", '{ tools: { elevated: { allowFrom: { telegram: ["*"] } } } }',
     {"tools.elevated.allowFrom.telegram.wildcard": "critical"}),
    ("exec-tools", '{ tools: { exec: { security: "full" } } }', {"tools.exec.security_full_configured": "warn"}),
    ("exec-tools", '{ tools: { exec: { security: "full" } }, channels: { x: { dmPolicy: "open" } } }',
     {"tools.exec.security_full_configured": "critical", "security.exposure.open_channels_with_exec": "critical"}),
    ("exec-tools", '{ tools: { exec: { host: "sandbox" } } }', {"tools.exec.host_sandbox_no_sandbox_defaults": "warn"}),
]


@pytest.mark.parametrize(("check_id", "config", "expected"), TRIPS)
def test_a_risky_config_trips_the_check(tmp_path: Path, check_id: str, config: str, expected: dict[str, str]) -> None:
    got = found(_state(tmp_path, config), check_id)
    by_id = {g: f.severity for f in got for g in (f.gateway or ("",))}
    assert {k: by_id.get(k) for k in expected} == expected


def test_gateway_env_token_differs_from_the_config(tmp_path: Path) -> None:
    state = _state(tmp_path, SAFE_CONFIG)
    got = found(state, "gateway-env-token", env={"VORA_GATEWAY_TOKEN": "another-token-of-enough-length"})
    assert titles(got) == [("warn", "VORA_GATEWAY_TOKEN differs from gateway.auth.token")]
    got = found(_state(tmp_path / "b", "{}"), "gateway-env-token", env={"VORA_GATEWAY_TOKEN": GOOD})
    assert titles(got) == [("info", "the gateway's credential comes from VORA_GATEWAY_TOKEN")]


def test_a_short_env_token_is_named_as_the_environments(tmp_path: Path) -> None:
    (f,) = found(_state(tmp_path, "{}"), "gateway-token", env={"VORA_GATEWAY_TOKEN": "tiny"})
    assert f.title == "the gateway token is short" and "from VORA_GATEWAY_TOKEN" in f.detail
    assert "tiny" not in f.detail + f.title + (f.next or "")


def test_plaintext_secrets_name_the_key_and_its_place(tmp_path: Path) -> None:
    config = '// c\n{\n  models: { providers: { openai: { apiKey: "sk-0123456789abcdef" } } },\n' \
             '  channels: { googlechat: { serviceAccount: "{\\"private_key\\": \\"x\\"}" } },\n' \
             '  gateway: { auth: { token: "${GW}" }, remote: { token: { source: "env", provider: "default", id: "R" } } },\n}\n'
    state = _state(tmp_path, config)
    (state / ".env").write_text("export OPENAI_API_KEY=sk-x\nPATH=/bin\n", encoding="utf-8")
    got = found(state, "plaintext-secrets")
    assert [(f.key, f.line) for f in got] == [("models.providers.openai.apiKey", 3),
                                              ("channels.googlechat.serviceAccount", 4), ("OPENAI_API_KEY", 1)]
    assert "sk-0123456789abcdef" not in " ".join(f.detail + (f.next or "") for f in got)


def test_a_config_that_does_not_parse_skips_the_config_checks(tmp_path: Path) -> None:
    state = _state(tmp_path, "{ gateway: ")
    report = audit(state)
    statuses = {c.id: c.status for c in report.report.checks}
    assert statuses["gateway-auth"] == "skip" and statuses["channel-policies"] == "skip"
    assert statuses["config-files"] == "pass" and statuses["state-dir"] == "pass"


def test_fail_on_maps_onto_the_engine(tmp_path: Path) -> None:
    state = _state(tmp_path, '{ logging: { redactSensitive: "off" } }')
    assert not audit(state, "log-redaction").failed
    assert audit(state, "log-redaction", fail_on="warn").failed
    assert audit(state, "attack-surface", fail_on="info").failed
    assert not audit(state, "attack-surface", fail_on="warn").failed
    assert ids(found(state, "attack-surface")) == {"summary.attack_surface"}
