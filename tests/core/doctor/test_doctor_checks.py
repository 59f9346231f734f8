"""Each doctor check over a realistic install in tmp: one fixture that passes, one that fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from doctor_helpers import (
    NOW_MS,
    WS_CONFIG,
    check,
    doctor,
    identity_doc,
    make_state,
    make_workspace,
    write_identity,
    write_store,
)
from second_user import give, reachable, run_as, svc  # noqa: F401  (fixtures)

from vora_cli.core.doctor.live_checks import version_check
from vora_cli.core.doctor.model import CheckResult
from vora_cli.core.doctor.runner import select_checks
from vora_cli.core.doctor_names import CHECK_IDS, SELECTABLE_IDS, VERIFIES
from vora_cli.core.errors import VoraError

# -- config-file ------------------------------------------------------------------------------


def test_config_file_pass_names_path_and_source(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n")
    result = check(state, "config-file")
    assert result.status == "pass"
    assert result.message == f"{state / 'vora.json'} (from the --config/--state-dir flag)"
    assert result.evidence.files == (str(state / "vora.json"),)


def test_config_file_absent_is_info(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    result = check(state, "config-file")
    assert result.status == "info"
    assert "an empty config, defaults apply" in result.message


def test_config_file_directory_is_error(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    (state / "vora.json").mkdir()
    assert check(state, "config-file").status == "error"


def test_config_file_unreadable_is_error(reachable: Path, svc) -> None:  # noqa: F811
    """As a real second user (root reads every file): the gateway's user meets a config it cannot read."""
    state = make_state(reachable, "{}\n")
    (reachable / "home").mkdir()
    give(reachable, svc)
    os.chown(state / "vora.json", 0, 0)
    os.chmod(state / "vora.json", 0o600)
    scratch = make_state(reachable / "scratch", "{}\n")
    result = run_as(svc, lambda: check(state, "config-file"), warm=lambda: check(scratch, "config-file"),
                    home=reachable / "home")
    assert result.status == "error"
    assert "cannot be read" in result.message


def test_config_file_lists_includes(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ "$include": "./agents.json5" }\n')
    (state / "agents.json5").write_text("{ agents: {} }\n")
    result = check(state, "config-file")
    assert result.status == "pass"
    assert result.details == (f"includes {state / 'agents.json5'}",)


# -- config-syntax ----------------------------------------------------------------------------


def test_config_syntax_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, "// c\n{ gateway: { port: 18789, }, }\n")
    assert check(state, "config-syntax").status == "pass"


