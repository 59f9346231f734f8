"""`last-gateway-start`, the plain doctor's log-file check (spec gateway.md): only ever `info`, since the
file is shared by every gateway of the user; its own module, so offline doctor loads no live check.
"""

from __future__ import annotations

from vora_cli.core.doctor.model import INFO, WARN, CheckResult, Evidence
from vora_cli.core.doctor_names import LOG_CHECK_ID
from vora_cli.core.errors import VoraError
from vora_cli.core.install import Install

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.gateway.logfile import PluginFailure


def check_last_gateway_start(install: Install) -> CheckResult | None:
    """`info` from the newest ready line of the log file, or None when there is none."""
    from vora_cli.core.gateway.logfile import (
        configured_log_file,
        find_log_file,
        start_evidence_from_raw,
        tail_lines,
    )

    search = find_log_file(configured_log_file(install.effective), install.paths.home, install.paths.config_dir)
    path = search.path
    if path is None:
        if search.skipped:  # a folder another user controls: its files are not this gateway's evidence
            return CheckResult(LOG_CHECK_ID, WARN, f"the gateway's log folder was not read: {search.skipped[0]}",
                               (*(f"not read: {reason}" for reason in search.skipped),
                                "the gateway refuses such a folder too; remove it (or make it yours, mode 0700)"))
        return None
    try:
        raw, _ = tail_lines(path, 5000, max_bytes=1_000_000)
    except OSError:
        return None
    evidence = start_evidence_from_raw(raw, None)
    if evidence.loaded is None:
        return None
    loaded = ", ".join(evidence.loaded) or "no plugins"
    from vora_cli.core.gateway.shown import Masker, known_secrets

    # read from the file by vora, not through logs.tail: masked here (spec gateway.md), the run's
    # own secrets included
    failed = Masker(known_secrets(install.effective, install.env)).text("; ".join(f.text() for f in evidence.failed))
    message = f"a gateway started at {evidence.ready_at} and loaded {loaded}" + (f"; {failed}" if failed else "")
    details = (
        "this may belong to another gateway: the log file is shared by every gateway of this user on this host, its "
        "lines name no state dir or port, logging.file is not honoured, and files are deleted after 24 h",
        "a plugin listed as loaded may still not have registered the slot's engine",
        *_own_plugin_failures(install, evidence.failed),
        *(f"not read: {reason}" for reason in search.skipped),
    )
    return CheckResult(LOG_CHECK_ID, INFO, message, details, Evidence((), (str(path),)))


def _own_plugin_failures(install: Install, failures: tuple[PluginFailure, ...]) -> tuple[str, ...]:
    """The one reasonably specific signal: a failure whose path is inside a plugin this config uses."""
    if not failures:
        return ()
    try:
        roots = sorted({str(root).rstrip("/") + "/" for p in install.plugins.plugins
                        if p.source is not None and p.decision.enabled
                        for root in (p.source.root, p.source.root.resolve())})
    except (VoraError, OSError):
        return ()
    return tuple(f"{f.id} failed to load from {f.source}: inside {root.rstrip('/')}, a plugin this config uses"
                 for f in failures for root in roots if f.source and f.source.startswith(root))
