"""`vora doctor --live` (spec gateway.md, `vora doctor --live`).

The live checks are pure functions of what `vora gateway status` collected (or of the error
that stopped it); the CLI does the connecting. The offline log-file check is `log_check.py`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from vora_cli.core.doctor.model import (
    ERROR,
    INFO,
    PASS,
    SKIP,
    WARN,
    CheckResult,
    DoctorReport,
    Evidence,
    Fix,
    skipped_check,
)
from vora_cli.core.doctor.plugin_checks import SEEN_NOTE
from vora_cli.core.doctor_names import LIVE_CHECK_IDS
from vora_cli.core.errors import VoraError
from vora_cli.core.install import Install
from vora_cli.core.records import replace

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.gateway.status import GatewayStatus

LIVE_NOTE = "its files check out and the running gateway loaded it"
GATEWAY = Evidence(config=("gateway",), files=())
# The gateway answered, then refused vora: reachable passes and the auth check carries the error.
REFUSED_CODES = ("gateway-auth", "gateway-device-auth", "gateway-pairing-required")
SLOT_CHECKS = {"contextEngine": ("live-slot-context-engine", "slot-context-engine"),
               "memory": ("live-slot-memory", "slot-memory")}


def _check(check_id: str, status: str, message: str, details: tuple[str, ...] = (),
           command: str | None = None, action: str | None = None) -> CheckResult:
    fix = Fix(check_id, "command", action or message, command) if command else None
    return CheckResult(check_id, status, message, details, GATEWAY, fix)


def live_checks_failed(error: VoraError) -> tuple[CheckResult, ...]:
    """The live checks when the handshake did not complete."""
    hint = (f"next: {error.hint}",) if error.hint else ()
    skipped = "skipped: the gateway did not complete the handshake"
    if error.code not in REFUSED_CODES:
        first = (_check("gateway-reachable", ERROR, error.message, hint),
                 _check("gateway-live-auth", SKIP, skipped))
    else:  # it answered, then refused vora
        command = None
        if error.code == "gateway-pairing-required":
            from vora_cli.core.gateway.failures import LATEST, PairingRequired

            command = error.command if isinstance(error, PairingRequired) else LATEST
        first = (_check("gateway-reachable", PASS, "the gateway answered (then refused vora)"),
                 _check("gateway-live-auth", ERROR, error.message, hint, command,
                        action="approve this device" if command else None))
    rest = tuple(_check(i, SKIP, skipped) for i in LIVE_CHECK_IDS[2:])
    return first + rest


def version_check(version: str | None, release: str) -> CheckResult:
    """`gateway-version`: pass in the release line (YEAR.MONTH.x) vora's formats follow."""
    line = f"{release}.x"
    if not version:
        return _check("gateway-version", WARN, f"the gateway did not say its version (vora follows {line})")
    match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(.*)", version.strip())
    if match and f"{match.group(1)}.{match.group(2)}" == release:
        if match.group(4):
            return _check("gateway-version", INFO, f"gateway {version}: a build of {line}, the line vora follows")
        return _check("gateway-version", PASS, f"gateway {version} (vora follows {line})")
    return _check("gateway-version", WARN, f"gateway {version} is not in the release line vora follows ({line})",
                  ("file formats may differ: check `vora doctor` findings against the gateway's own docs",))


def _slot_check(status: GatewayStatus, slot: str) -> CheckResult:
    check_id = SLOT_CHECKS[slot][0]
    live = status.slot(slot)
    if live.builtin:
        what = "memory disabled by choice" if live.configured.lower() == "none" else "built in"
        return _check(check_id, PASS, f"{slot}: {live.configured} ({what})")
    evidence = status.evidence
    if evidence.loaded is None:
        return _check(check_id, WARN, f"{slot}: {live.configured}: no ready line of this gateway start in the log "
                      "tail; restart the gateway or check `vora logs`", command="vora logs --limit 500",
                      action="read the gateway's log of this start")
    if live.loaded:
        return _check(check_id, PASS, f"{slot}: {live.configured} is loaded by this gateway start "
                      f"(ready at {evidence.ready_at})")
    failures = [f for f in evidence.failed if f.id == live.configured]
    details = tuple(f.text() for f in failures[1:])
    reason = f": {failures[0].text()}" if failures else " (no failure line for it in the log)"
    return _check(check_id, ERROR, f"{slot}: the running gateway did not load {live.configured}{reason}", details,
                  command="vora logs --limit 500", action="read the gateway's log of this start")


