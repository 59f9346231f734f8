"""The doctor: every check of the spec table, composed (spec doctor.md)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from vora_cli.core.doctor import backup_check as bc
from vora_cli.core.doctor import config_checks as cc
from vora_cli.core.doctor import device_checks as dc
from vora_cli.core.doctor import plugin_checks as pc
from vora_cli.core.doctor import session_checks as sc
from vora_cli.core.doctor import workspace_checks as wc
from vora_cli.core.doctor.model import (
    ERROR,
    CheckResult,
    DoctorReport,
    Evidence,
    Location,
    skipped_check,
)
from vora_cli.core.doctor_names import (
    FAIL_ON_LEVELS,
    LOG_CHECK_ID,
    SELECTABLE_IDS,
    TABLE,
    skip_setting_error,
    unknown_check_ids,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.install import Install
from vora_cli.core.records import dataclass, fields, replace
from vora_cli.core.secrets import (
    OrderedSecrets,
    order_for_scrub,
    scrub,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class CheckSpec:
    """A doctor check: its id, its area and the function that runs it."""
    id: str
    area: str
    run: Callable[[Install], CheckResult]


# Each check id of the spec table (core/doctor_names.py, which holds their order and areas)
# and the function that runs it.
_RUN: dict[str, Callable[[Install], CheckResult]] = {
    "config-file": cc.check_config_file,
    "config-syntax": cc.check_config_syntax,
    "config-schema": cc.check_config_schema,
    "config-secrets": cc.check_config_secrets,
    "state-dir": cc.check_state_dir,
    "newer-gateway": cc.check_newer_gateway,
    "gateway-auth": cc.check_gateway_auth,
    "slot-context-engine": pc.check_slot_context_engine,
    "slot-memory": pc.check_slot_memory,
    "plugin-manifests": pc.check_plugin_manifests,
    "plugin-references": pc.check_plugin_references,
    "plugin-settings": pc.check_plugin_settings,
    "plugin-permissions": pc.check_plugin_permissions,
    "workspace": wc.check_workspace,
    "bootstrap-size": wc.check_bootstrap_size,
    "skills": wc.check_skills,
    "pairing-store": dc.check_pairing_store,
    "device-identity": dc.check_device_identity,
    "sessions-store": sc.check_sessions_store,
    "sessions-transcripts": sc.check_sessions_transcripts,
    "sessions-orphans": sc.check_sessions_orphans,
    "sessions-jsonl": sc.check_sessions_jsonl,
    "sessions-context": sc.check_sessions_context,
    "sessions-locks": sc.check_sessions_locks,
    "backup-restore": bc.check_backup_restore,
}
# In the order of the spec table; `area` groups the human output.
CHECKS: tuple[CheckSpec, ...] = tuple(CheckSpec(check_id, area, _RUN[check_id]) for check_id, area in TABLE)


@dataclass(frozen=True)
class CheckInfo:
    """One check as `vora doctor --list-checks` describes it."""

    id: str
    area: str
    verifies: str
    runs: str  # "offline" (every run), "log" (when the gateway's log has a ready line), "live" (--live)
    fix: str | None  # "auto": --fix applies it; "named": only `--fix ID`; None: a next step to type

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "area": self.area, "verifies": self.verifies, "runs": self.runs, "fix": self.fix}


def check_catalog() -> tuple[CheckInfo, ...]:
    """Every check id doctor knows, grouped by area in the report's order (the log's check with
    the gateway's, the live ones last)."""
    from vora_cli.core.doctor.fixes import FIXABLE, ONLY_WHEN_NAMED
    from vora_cli.core.doctor_names import AREA_OF, LIVE_CHECK_IDS, VERIFIES

    def runs(check_id: str) -> str:
        return "live" if check_id in LIVE_CHECK_IDS else "log" if check_id == LOG_CHECK_ID else "offline"

    def fix(check_id: str) -> str | None:
        return "named" if check_id in ONLY_WHEN_NAMED else "auto" if check_id in FIXABLE else None

    areas = list(dict.fromkeys(AREA_OF[i] for i in SELECTABLE_IDS))
    ordered = sorted(SELECTABLE_IDS, key=lambda i: areas.index(AREA_OF[i]))
    return tuple(CheckInfo(i, AREA_OF[i], VERIFIES[i], runs(i), fix(i)) for i in ordered)


