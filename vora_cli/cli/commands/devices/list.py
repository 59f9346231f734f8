"""`vora devices list`: pending requests (kind, age, time left) and paired devices (token state,
never a token)."""

from __future__ import annotations

from collections.abc import Iterable

from vora_cli.cli.declare import command
from vora_cli.cli.tables import Cell

# At the top, not in each function: a `from` import inside a function called once per row costs a
# module lookup and a failed `__path__` probe every time.
from vora_cli.core.devices.rules import (
    KIND_LABELS,
    KIND_METADATA,
    format_duration,
    minimal_scopes,
    unique_prefixes,
)
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.views import Listing, PairedView, PendingView


@command("list", hot=True, examples=("vora devices list --pending",))
def devices_list(
    state: AppState,
    pending: Annotated[bool, typer.Option("--pending", help="Only pending pairing requests.")] = False,
    paired: Annotated[bool, typer.Option("--paired", help="Only paired devices.")] = False,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List pending pairing requests and paired devices (tokens are never shown)."""
    from vora_cli.core.devices.views import list_devices

    both = pending == paired
    listing = list_devices(state.install, pending=both or pending, paired=both or paired)
    out = state.output(json, no_headers=no_headers)
    payload: dict[str, object] = {"stateDir": listing.state_dir, "nowMs": listing.now_ms}
    if out.json_mode:  # building the JSON data of 1,000 devices costs time a table does not need
        if both or pending:
            payload["pending"] = [p.to_dict() for p in listing.pending]
        if both or paired:
            if out.run.streams_json():  # the paired devices streamed, one batch at a time
                from vora_cli.cli.streaming import stream_json

                stream_json({**payload, "paired": []}, (p.to_dict() for p in listing.paired))
                return 0
            payload["paired"] = [p.to_dict() for p in listing.paired]

    def human(out: Output) -> None:
        if both or pending:
            render_pending(out, listing)
        if both:
            out.line()
        if both or paired:
            render_paired(out, listing)

    return out.emit(payload, human)


def _kind_cell(view: PendingView, fitted: bool) -> str | Cell:
    """The kinds (a metadata change left to the CHANGES column when there is more to say); its
    short form only for a table `fitted` to a terminal, the one place it can be shown."""
    c = view.classification
    labels = [KIND_LABELS[k] for k in c.kinds]
    text = " + ".join(labels)
    if c.public_key_changed:
        text = "!! DIFFERENT PUBLIC KEY !! " + text
    if not fitted:
        return text
    short = " + ".join([KIND_LABELS[k] for k in c.kinds if k != KIND_METADATA] or labels)
    return Cell(text, "!! NEW KEY !! " + short if c.public_key_changed else short)


def _scopes_cell(view: PendingView, fitted: bool) -> str | Cell:
    """Every scope asked for, the new ones marked `+`; shorter: only those no other one implies."""
    added = set(view.classification.changes)

    def said(scopes: Iterable[str]) -> str:
        return ", ".join([f"+{s}" if f"+{s}" in added else s for s in scopes]) or "-"

    if not fitted:
        return said(view.scopes)
    return Cell(said(view.scopes), said(minimal_scopes(view.scopes)))


def _changes_text(view: PendingView) -> str:
    """What else the request changes on the paired record (platform, name): not its roles or scopes."""
    kept = [ch for ch in view.classification.changes
            if not ch.startswith(("+", "role: ", "publicKey"))]
    return "; ".join(kept) or "-"


def render_pending(out: Output, listing: Listing) -> None:
    if not listing.pending:
        out.line("No pending pairing requests.")
        return
    prefix = unique_prefixes(v.request_id for v in listing.pending)
    # a cell's short form is only ever shown on a terminal: elsewhere it is its text alone
    fitted = out.table_is_fitted
    rows: list[list[str | Cell]] = []
    for v in listing.pending:
        rows.append([
            Cell(v.request_id, prefix[v.request_id]) if fitted else v.request_id, v.name, _kind_cell(v, fitted),
            ", ".join(v.roles) or "-", _scopes_cell(v, fitted), v.remote_ip or "-", age_text(v), left_text(v),
            _changes_text(v),
        ])
    out.table(["REQUEST", "DEVICE", "KIND", "ROLES", "SCOPES", "IP", "AGE", "LEFT", "CHANGES"], rows,
              title=f"Pending requests ({len(listing.pending)})", keep=2, whole=("KIND", "ROLES", "SCOPES", "LEFT"))
    flagged = [v for v in listing.pending if v.classification.public_key_changed]
    for v in flagged:
        out.warn(f"request {v.request_id} claims the paired device id {v.device_id[:12]} with a DIFFERENT public key")
    for v in listing.pending:
        for problem in v.problems:
            out.warn(f"pending.json: request {v.request_id}: {problem}")
    live = [v for v in listing.pending if not v.expired]
    if live:
        first = prefix[live[0].request_id]
        out.note(f"Approve with: {command_line('vora', 'devices', 'approve', first)}  (or --device ID, or --latest)")


def age_text(view: PendingView) -> str:
    if view.future_by_ms is not None:
        return f"{format_duration(view.future_by_ms)} ahead"
    return "unknown" if view.age_ms is None else format_duration(view.age_ms)


def left_text(view: PendingView) -> str:
    if view.expired:
        return "expired"
    if view.expires_in_ms is None:
        return "future-dated"
    return format_duration(view.expires_in_ms)


def token_text(view: PairedView, now: int, *, short: bool = False) -> str:
    """Each token's state and when it was minted: `rotated 3s ago` once it was rotated (a scope
    upgrade mints a new one), else `created`; `short` leaves out when it was last used."""
    parts = []
    for t in view.tokens:
        # `ago`, inline: a paired table of 1,000 devices says five times per token
        if t.state == "revoked":
            when = t.revoked_at_ms
            state = "revoked never" if when is None else f"revoked {format_duration(now - when)} ago"
        else:
            state = "active" if t.state == "active" else "revocation unknown"
        if t.rotated_at_ms is not None:
            minted = f"rotated {format_duration(now - t.rotated_at_ms)} ago"
        else:
            minted = "created unknown" if t.created_at_ms is None else f"created {format_duration(now - t.created_at_ms)} ago"
        if short:
            parts.append(f"{t.role}: {state}, {minted}")
        else:
            used = "never" if t.last_used_at_ms is None else f"{format_duration(now - t.last_used_at_ms)} ago"
            parts.append(f"{t.role}: {state}, {minted}, used {used}")
    return "; ".join(parts) or "none"


def render_paired(out: Output, listing: Listing) -> None:
    if not listing.paired:
        out.line("No paired devices.")
        return
    now = listing.now_ms
    # a cell's short form is only ever shown on a terminal: elsewhere it is its text alone
    fitted = out.table_is_fitted
    rows: list[list[str | Cell]] = []
    for v in listing.paired:
        scopes, tokens = ", ".join(v.approved_scopes) or "-", token_text(v, now)
        row: list[str | Cell] = [v.device_id[:12], v.name, scopes, tokens, ", ".join(v.roles) or "-",
                                 v.label or "-", v.platform or "-"]
        if fitted:
            row[2] = Cell(scopes, ", ".join(minimal_scopes(v.approved_scopes)) or "-")
            row[3] = Cell(tokens, token_text(v, now, short=True))
        rows.append(row)
    out.table(["ID", "DEVICE", "SCOPES", "TOKENS", "ROLES", "LABEL", "PLATFORM"], rows,
              title=f"Paired devices ({len(listing.paired)})", keep=2, whole=("SCOPES", "TOKENS"))
    for v in listing.paired:
        for problem in v.problems:
            out.warn(f"paired.json: device {v.device_id[:12]}: {problem}")