def _memory_check(status: GatewayStatus) -> CheckResult:
    memory = status.memory
    if not memory.get("answered"):
        return _check("live-memory", WARN, f"doctor.memory.status did not answer: {memory.get('error')}")
    if not memory.get("runtime"):
        # the gateway answers even without a memory runtime: that answer is the failure `--live` is
        # run to catch, unless the config turned memory off
        slot = status.slot("memory").configured
        reason = memory.get("error") or "no memory provider"
        if slot.lower() == "none":
            return _check("live-memory", PASS, f"no memory runtime, as configured (plugins.slots.memory: none): {reason}")
        return _check("live-memory", ERROR, f"the running gateway has no memory runtime for {slot}: {reason}",
                      ("the memory slot's plugin did not load or register; its failure, if logged, is in the "
                       "gateway's log of this start",),
                      command="vora logs --limit 500", action="read the gateway's log of this start")
    if not memory.get("embeddingOk"):
        return _check("live-memory", INFO, f"memory runtime answered; embeddings unavailable: "
                      f"{memory.get('error') or 'unknown'}")
    return _check("live-memory", PASS, f"memory runtime answered (provider {memory.get('provider') or '?'})")


def live_checks(status: GatewayStatus, release: str) -> tuple[CheckResult, ...]:
    hello = status.hello
    cred = hello.credential
    auth = "no credential" if cred.mode == "none" else f"{cred.mode} from {cred.source}"
    return (
        _check("gateway-reachable", PASS, f"{status.target.shown_url} ({status.target.how_chosen}) answered; handshake "
               f"in {hello.latency_ms} ms"),
        _check("gateway-live-auth", PASS, f"accepted: {auth}; scopes {', '.join(hello.scopes)}"),
        version_check(hello.server.get("version"), release),
        _slot_check(status, "contextEngine"),
        _slot_check(status, "memory"),
        _memory_check(status),
    )


class LiveRun(NamedTuple):
    """`vora doctor --live`: the report with the live checks merged in, and what to tell the operator
    on the way (the target's warnings, the note that this host's identity was just created)."""

    report: DoctorReport
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


class LiveStatus(NamedTuple):
    """What `vora gateway status` collects (or the error that stopped it: a gateway that does not
    answer is a finding of `--live`, not a crash), and what to tell the operator on the way."""

    found: GatewayStatus | VoraError
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


def live_status(install: Install, url: str | None, timeout: float | None) -> LiveStatus:
    """Ask the running gateway once (read-only, one WebSocket): the `--live` of `vora doctor` and
    `vora security audit`. The version it reports is kept for `plugins install`'s compat check."""
    from vora_cli.core.gateway.connect import open_client, setup_gateway
    from vora_cli.core.gateway.status import collect_status

    warnings: list[str] = []
    notes: list[str] = []
    try:
        found = setup_gateway(install, url)
        warnings.extend(found.target.warnings)
        with open_client(install, found, timeout, notes=notes) as client:
            status = collect_status(client, found.config)
    except VoraError as error:
        return LiveStatus(error, tuple(warnings), tuple(notes))
    _remember_version(install, status)
    return LiveStatus(status, tuple(warnings), tuple(notes))


def run_live(install: Install, report: DoctorReport, *, url: str | None, timeout: float | None,
             only: Sequence[str] = (), skip: Sequence[str] = ()) -> LiveRun:
    """`vora doctor --live`: the offline `report` with the live checks of spec gateway.md merged in."""
    from vora_cli.core.gateway.status import SUPPORTED_RELEASE

    live = live_status(install, url, timeout)
    if isinstance(live.found, VoraError):
        merged = merge_live(report, live_checks_failed(live.found), None, tuple(only), tuple(skip))
    else:
        merged = merge_live(report, live_checks(live.found, SUPPORTED_RELEASE), live.found, tuple(only), tuple(skip))
    return LiveRun(merged, live.warnings, live.notes)


def _remember_version(install: Install, status: GatewayStatus) -> None:
    """What `plugins install` checks a plugin's `compat` against (docs/plugins.md): the version
    the live gateway reported, kept in vora's cache; a cache file vora could not write changes
    no finding."""
    version = status.hello.server.get("version")
    if not (isinstance(version, str) and version.strip()):
        return
    from vora_cli.core.plugins.compat import remember_live_gateway_version

    try:
        remember_live_gateway_version(install.paths.state_dir, version.strip(), install.now_ms,
                                      lock_timeout=install.lock_timeout)
    except (VoraError, OSError):
        pass


def merge_live(report: DoctorReport, live: tuple[CheckResult, ...], status: GatewayStatus | None,
               only: tuple[str, ...] = (), skip: tuple[str, ...] = ()) -> DoctorReport:
    """The offline report with the live checks appended (selected like the others); a slot the
    running gateway loaded says so in its offline message."""
    checks = list(report.checks)
    if status is not None:
        for slot, (_, offline_id) in SLOT_CHECKS.items():
            loaded = status.slot(slot).loaded
            for i, check in enumerate(checks):
                if check.id == offline_id and loaded and SEEN_NOTE in check.message:
                    checks[i] = replace(check, message=check.message.replace(SEEN_NOTE, LIVE_NOTE))
    left_out = {**dict(report.skipped_by), **dict.fromkeys(skip, "--skip")}
    chosen = [skipped_check(c.id, left_out[c.id]) if c.id in left_out else c
              for c in live if not only or c.id in only]
    return replace(report, checks=(*checks, *chosen))
