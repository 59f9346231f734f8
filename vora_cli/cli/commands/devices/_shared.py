"""What the `vora devices` commands share: the clock (`core/clock.py`), times, and the "what was written" lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vora_cli.cli.hot.devices import ago as ago  # the devices commands' one clock text
from vora_cli.core.errors import VoraError

if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.transaction import WriteReport


def report_written(out: Output, report: WriteReport) -> None:
    """Say which files were written (or would be, with --dry-run): stderr, like every write note.

    stdout holds the command's data only (spec README, "Output contract"), as `config` and
    `plugins` do with their `Wrote <file>`.
    """
    if report.dry_run:
        out.note("dry run: nothing written" + (f"; would write {', '.join(report.written)}" if report.written else ""))
    elif report.written:
        out.note(f"wrote {', '.join(report.written)}")
    else:
        out.note("nothing to change; nothing written")
    if report.dropped_expired:
        out.note(f"dropped {len(report.dropped_expired)} expired request(s) from pending.json")
    if report.attempts > 1:
        out.note(f"the store changed while vora wrote it (the gateway?); redone on the fresh content "
                 f"({report.attempts} attempts)")
    for warning in report.warnings:
        out.warn(warning)


def require_one_selector(request_id: str | None, device: str | None, latest: bool, *, allow_latest: bool) -> None:
    given = sum(x is not None and x is not False for x in (request_id, device, latest))
    if given != 1:
        choices = "REQUEST_ID, --device ID" + (" or --latest" if allow_latest else "")
        raise VoraError("usage", f"name exactly one request: {choices}", "'vora devices list --pending' shows them")
