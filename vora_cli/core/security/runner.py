"""The audit: its checks, in order, run by the doctor's engine (docs/security.md, "Checks")."""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.core.doctor.model import ERROR, WARN, CheckResult
from vora_cli.core.doctor.runner import CheckSpec, run_checks, select_checks
from vora_cli.core.install import Install
from vora_cli.core.records import replace
from vora_cli.core.security import backup_checks as bc
from vora_cli.core.security import channel_checks as ch
from vora_cli.core.security import file_checks as fc
from vora_cli.core.security import gateway_checks as gc
from vora_cli.core.security import host_checks as hc
from vora_cli.core.security import model_checks as mc
from vora_cli.core.security import plugin_checks as pc
from vora_cli.core.security import policy_checks as po
from vora_cli.core.security import secret_checks as sc
from vora_cli.core.security import skill_checks as sk
from vora_cli.core.security.model import CRITICAL, SecurityReport, finding, findings_of

CHECKS: tuple[CheckSpec, ...] = (
    CheckSpec("state-dir", "Files", fc.check_state_dir),
    CheckSpec("config-files", "Files", fc.check_config_files),
    CheckSpec("credentials", "Files", fc.check_credentials),
    CheckSpec("devices", "Files", fc.check_devices),
    CheckSpec("sessions", "Files", fc.check_sessions),
    CheckSpec("transcript-secrets", "Files", fc.check_transcript_secrets),
    CheckSpec("logs", "Files", fc.check_logs),
    CheckSpec("vora-files", "Files", fc.check_vora_files),
    CheckSpec("backups", "Files", bc.check_backups),
    CheckSpec("synced-folder", "Files", po.check_synced_folder),
    CheckSpec("gateway-auth", "Gateway", gc.check_gateway_auth),
    CheckSpec("gateway-token", "Gateway", gc.check_gateway_token),
    CheckSpec("gateway-env-token", "Gateway", gc.check_gateway_env_token),
    CheckSpec("gateway-rate-limit", "Gateway", gc.check_gateway_rate_limit),
    CheckSpec("control-ui", "Gateway", gc.check_control_ui),
    CheckSpec("gateway-proxy", "Gateway", gc.check_gateway_proxy),
    CheckSpec("tailscale", "Gateway", gc.check_tailscale),
    CheckSpec("mdns", "Gateway", gc.check_mdns),
    CheckSpec("log-redaction", "Gateway", gc.check_log_redaction),
    CheckSpec("gateway-http", "Gateway", gc.check_gateway_http),
    CheckSpec("dangerous-flags", "Gateway", gc.check_dangerous_flags),
    CheckSpec("browser-control", "Gateway", mc.check_browser_control),
    CheckSpec("hooks", "Gateway", po.check_hooks),
    CheckSpec("nodes", "Gateway", hc.check_nodes),
    CheckSpec("plaintext-secrets", "Secrets", sc.check_plaintext_secrets),
    CheckSpec("plugins-allowlist", "Plugins", pc.check_plugins_allowlist),
    CheckSpec("plugin-installs", "Plugins", pc.check_plugin_installs),
    CheckSpec("plugin-entries", "Plugins", pc.check_plugin_entries),
    CheckSpec("plugin-code", "Plugins", pc.check_plugin_code),
    CheckSpec("plugin-tools", "Plugins", pc.check_plugin_tools),
    CheckSpec("channel-policies", "Channels and tools", ch.check_channel_policies),
    CheckSpec("elevated-tools", "Channels and tools", ch.check_elevated_tools),
    CheckSpec("exec-tools", "Channels and tools", ch.check_exec_tools),
    CheckSpec("sandbox", "Channels and tools", hc.check_sandbox),
    CheckSpec("skills", "Channels and tools", sk.check_skills),
    CheckSpec("tool-profile", "Channels and tools", po.check_tool_profile),
    CheckSpec("models", "Channels and tools", mc.check_models),
    CheckSpec("attack-surface", "Channels and tools", ch.check_attack_surface),
)
# The live findings (`--live`), outside the table: they need a running gateway.
LIVE_CHECK_IDS = ("live-gateway",)
CHECK_IDS = tuple(c.id for c in CHECKS)
SELECTABLE_IDS = (*CHECK_IDS, *LIVE_CHECK_IDS)
AREA_OF = {c.id: c.area for c in CHECKS} | dict.fromkeys(LIVE_CHECK_IDS, "Live gateway")
# What `--fix` can do: every file check's chmod, and a new gateway token. The token rewrites
# vora.json, so it is applied only when named (`--fix gateway-token`).
FIXABLE = ("state-dir", "config-files", "credentials", "devices", "sessions", "logs", "vora-files", "backups",
           "gateway-token")
ONLY_WHEN_NAMED = ("gateway-token",)
FAIL_ON = ("critical", "warn", "info")


def _as_finding(check: CheckResult, install: Install) -> CheckResult:
    """A check that could not look (the engine reports it as an error) becomes a `warn` finding:
    not knowing is worth a look, not a critical alarm."""
    if check.status != ERROR or findings_of(check):
        return check
    lost = finding(WARN, f"could not check {check.id}", check.message, "run the audit again as the install's owner",
                   file=install.paths.config_path)
    return replace(check, status=WARN, locations=(lost,))


def run_audit(install: Install, checks: Sequence[CheckSpec], *, fail_on: str = CRITICAL) -> SecurityReport:
    """Run `checks` on `install`: read-only, offline, every secret scrubbed (the doctor's engine)."""
    report = run_checks(install, checks)
    report = replace(report, checks=tuple(_as_finding(c, install) for c in report.checks))
    return SecurityReport(report, fail_on, AREA_OF)


def run_security_audit(
    install: Install,
    *,
    only: Sequence[str] = (),
    skip: Sequence[str] = (),
    fail_on: str = CRITICAL,
) -> SecurityReport:
    """The audit of `install` (the run's: its config read once, its clock, its env)."""
    return run_audit(install, select_checks(only, skip, CHECKS, SELECTABLE_IDS), fail_on=fail_on)
