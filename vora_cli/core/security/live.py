"""`vora security audit --live`: what the running gateway itself shows (docs/security.md, "--live"), a pure
function of what `vora gateway status` collected or the error that stopped it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from vora_cli.core.doctor.model import INFO, CheckResult, Evidence
from vora_cli.core.errors import VoraError
from vora_cli.core.security.model import CRITICAL, SecurityReport, check_result, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from vora_cli.core.gateway.status import GatewayStatus
    from vora_cli.core.install import Install

LIVE_ID = "live-gateway"
REFUSED = ("gateway-auth", "gateway-device-auth", "gateway-pairing-required")


def live_findings(found: GatewayStatus | VoraError, config_path: Path) -> CheckResult:
    evidence = Evidence(config=("gateway",))
    if isinstance(found, VoraError):
        if found.code in REFUSED:
            return check_result(LIVE_ID, [], f"the running gateway asks for a credential: {found.message}",
                                evidence=evidence)
        return check_result(LIVE_ID, [finding(INFO, "no running gateway answered", f"{found.message}; the live "
                                              "findings are left out", found.hint, file=config_path)], "",
                            evidence=evidence)
    hello = found.hello
    version = hello.server.get("version") or "?"
    url = found.target.shown_url
    if hello.credential.mode == "none":
        return check_result(LIVE_ID, [finding(
            CRITICAL, "the running gateway let vora in without any credential",
            f"gateway {version} at {url} accepted a connection with no token or password",
            "vora security audit --fix gateway-token, then restart the gateway", file=config_path,
            gateway=("gateway.loopback_no_auth", "gateway.bind_no_auth"))], "", evidence=evidence)
    return check_result(LIVE_ID, [], f"gateway {version} at {url} asked for a credential (vora sent "
                        f"{hello.credential.mode} from {hello.credential.source})", evidence=evidence)


class LiveAudit(NamedTuple):
    """The audit with its live finding added, and what to tell the operator on the way."""

    audit: SecurityReport
    warnings: tuple[str, ...]
    notes: tuple[str, ...]


def run_live(install: Install, audit: SecurityReport, *, url: str | None, timeout: float | None,
             only: Sequence[str] = (), skip: Sequence[str] = ()) -> LiveAudit:
    """`vora security audit --live`: ask the running gateway once (the doctor's `live_status`) and
    add the live finding, unless `--only`/`--skip` leave it out."""
    from vora_cli.core.doctor.live_checks import live_status
    from vora_cli.core.doctor.runner import scrub_result
    from vora_cli.core.records import replace

    if (only and LIVE_ID not in only) or LIVE_ID in skip:
        return LiveAudit(audit, (), ())
    live = live_status(install, url, timeout)
    check = scrub_result(live_findings(live.found, install.paths.config_path), set())
    report = replace(audit.report, checks=(*audit.report.checks, check))
    return LiveAudit(replace(audit, report=report), live.warnings, live.notes)