def test_config_syntax_error_gives_file_line_col_and_text(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{\n  gateway: {\n    port: 18789\n    bind: "lan",\n  },\n}\n')
    result = check(state, "config-syntax")
    assert result.status == "error"
    assert result.message.startswith(f"{state / 'vora.json'}:4:5: ")
    assert result.details[0] == '4 | bind: "lan",'
    assert result.fix is not None and result.fix.command == "vora config edit"


def test_config_syntax_error_skips_config_dependent_checks(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{ oops\n")
    report = doctor(state)
    for check_id in ("config-schema", "gateway-auth", "workspace", "bootstrap-size", "skills"):
        result = report.get(check_id)
        assert result is not None and result.status == "skip", check_id
    assert not report.ok


# -- config-schema ----------------------------------------------------------------------------


def test_config_schema_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ gateway: { port: 18789, bind: "loopback" } }\n')
    assert check(state, "config-schema").status == "pass"


def test_config_schema_wrong_type_is_error_with_position(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{\n  gateway: {\n    port: "high",\n  },\n}\n')
    result = check(state, "config-schema")
    assert result.status == "error"
    assert "gateway.port" in result.message
    assert any(d.startswith(f"{state / 'vora.json'}:3:5: error: gateway.port") for d in result.details)
    assert result.evidence.config == ("gateway.port",)


def test_config_schema_unknown_key_is_an_error_with_did_you_mean(tmp_path: Path) -> None:
    # the gateway refuses an unknown key (its schema is strict), so doctor fails it too
    state = make_state(tmp_path, "{\n  gateway: { prot: 1 },\n}\n")
    result = check(state, "config-schema")
    assert result.status == "error"
    assert 'gateway: Unrecognized key: "prot"' in result.message
    assert "— did you mean 'port'?" in result.message


# -- config-secrets ---------------------------------------------------------------------------

SECRET_CONFIG = '{\n  gateway: {\n    auth: { mode: "token", token: "s3cr3t-t0ken-value" }, // the token\n  },\n}\n'


def test_config_secrets_pass_when_private(tmp_path: Path) -> None:
    state = make_state(tmp_path, SECRET_CONFIG)
    result = check(state, "config-secrets")
    assert result.status == "pass"
    assert result.evidence.config == ("gateway.auth.token",)


def test_config_secrets_pass_without_secrets_even_when_world_readable(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ gateway: { auth: { token: "${GW_TOKEN}" } } }\n')
    os.chmod(state / "vora.json", 0o644)
    assert check(state, "config-secrets").status == "pass"


def test_config_secrets_world_readable_is_warn_with_chmod_fix(tmp_path: Path) -> None:
    state = make_state(tmp_path, SECRET_CONFIG)
    os.chmod(state / "vora.json", 0o644)
    result = check(state, "config-secrets")
    assert result.status == "warn"
    assert result.fix is not None and result.fix.kind == "chmod"
    assert [(op.path, op.old_mode, op.new_mode) for op in result.fix.chmod] == [
        (str(state / "vora.json"), 0o644, 0o600)
    ]


# -- state-dir --------------------------------------------------------------------------------


def test_state_dir_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n", mode=0o700)
    assert check(state, "state-dir").status == "pass"


def test_state_dir_group_writable_is_warn_with_fix(tmp_path: Path) -> None:
    state = make_state(tmp_path, "{}\n", mode=0o770)
    result = check(state, "state-dir")
    assert result.status == "warn"
    assert result.fix is not None and result.fix.chmod[0].new_mode == 0o700


def test_state_dir_missing_is_info(tmp_path: Path) -> None:
    result = check(tmp_path / "nowhere", "state-dir")
    assert result.status == "info"


# -- gateway-auth -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gateway", "env", "status"),
    [
        ('{ bind: "loopback" }', {}, "info"),
        ('{ bind: "lan", auth: { mode: "token", token: "abcdefgh" } }', {}, "pass"),
        ('{ bind: "lan", auth: { mode: "token" } }', {"VORA_GATEWAY_TOKEN": "from-env-123"}, "pass"),
        ('{ bind: "lan" }', {}, "error"),
        ('{ bind: "tailnet", auth: { mode: "none" } }', {}, "error"),
        ('{ auth: { mode: "token" } }', {}, "error"),
        ('{ auth: { mode: "password" } }', {}, "error"),
        ('{ auth: { token: "abcdefgh", password: "hunter22" } }', {}, "warn"),
        ('{ bind: "lan", auth: { mode: "trusted-proxy" } }', {}, "pass"),
    ],
)
def test_gateway_auth(tmp_path: Path, gateway: str, env: dict[str, str], status: str) -> None:
    state = make_state(tmp_path, f"{{ gateway: {gateway} }}\n")
    result = check(state, "gateway-auth", env=env)
    assert result.status == status, result.message


def test_gateway_auth_names_env_token_source_not_value(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ gateway: { bind: "lan", auth: { mode: "token" } } }\n')
    result = check(state, "gateway-auth", env={"VORA_GATEWAY_TOKEN": "from-env-123"})
    assert result.message == "bind lan, auth by token (VORA_GATEWAY_TOKEN)"
    assert "from-env-123" not in repr(result)


# -- workspace --------------------------------------------------------------------------------


def test_workspace_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state)
    result = check(state, "workspace")
    assert result.status == "pass"
    assert result.message == str(state / "workspace")


def test_workspace_missing_folder_is_warn(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    result = check(state, "workspace")
    assert result.status == "warn"
    assert result.fix is not None and result.fix.command == f"mkdir -p {state / 'workspace'}"


def test_workspace_without_agents_md_is_info(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state, {"SOUL.md": "soul\n"})
    result = check(state, "workspace")
    assert result.status == "info"
    assert "no AGENTS.md" in result.message


def test_workspace_checks_every_agent(tmp_path: Path) -> None:
    state = make_state(tmp_path, '{ agents: { defaults: { workspace: "./workspace" }, '
                                 'list: [{ id: "main", default: true }, { id: "ops", workspace: "./ops" }] } }\n')
    make_workspace(state)
    result = check(state, "workspace")
    assert result.status == "warn"
    assert result.message == f"agent ops: workspace {state / 'ops'} does not exist"


# -- bootstrap-size ---------------------------------------------------------------------------


def test_bootstrap_size_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state)
    assert check(state, "bootstrap-size").status == "pass"


def test_bootstrap_size_truncated_names_file_cap_and_loss(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state, {"AGENTS.md": "a\n", "TOOLS.md": "x" * 54_210})
    result = check(state, "bootstrap-size")
    assert result.status == "warn"
    assert result.message == (
        "TOOLS.md is truncated by the 20,000-char per-file cap (bootstrapMaxChars): "
        "54,210 chars, 18,108 injected, 36,102 lost"
    )
    assert result.fix is not None and result.fix.command == "vora context detail"


def test_bootstrap_size_near_limit_is_info(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state, {"AGENTS.md": "y" * 17_500})
    result = check(state, "bootstrap-size")
    assert result.status == "info"
    assert result.message == "AGENTS.md is near the per-file cap: 17,500 of 20,000 chars"


# -- skills -----------------------------------------------------------------------------------


def test_skills_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    make_workspace(state, {"AGENTS.md": "a\n", "skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ship it\n---\n"})
    result = check(state, "skills")
    assert result.status == "pass"
    assert result.message == "1 skill listed: deploy"


def test_skill_without_description_is_warn(tmp_path: Path) -> None:
    state = make_state(tmp_path, WS_CONFIG)
    ws = make_workspace(state, {"AGENTS.md": "a\n", "skills/draft/SKILL.md": "---\nname: draft\n---\nbody\n"})
    result = check(state, "skills")
    assert result.status == "warn"
    assert result.message == (
        f"{ws / 'skills/draft/SKILL.md'}: no description in the front matter, so the gateway drops draft"
    )


# -- pairing-store ----------------------------------------------------------------------------


def test_pairing_store_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    write_store(state, "pending.json", {})
    write_store(state, "paired.json", {"d1": {"deviceId": "d1"}})
    result = check(state, "pairing-store")
    assert result.status == "pass"
    assert result.message == "1 paired device, no pending requests"


def test_pairing_store_unparseable_is_error(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    path = write_store(state, "paired.json", {})
    path.write_text("{ not json", encoding="utf-8")
    result = check(state, "pairing-store")
    assert result.status == "error"
    assert result.message.startswith(f"{path}:1:3: ")


def test_pairing_store_mode_is_warn_with_fix(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    path = write_store(state, "paired.json", {}, mode=0o644)
    result = check(state, "pairing-store")
    assert result.status == "warn"
    assert result.fix is not None and result.fix.kind == "chmod"
    assert result.fix.chmod[0].path == str(path)


def test_pairing_store_pending_and_expired_are_info(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    write_store(state, "pending.json", {
        "req-live": {"requestId": "req-live", "deviceId": "ab" * 32, "displayName": "phone", "ts": NOW_MS - 60_000},
        "req-old": {"requestId": "req-old", "deviceId": "cd" * 32, "ts": NOW_MS - 3_600_000},
    })
    result = check(state, "pairing-store")
    assert result.status == "info"
    assert result.message == "pending request from phone (60s old): vora devices approve req-live"
    assert "1 expired pending request (the next devices write drops them)" in result.details


# -- device-identity --------------------------------------------------------------------------


def test_device_identity_pass(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    write_identity(state, identity_doc())
    assert check(state, "device-identity").status == "pass"


def test_device_identity_mismatch_is_error(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    write_identity(state, identity_doc(device_id="00" * 32))
    result = check(state, "device-identity")
    assert result.status == "error"
    assert "does not match the public key" in result.message


def test_device_identity_mode_is_warn(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    write_identity(state, identity_doc(), mode=0o644)
    assert check(state, "device-identity").status == "warn"


def test_device_identity_absent_is_info(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    assert check(state, "device-identity").status == "info"


# -- selection and composition ----------------------------------------------------------------


def test_select_checks_only_and_skip() -> None:
    assert [c.id for c in select_checks(["state-dir", "skills"], [])] == ["state-dir", "skills"]
    assert "skills" not in [c.id for c in select_checks([], ["skills"])]


def test_unknown_check_id_suggests_the_nearest() -> None:
    with pytest.raises(VoraError) as info:
        select_checks(["state-dri"], [])
    assert info.value.code == "usage"
    assert info.value.hint is not None and info.value.hint.startswith("did you mean state-dir?")


def test_results_are_frozen(tmp_path: Path) -> None:
    result = check(make_state(tmp_path), "state-dir")
    with pytest.raises(AttributeError):
        result.status = "error"  # type: ignore[misc]
    assert isinstance(result, CheckResult)


def test_every_spec_check_runs(tmp_path: Path) -> None:
    report = doctor(make_state(tmp_path))
    assert tuple(c.id for c in report.checks) == CHECK_IDS
    assert len(CHECK_IDS) == 25  # the spec table, backup-restore and newer-gateway (docs/doctor.md)


def test_config_secrets_in_an_included_file(tmp_path: Path) -> None:
    state = make_state(tmp_path, '// main\n{ "$include": "./gateway.json5" }\n')
    included = state / "gateway.json5"
    included.write_text('{ gateway: { auth: { password: "hunter2-long" } } }\n')
    os.chmod(included, 0o640)
    result = check(state, "config-secrets")
    assert result.status == "warn"
    assert result.evidence.config == ("gateway.auth.password",)
    assert result.fix is not None and [op.path for op in result.fix.chmod] == [str(included)]
    assert "hunter2-long" not in repr(result)


def test_pairing_store_not_an_object_is_error(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    path = write_store(state, "pending.json", [])
    result = check(state, "pairing-store")
    assert result.status == "error"
    assert str(path) in result.message


def test_device_identity_made_by_vora_devices_passes(tmp_path: Path) -> None:
    from vora_cli.core.devices.identity import show_identity

    state = make_state(tmp_path)
    view = show_identity(state / "identity" / "device.json", create=True, now=NOW_MS, lock_timeout=10)
    result = check(state, "device-identity")
    assert result.status == "pass"
    assert result.message == f"device {(view.device_id or '')[:16]}… (key matches deviceId)"


def test_device_identity_unparseable_is_error(tmp_path: Path) -> None:
    state = make_state(tmp_path)
    path = write_identity(state, identity_doc())
    path.write_text("{ nope", encoding="utf-8")
    result = check(state, "device-identity")
    assert result.status == "error"
    assert result.message.startswith(str(path))


def test_every_check_says_what_it_verifies() -> None:
    assert set(VERIFIES) == set(SELECTABLE_IDS)
    assert all(text and not text.endswith(".") for text in VERIFIES.values())


@pytest.mark.parametrize(("version", "status"), [
    ("2026.4.2", "pass"), ("2026.4.11", "pass"), ("2026.4.3-beta.1", "info"), ("2026.5.0", "warn"),
    ("2025.12.1", "warn"), ("dev", "warn"), (None, "warn"),
])
def test_gateway_version_against_the_release_line(version: str | None, status: str) -> None:
    assert version_check(version, "2026.4").status == status
