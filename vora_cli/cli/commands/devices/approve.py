"""`vora devices approve`: approve a pairing request by id, by device, or the newest one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from vora_cli.cli.commands.devices._shared import report_written, require_one_selector
from vora_cli.cli.common import DryRunOption, JsonOption, YesOption, install_of, output
from vora_cli.cli.output import stdin_is_interactive
from vora_cli.core.errors import VoraError

if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.approval import ApproveResult
    from vora_cli.core.devices.views import PendingView


def devices_approve(
    ctx: typer.Context,
    request_id: Annotated[str | None, typer.Argument(
        metavar="[REQUEST_ID]", help="The request id, or its first 8+ characters (see 'vora devices list').")] = None,
    device: Annotated[
        str | None, typer.Option("--device", metavar="ID", help="Approve the newest live request of this device (id or 8+ hex prefix).")
    ] = None,
    latest: Annotated[bool, typer.Option("--latest", help="Show the newest live request and ask; --yes approves it.")] = False,
    yes: YesOption = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Approve a pairing request: mints one fresh token per requested role (never printed)."""
    from vora_cli.cli.hot.devices import kind_text
    from vora_cli.core.devices.approval import approve_request
    from vora_cli.core.devices.lookup import Selection, preview_request

    require_one_selector(request_id, device, latest, allow_latest=True)
    out = output(ctx, json)
    install = install_of(ctx)
    selection = Selection(request_id=request_id, device=device, latest=latest)
    allow_key_change = yes
    # Look first only when there may be a question to ask (--latest, or a terminal that can answer
    # one about a changed key); scripts go straight to the approval, which refuses a changed key
    # without --yes by itself.
    if latest or (not yes and not json and not dry_run and stdin_is_interactive()):
        view = preview_request(install, selection)
        key_changed = view.classification.public_key_changed
        if key_changed:
            out.warn(f"request {view.request_id} carries a DIFFERENT public key than the paired device "
                     f"{view.device_id[:12]}: another key is claiming a known device id")
        if (latest or key_changed) and not dry_run:
            out.note(describe(view, kind_text(view)))
            if not out.confirm(f"Approve request {view.request_id} of {view.name}?", yes=yes):
                raise VoraError("refused", "not approved", "nothing was written")
            selection = Selection(request_id=view.request_id)  # exactly the request the operator saw
            allow_key_change = True
    result = approve_request(install, selection, dry_run=dry_run, allow_key_change=allow_key_change)
    if result.classification.public_key_changed:
        out.warn(f"approved a DIFFERENT public key for the known device {result.device_id[:12]}")

    def human(o: Output) -> None:
        render_approval(o, result)

    out.emit(result.to_dict(), human)


def describe(view: PendingView, kind: str) -> str:
    from vora_cli.core.devices.rules import format_duration

    if view.future_by_ms is not None:
        age = f"dated {format_duration(view.future_by_ms)} in the future"
    else:
        age = "age unknown" if view.age_ms is None else format_duration(view.age_ms) + " old"
    return (f"request {view.request_id}: {view.name} ({view.device_id[:12]}), {kind}; "
            f"roles {', '.join(view.roles) or '-'}; scopes {', '.join(view.scopes) or '-'}; "
            f"from {view.remote_ip or '?'}, {age}")


def render_approval(out: Output, result: ApproveResult) -> None:
    from vora_cli.core.devices.rules import KIND_LABELS

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
