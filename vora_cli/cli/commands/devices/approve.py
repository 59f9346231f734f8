"""`vora devices approve`: approve a pairing request by id, by device, or the newest one."""

from __future__ import annotations

from vora_cli.cli.commands.devices._shared import kind_text, report_written, require_one_selector
from vora_cli.cli.declare import command
from vora_cli.core.devices.rules import KIND_LABELS, format_duration

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption, YesOption
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.approval import ApproveResult
    from vora_cli.core.devices.views import PendingView


@command("approve", hot=True, examples=("vora devices approve --latest", "vora devices approve --device 96ce6dad"))
def devices_approve(
    state: AppState,
    request_id: Annotated[str | None, typer.Argument(
        metavar="[REQUEST_ID]", help="The request id, or its first 8+ characters (see 'vora devices list').")] = None,
    device: Annotated[
        str | None, typer.Option("--device", metavar="ID", help="Approve the newest live request of this device (id or 8+ hex prefix).")
    ] = None,
    latest: Annotated[bool, typer.Option("--latest", help="Show the newest live request and ask; --yes approves it.")] = False,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> int:
    """Approve a pairing request: mints one fresh token per requested role (never printed)."""
    from vora_cli.cli.output import stdin_is_interactive
    from vora_cli.core.devices.approval import approve_request
    from vora_cli.core.devices.classify import grants_text
    from vora_cli.core.devices.lookup import Selection

    require_one_selector(request_id, device, latest, allow_latest=True)
    out = state.output(json)

    def look(view: PendingView) -> bool:
        """Say what is about to be approved, and ask: True, approve exactly this request."""
        c = view.classification
        if c.public_key_changed:
            out.warn(f"request {view.request_id} carries a DIFFERENT public key than the paired device "
                     f"{view.device_id[:12]}: another key is claiming a known device id")
        if not (latest or c.public_key_changed or c.widens) or dry_run:
            return False
        out.note(describe(view, kind_text(view)))
        granting = f", granting {grants_text(c)} it does not hold" if c.widens else ""
        out.confirm_or_cancel(f"Approve request {view.request_id} of {view.name}{granting}?", yes=yes)
        return True

    # Look first only when there may be a question to ask (--latest, or a terminal that can answer
    # one about a changed key or what a request grants); scripts go straight to the approval, which
    # refuses a changed key or a widening approval without --yes by itself.
    asks = latest or (not yes and not json and not dry_run and stdin_is_interactive())
    result = approve_request(state.install, Selection(request_id=request_id, device=device, latest=latest),
                             dry_run=dry_run, allow_key_change=yes, allow_widening=yes, look=look if asks else None)
    if result.classification.public_key_changed:
        out.warn(f"approved a DIFFERENT public key for the known device {result.device_id[:12]}")

    def human(o: Output) -> None:
        render_approval(o, result)

    return out.emit(result.to_dict(), human)


def describe(view: PendingView, kind: str) -> str:
    if view.future_by_ms is not None:
        age = f"dated {format_duration(view.future_by_ms)} in the future"
    else:
        age = "age unknown" if view.age_ms is None else format_duration(view.age_ms) + " old"
    return (f"request {view.request_id}: {view.name} ({view.device_id[:12]}), {kind}; "
            f"roles {', '.join(view.roles) or '-'}; scopes {', '.join(view.scopes) or '-'}; "
            f"from {view.remote_ip or '?'}, {age}")


def render_approval(out: Output, result: ApproveResult) -> None:
    c = result.classification
    changes = f" ({'; '.join(c.changes)})" if c.changes else ""
    verb = "Would approve" if result.report.dry_run else "Approved"
    out.line(f"{verb} request {result.request_id} of {result.name} ({result.device_id[:12]}): "
             f"{KIND_LABELS[c.kind]}{changes}")
    out.line(f"  roles:  {', '.join(result.roles) or '-'}")
    out.line(f"  scopes: {', '.join(result.approved_scopes) or '-'}")
    for t in result.tokens:
        how = "rotated" if t.rotated else "new"
        out.line(f"  token:  {t.role} ({how}; scopes {', '.join(t.scopes) or '-'}); the device receives it when it connects")
    report_written(out, result.report)
    if not result.report.dry_run:
        out.note(f"The approval {result.takes_effect}.")
