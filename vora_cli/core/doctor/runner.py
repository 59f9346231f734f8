"""The doctor: every check of the spec table, composed (spec doctor.md)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from vora_cli.core.doctor import config_checks as cc
from vora_cli.core.doctor import device_checks as dc
from vora_cli.core.doctor import plugin_checks as pc
from vora_cli.core.doctor import session_checks as sc
from vora_cli.core.doctor import workspace_checks as wc
from vora_cli.core.doctor.model import (
    ERROR,
    LIVE_CHECK_IDS,
    LOG_CHECK_ID,
    CheckResult,
    DoctorReport,
    Evidence,
    Install,
    Location,
    read_install,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.secrets import (
    order_for_scrub,
    scrub,
    secret_values,
    secret_values_in_text,
)


@dataclass(frozen=True)
class CheckSpec:
    id: str
    area: str
    run: Callable[[Install], CheckResult]


# In the order of the spec table; `area` groups the human output.
CHECKS: tuple[CheckSpec, ...] = (
    CheckSpec("config-file", "Config", cc.check_config_file),
    CheckSpec("config-syntax", "Config", cc.check_config_syntax),
    CheckSpec("config-schema", "Config", cc.check_config_schema),
    CheckSpec("config-secrets", "Config", cc.check_config_secrets),
    CheckSpec("state-dir", "Config", cc.check_state_dir),
    CheckSpec("gateway-auth", "Gateway", cc.check_gateway_auth),
    CheckSpec("slot-context-engine", "Plugins", pc.check_slot_context_engine),
    CheckSpec("slot-memory", "Plugins", pc.check_slot_memory),
    CheckSpec("plugin-manifests", "Plugins", pc.check_plugin_manifests),
    CheckSpec("plugin-references", "Plugins", pc.check_plugin_references),
    CheckSpec("plugin-settings", "Plugins", pc.check_plugin_settings),
    CheckSpec("plugin-permissions", "Plugins", pc.check_plugin_permissions),
    CheckSpec("workspace", "Workspace", wc.check_workspace),
    CheckSpec("bootstrap-size", "Workspace", wc.check_bootstrap_size),
    CheckSpec("skills", "Workspace", wc.check_skills),
    CheckSpec("pairing-store", "Devices", dc.check_pairing_store),
    CheckSpec("device-identity", "Devices", dc.check_device_identity),
    CheckSpec("sessions-store", "Sessions", sc.check_sessions_store),
    CheckSpec("sessions-transcripts", "Sessions", sc.check_sessions_transcripts),
    CheckSpec("sessions-orphans", "Sessions", sc.check_sessions_orphans),
    CheckSpec("sessions-jsonl", "Sessions", sc.check_sessions_jsonl),
    CheckSpec("sessions-context", "Sessions", sc.check_sessions_context),
    CheckSpec("sessions-locks", "Sessions", sc.check_sessions_locks),
)
# Checks outside the table (their ids live in model.py): `last-gateway-start` (from the log file;
# present only when the file has a ready line) and the live checks, which only `vora doctor --live`
# adds (spec gateway.md).
CHECK_IDS = tuple(c.id for c in CHECKS)
SELECTABLE_IDS = (*CHECK_IDS, LOG_CHECK_ID, *LIVE_CHECK_IDS)
AREA_OF = {c.id: c.area for c in CHECKS} | {LOG_CHECK_ID: "Gateway"} | dict.fromkeys(LIVE_CHECK_IDS, "Live gateway")


def select_checks(only: Sequence[str] = (), skip: Sequence[str] = ()) -> tuple[CheckSpec, ...]:
    """The checks to run; an unknown id is a usage error with a "did you mean"."""
    import difflib

    for check_id in (*only, *skip):
        if check_id not in SELECTABLE_IDS:
            near = difflib.get_close_matches(check_id, SELECTABLE_IDS, n=1, cutoff=0.6)
            hint = f"did you mean {near[0]}? " if near else ""
            raise VoraError("usage", f"unknown check id {check_id!r}",
                            f"{hint}check ids: {', '.join(SELECTABLE_IDS)}")
    return tuple(c for c in CHECKS if (not only or c.id in only) and c.id not in skip)


def _run_one(spec: CheckSpec, install: Install) -> CheckResult:
    try:
        return spec.run(install)
    except VoraError as error:  # a check that cannot look is a finding, not a crash
        return CheckResult(spec.id, ERROR, error.message, (f"next: {error.hint}",) if error.hint else ())
    except OSError as error:
        return CheckResult(spec.id, ERROR, f"{error.filename or ''}: {error.strerror}".lstrip(": "))


# -- secrets never leave the doctor -------------------------------------------------------------

def _collect_secrets(install: Install) -> set[str]:
    """Every secret value the install holds: config secrets (as written and resolved), the
    environment's secret-named variables (VORA_GATEWAY_TOKEN, VORA_GATEWAY_PASSWORD, ...), and
    secret-named members of a config that did not parse."""
    found = secret_values(dict(install.env))
    if install.config is not None:
        found |= secret_values(install.config.value, install.effective)
    else:
        found.update(secret_values_in_text(cc.raw_config_text(install.paths.config_path) or ""))
    return found


def scrub_result(result: CheckResult, secrets: set[str]) -> CheckResult:
    if not secrets:
        return result
    ordered = order_for_scrub(secrets)

    def s(text: str) -> str:
        return scrub(text, ordered)

    fix = result.fix
    if fix is not None:
        fix = replace(fix, description=s(fix.description), command=s(fix.command) if fix.command else None)
    return replace(
        result,
        message=s(result.message),
        details=tuple(s(d) for d in result.details),
        evidence=Evidence(tuple(s(p) for p in result.evidence.config), tuple(s(f) for f in result.evidence.files)),
        fix=fix,
        locations=tuple(_scrub_location(loc, s) for loc in result.locations),
    )


def _scrub_location(location: Location, s: Callable[[str], str]) -> Location:
    """Every text field of a location (a `vora security audit` finding adds its own)."""
    texts: dict[str, Any] = {f.name: s(value) for f in fields(location) if isinstance(value := getattr(location, f.name), str)}
    return replace(location, **texts)


def run_checks(install: Install, checks: Sequence[CheckSpec], *, log_check: bool = False) -> DoctorReport:
    secrets = _collect_secrets(install)
    results = tuple(scrub_result(_run_one(spec, install), secrets) for spec in checks)
    if log_check:
        from vora_cli.core.doctor.live_checks import check_last_gateway_start

        try:
            found = check_last_gateway_start(install)
        except (VoraError, OSError):
            found = None  # an info check never turns into a finding of its own
        if found is not None:
            results = (*results, scrub_result(found, secrets))
    return DoctorReport(install.paths.state_dir, install.paths.config_path, results)


def run_doctor(
    paths: VoraPaths,
    *,
    only: Sequence[str] = (),
    skip: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
    now_ms: int | None = None,
) -> DoctorReport:
    """Run the selected checks on the install at `paths`: read-only, offline, no prompt."""
    checks = select_checks(only, skip)
    install = read_install(paths, os.environ if env is None else env, now_ms)
    log_check = (not only or LOG_CHECK_ID in only) and LOG_CHECK_ID not in skip
    return run_checks(install, checks, log_check=log_check)
