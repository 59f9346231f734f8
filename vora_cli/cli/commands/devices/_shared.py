"""What the `vora devices` commands share: the clock text, the request kind, the "what was
written" lines, one selector, a device change's report."""

from __future__ import annotations

from vora_cli.core.devices.rules import KIND_LABELS, format_duration
from vora_cli.core.errors import VoraError
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.operations import DeviceResult
    from vora_cli.core.devices.transaction import WriteReport
    from vora_cli.core.devices.views import PendingView


def ago(ms: int | None, now: int) -> str:
    if ms is None:
        return "never"
    return f"{format_duration(now - ms)} ago"


def kind_text(view: PendingView) -> str:
    """The request's kind with every change it asks for: one line (the approve question)."""
    c = view.classification
    text = " + ".join(KIND_LABELS[k] for k in c.kinds)
    changes = [ch for ch in c.changes if not ch.startswith("publicKey")]
    if changes:
        text += f" ({'; '.join(changes)})"
    if c.public_key_changed:
        text = "!! DIFFERENT PUBLIC KEY !! " + text
    return text


def report_written(out: Output, report: WriteReport) -> None:
    """Say which files were written (or would be, with --dry-run): stderr, like every write note.

    stdout holds the command's data only (spec README, "Output contract"), as `config` and
    `plugins` do with their `Wrote <file>`.
    """
    if report.dry_run:
        out.note("Dry run: nothing written" + (f"; would write {', '.join(report.written)}" if report.written else ""))
    elif report.written:
        out.note(f"Wrote {', '.join(report.written)}")
    else:
        out.note("Nothing to change; nothing written")
    if report.dropped_expired:
        out.note(f"Dropped {plural(len(report.dropped_expired), 'expired request')} from pending.json")
    if report.attempts > 1:
        out.note(f"The store changed while vora wrote it (the gateway?); redone on the fresh content "
                 f"({report.attempts} attempts)")
    for warning in report.warnings:
        out.warn(warning)


def require_one_selector(request_id: str | None, device: str | None, latest: bool, *, allow_latest: bool) -> None:
    given = sum(x is not None and x is not False for x in (request_id, device, latest))
    if given != 1:
        choices = "REQUEST_ID, --device ID" + (" or --latest" if allow_latest else "")
        raise VoraError("usage", f"name exactly one request: {choices}", "'vora devices list --pending' shows them")


def emit_device(state: AppState, json: bool, result: DeviceResult) -> None:

    def human(out: Output) -> None:
        verb = "would " + result.action if result.report.dry_run else result.action
        out.line(f"{result.name} ({result.device_id[:12]}): {verb}: {result.detail}")
        if result.changed or result.report.dry_run:
            report_written(out, result.report)

    state.output(json).emit(result.to_dict(), human)
