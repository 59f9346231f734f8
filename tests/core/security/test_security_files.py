"""The audit's file checks: each trips on an exposed state and passes on a private one."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from security_support import SAFE_CONFIG, audit, found, ids, titles

from vora_cli.core.security.model import findings_of


def _state(tmp_path: Path, config: str = SAFE_CONFIG, mode: int = 0o700) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    os.chmod(state, mode)
    (state / "vora.json").write_text(config, encoding="utf-8")
    os.chmod(state / "vora.json", 0o600)
    return state


def _file(path: Path, text: str = "{}\n", mode: int = 0o600, dir_mode: int = 0o700) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    for folder in [path.parent, *path.parent.parents]:
        if folder.name == "state":
            break
        os.chmod(folder, dir_mode)
    path.write_text(text, encoding="utf-8")
    os.chmod(path, mode)
    return path


@pytest.mark.parametrize(("mode", "severity", "gateway"), [
    (0o777, "critical", "fs.state_dir.perms_world_writable"),
    (0o770, "warn", "fs.state_dir.perms_group_writable"),
    (0o755, "warn", "fs.state_dir.perms_readable"),
    (0o750, "warn", "fs.state_dir.perms_readable"),
])
def test_state_dir_open_to_others(tmp_path: Path, mode: int, severity: str, gateway: str) -> None:
    (f,) = found(_state(tmp_path, mode=mode), "state-dir")
    assert (f.severity, f.gateway) == (severity, (gateway,))
    assert f"mode {mode:04o}" in f.detail and f.next == "vora security audit --fix state-dir"


def test_private_install_passes_every_file_check(tmp_path: Path) -> None:
    state = _state(tmp_path)
    _file(state / "devices" / "paired.json")
    _file(state / "agents" / "main" / "sessions" / "sessions.json")
    _file(state / "credentials" / "oauth.json")
    report = audit(state, "state-dir", "config-files", "credentials", "devices", "sessions", "transcript-secrets",
                   "logs", "vora-files")
    assert [(c.id, c.status) for c in report.report.checks if c.status != "pass"] == []


def test_state_dir_symlink_is_named_and_its_target_rated(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    os.chmod(real, 0o755)
    (tmp_path / "state").symlink_to(real)
    got = found(tmp_path / "state", "state-dir")
    assert titles(got) == [("warn", "the state dir is a symlink"), ("warn", "the state dir is world-readable")]
    assert ids(got) == {"fs.state_dir.symlink", "fs.state_dir.perms_readable"}


@pytest.mark.parametrize(("mode", "severity", "gateway"), [
    (0o666, "critical", "fs.config.perms_writable"),
    (0o644, "critical", "fs.config.perms_world_readable"),
    (0o640, "warn", "fs.config.perms_group_readable"),
])
def test_config_file_modes(tmp_path: Path, mode: int, severity: str, gateway: str) -> None:
    state = _state(tmp_path)
    os.chmod(state / "vora.json", mode)
    (f,) = found(state, "config-files")
    assert (f.severity, f.gateway, f.file) == (severity, (gateway,), str(state / "vora.json"))


def test_includes_backups_and_env_files_hold_secrets_too(tmp_path: Path) -> None:
    state = _state(tmp_path, '{ $include: "./secret.json5", gateway: { auth: { mode: "token" } } }\n')
    _file(state / "secret.json5", f'{{ gateway: {{ auth: {{ token: "{"t" * 32}" }} }} }}\n', 0o660)
    _file(state / "vora.json.bak", "{}\n", 0o644)
    _file(state / ".env", "OPENAI_API_KEY=sk-abc\n", 0o644)
    got = {Path(f.file).name: (f.severity, f.gateway) for f in found(state, "config-files")}
    assert got == {"secret.json5": ("critical", ("fs.config_include.perms_writable",)),
                   "vora.json.bak": ("critical", ()), ".env": ("critical", ())}


def test_credentials_and_auth_profiles(tmp_path: Path) -> None:
    state = _state(tmp_path)
    _file(state / "credentials" / "oauth.json", mode=0o644, dir_mode=0o755)
    _file(state / "agents" / "main" / "agent" / "auth-profiles.json", mode=0o664)
    got = {Path(f.file).name: (f.severity, f.gateway) for f in found(state, "credentials")}
    assert got == {"credentials": ("warn", ("fs.credentials_dir.perms_readable",)),
                   "oauth.json": ("critical", ()),
                   "auth-profiles.json": ("critical", ("fs.auth_profiles.perms_writable",))}


def test_pairing_store_and_identity_no_gateway_release_flags(tmp_path: Path) -> None:
    state = _state(tmp_path)
    _file(state / "devices" / "paired.json", mode=0o644)
    _file(state / "identity" / "device.json", mode=0o640)
    got = {Path(f.file).name: f.severity for f in found(state, "devices")}
    assert got == {"paired.json": "critical", "device.json": "warn"}


def test_a_readable_transcript_is_critical_when_it_holds_a_secret(tmp_path: Path) -> None:
    state = _state(tmp_path)
    sessions = state / "agents" / "main" / "sessions"
    _file(sessions / "sessions.json", json.dumps({"agent:main:main": {"sessionId": "a"}}))
    _file(sessions / "a.jsonl", json.dumps({"type": "message", "message": {"content": "hello"}}) + "\n", 0o644)
    _file(sessions / "b.jsonl", json.dumps({"type": "message", "message": {
        "content": "export GITHUB_TOKEN=ghp_" + "x" * 30}}) + "\n", 0o644)
    got = {Path(f.file).name: f.severity for f in found(state, "sessions")}
    assert got == {"a.jsonl": "warn", "b.jsonl": "critical"}


def test_transcript_secrets_by_kind_and_line_never_the_secret(tmp_path: Path) -> None:
    token = "Bearer eyJhbGciOiJIUzI1NiJ9.c2VjcmV0LXBhc3RlZA.q1w2e3r4t5y6u7i8"
    config_token = "configtoken-0123456789abcdef-XYZ"
    state = _state(tmp_path, f'{{ gateway: {{ auth: {{ mode: "token", token: "{config_token}" }} }} }}\n')
    sessions = state / "agents" / "main" / "sessions"
    _file(sessions / "sessions.json", json.dumps({"agent:main:main": {"sessionId": "a"}}))
    lines = [{"type": "session"}, {"message": {"content": f"curl -H 'Authorization: {token}'"}},
             {"message": {"content": f"the gateway token is {config_token}"}}]
    _file(sessions / "a.jsonl", "".join(json.dumps(line) + "\n" for line in lines))
    report = audit(state, "transcript-secrets")
    got = findings_of(report.report.checks[0])
    assert [(f.severity, f.line) for f in got] == [("warn", 2), ("warn", 3)]
    assert "an Authorization header at line 2" in got[0].detail
    assert "secret this install's config holds" in got[1].detail
    text = json.dumps(report.to_dict())
    assert token not in text and "eyJhbGci" not in text and config_token not in text


def test_transcript_scan_is_linear_on_a_2_mib_line(tmp_path: Path) -> None:
    state = _state(tmp_path)
    sessions = state / "agents" / "main" / "sessions"
    _file(sessions / "sessions.json", json.dumps({"agent:main:main": {"sessionId": "a"}}))
    hostile = "KEY=\"" * 200_000 + "A" * 1_000_000 + " sk-" + "b" * 40
    _file(sessions / "a.jsonl", json.dumps({"message": {"content": hostile}}) + "\n")
    (f,) = found(state, "transcript-secrets")  # a hang guard only: the test simply has to finish
    assert "an sk- API key" in f.detail


def test_logs_the_configured_log_and_vora_logs(tmp_path: Path) -> None:
    state = _state(tmp_path, f'{{ logging: {{ file: "{tmp_path}/gw.log" }} }}\n')
    _file(tmp_path / "gw.log", "", 0o644, dir_mode=0o755)
    _file(state / "logs" / "config-audit.jsonl", "", 0o644)
    got = {Path(f.file).name: (f.severity, f.gateway) for f in found(state, "logs")}
    assert got == {"gw.log": ("warn", ("fs.log_file.perms_readable",)), "config-audit.jsonl": ("warn", ())}


def test_vora_settings_and_cache_writable_by_others(tmp_path: Path, home: Path) -> None:
    state = _state(tmp_path)
    settings = home / ".config" / "vora" / "settings.toml"
    settings.parent.mkdir(parents=True)
    settings.write_text("", encoding="utf-8")
    os.chmod(settings, 0o666)
    cache = home / ".cache" / "vora"
    cache.mkdir(parents=True)
    os.chmod(cache, 0o777)
    got = {Path(f.file).name: f.severity for f in found(state, "vora-files")}
    assert got == {"settings.toml": "critical", "vora": "critical"}


def test_a_file_owned_by_another_user_is_critical(tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("making a file another user owns needs root")
    state = _state(tmp_path)
    os.chown(state / "vora.json", 4242, 4242)
    (f,) = found(state, "config-files")
    assert (f.severity, f.title) == ("critical", "the config file belongs to another user")
    assert "uid 4242" in f.detail


def test_a_config_linked_out_of_the_state_dir_is_rated_but_not_fixed(tmp_path: Path) -> None:
    state = _state(tmp_path)
    outside = tmp_path / "dotfiles" / "vora.json"
    _file(outside, SAFE_CONFIG, 0o644, dir_mode=0o755)
    (state / "vora.json").unlink()
    (state / "vora.json").symlink_to(outside)
    report = audit(state, "config-files")
    check = report.report.checks[0]
    assert titles(list(findings_of(check))) == [("critical", "the config file is world-readable"),
                                                ("warn", "the config file is a symlink")]
    assert check.fix is None  # no chmod follows a link out of the state dir
    assert "does not follow a symlink out of the state dir" in (findings_of(check)[0].next or "")