def select_checks(only: Sequence[str] = (), skip: Sequence[str] = (), checks: Sequence[CheckSpec] = CHECKS,
                  known: Sequence[str] = SELECTABLE_IDS) -> tuple[CheckSpec, ...]:
    """The checks to run of `checks` (the doctor's, or the audit's); an id not in `known` is a usage
    error with a "did you mean"."""
    for check_id in (*only, *skip):
        if check_id not in known:
            from vora_cli.core.wording import closest  # a typo's "did you mean" only

            near = closest(check_id, known)
            hint = f"did you mean {near}? " if near else ""
            raise VoraError("usage", f"unknown check id {check_id!r}", f"{hint}check ids: {', '.join(known)}")
    return tuple(c for c in checks if (not only or c.id in only) and c.id not in skip)


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
    return set(install.secret_values)


def scrub_result(result: CheckResult, secrets: Collection[str]) -> CheckResult:
    """`result` with every known secret value hidden in its texts (`secrets`: `order_for_scrub`'s,
    ordered once a run)."""
    if not secrets:
        return result
    ordered = secrets if isinstance(secrets, OrderedSecrets) else order_for_scrub(secrets)

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
    secrets = order_for_scrub(_collect_secrets(install))
    results = tuple(scrub_result(_run_one(spec, install), secrets) for spec in checks)
    if log_check:
        from vora_cli.core.doctor.log_check import check_last_gateway_start

        try:
            found = check_last_gateway_start(install)
        except (VoraError, OSError):
            found = None  # an info check never turns into a finding of its own
        if found is not None:
            results = (*results, scrub_result(found, secrets))
    return DoctorReport(install.paths.state_dir, install.paths.config_path, results)


def run_doctor(
    install: Install,
    *,
    only: Sequence[str] = (),
    skip: Sequence[str] = (),
    fail_on: str | None = None,
) -> DoctorReport:
    """Run the selected checks on `install`: read-only, offline, no prompt.

    `skip` empty: the `doctor.skip` setting minus what `only` names; `fail_on` None: the
    `doctor.fail_on` setting (docs/settings.md). A check left out is reported `skip`, saying
    which one left it out (`report.skipped_by`)."""
    _ = install.now_ms  # the checks' clock, read first: a bad VORA_NOW_MS is a usage error before any check
    level = install.settings.value("doctor.fail_on", fail_on)
    if level not in FAIL_ON_LEVELS:
        raise VoraError("usage", f"invalid --fail-on {level!r}",
                        "use " + " or ".join(f"--fail-on {choice}" for choice in FAIL_ON_LEVELS))
    skipped_by = skip_reasons(install, only, skip)
    checks = select_checks(only, tuple(skipped_by))
    log_check = (not only or LOG_CHECK_ID in only) and LOG_CHECK_ID not in skipped_by
    report = run_checks(install, checks, log_check=log_check)
    wanted = [c.id for c in CHECKS if (not only or c.id in only) and c.id in skipped_by]
    left_out = {check_id: skipped_check(check_id, skipped_by[check_id]) for check_id in wanted}
    order = {c.id: i for i, c in enumerate(CHECKS)}
    results = sorted((*report.checks, *left_out.values()), key=lambda c: order.get(c.id, len(order)))
    return replace(report, checks=tuple(results), fail_on=level, skipped_by=tuple(skipped_by.items()))


def skip_reasons(install: Install, only: Sequence[str], skip: Sequence[str]) -> dict[str, str]:
    """Each check id left out, with what left it out: `--skip`, else the `doctor.skip` setting
    (minus what `only` names; an unknown id in it is an error)."""
    if skip:
        return dict.fromkeys(skip, "--skip")
    resolved = install.settings.resolve("doctor.skip")
    for unknown in unknown_check_ids(resolved.value)[:1]:
        raise skip_setting_error(unknown, f" in {resolved.origin}", "fix it with vora settings set doctor.skip ID,ID")
    where = "the doctor.skip setting" + (f" ({resolved.origin})" if resolved.source != "default" else "")
    return {c: where for c in resolved.value if c not in only}
