"""The body of `vora devices list`: pending requests (kind, age, time left) and paired devices
(token state, never a token), and the renderers `devices approve` shares."""

from __future__ import annotations

from typing import TYPE_CHECKING

from vora_cli.cli.tables import Cell
from vora_cli.core.shell import command_line

if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.views import Listing, PairedView, PendingView


def ago(ms: int | None, now: int) -> str:
    if ms is None:
        return "never"
    from vora_cli.core.devices.rules import format_duration

    return f"{format_duration(now - ms)} ago"


def devices_list(state: AppState, *, pending: bool, paired: bool, json: bool, no_headers: bool) -> int:
    from vora_cli.core.devices.views import list_devices

    both = pending == paired
    listing = list_devices(state.install, pending=both or pending, paired=both or paired)
    payload: dict[str, object] = {"stateDir": listing.state_dir, "nowMs": listing.now_ms}
    if json:  # building the JSON data of 1,000 devices costs time a table does not need
        if both or pending:
            payload["pending"] = [p.to_dict() for p in listing.pending]
        if both or paired:
            payload["paired"] = [p.to_dict() for p in listing.paired]

    def human(out: Output) -> None:
        if both or pending:
            render_pending(out, listing)
        if both:
            out.line()
        if both or paired:
            render_paired(out, listing)

    return state.output(json, no_headers=no_headers).emit(payload, human)


def kind_text(view: PendingView) -> str:
    """The request's kind with every change it asks for: one line (the approve question)."""
    from vora_cli.core.devices.rules import KIND_LABELS

    c = view.classification
    text = " + ".join(KIND_LABELS[k] for k in c.kinds)
    changes = [ch for ch in c.changes if not ch.startswith("publicKey")]
    if changes:
        text += f" ({'; '.join(changes)})"
    if c.public_key_changed:
        text = "!! DIFFERENT PUBLIC KEY !! " + text
    return text


def _kind_cell(view: PendingView) -> Cell:
    """The kinds (a metadata change left to the CHANGES column when there is more to say)."""
    from vora_cli.core.devices.rules import KIND_LABELS, KIND_METADATA

    c = view.classification
    labels = [KIND_LABELS[k] for k in c.kinds]
    short = [KIND_LABELS[k] for k in c.kinds if k != KIND_METADATA] or labels
    if c.public_key_changed:
        return Cell("!! DIFFERENT PUBLIC KEY !! " + " + ".join(labels), "!! NEW KEY !! " + " + ".join(short))
    return Cell(" + ".join(labels), " + ".join(short))


def _scopes_cell(view: PendingView) -> Cell:
    """Every scope asked for, the new ones marked `+`; shorter: only those no other one implies."""
    from vora_cli.core.devices.rules import minimal_scopes

    added = set(view.classification.changes)

    def said(scopes: list[str]) -> str:
        return ", ".join(f"+{s}" if f"+{s}" in added else s for s in scopes) or "-"

    return Cell(said(list(view.scopes)), said(minimal_scopes(view.scopes)))


def _changes_text(view: PendingView) -> str:
    """What else the request changes on the paired record (platform, name): not its roles or scopes."""
    kept = [ch for ch in view.classification.changes
            if not ch.startswith(("+", "role: ", "publicKey"))]
    return "; ".join(kept) or "-"


def render_pending(out: Output, listing: Listing) -> None:
    from vora_cli.core.devices.rules import unique_prefixes

    if not listing.pending:
        out.line("No pending pairing requests.")
        return
    prefix = unique_prefixes(v.request_id for v in listing.pending)
    rows: list[list[str | Cell]] = []
    for v in listing.pending:
        rows.append([
            Cell(v.request_id, prefix[v.request_id]), v.name, _kind_cell(v), ", ".join(v.roles) or "-",
            _scopes_cell(v), v.remote_ip or "-", age_text(v), left_text(v), _changes_text(v),
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
        out.note(f"approve with: {command_line('vora', 'devices', 'approve', first)}  (or --device ID, or --latest)")


def age_text(view: PendingView) -> str:
    from vora_cli.core.devices.rules import format_duration

    if view.future_by_ms is not None:
        return f"{format_duration(view.future_by_ms)} ahead"
    return "unknown" if view.age_ms is None else format_duration(view.age_ms)


def left_text(view: PendingView) -> str:
    from vora_cli.core.devices.rules import format_duration

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
        state = {"revoked": f"revoked {ago(t.revoked_at_ms, now)}", "active": "active"}.get(t.state, "revocation unknown")
        if t.rotated_at_ms is not None:
            minted = f"rotated {ago(t.rotated_at_ms, now)}"
        else:
            minted = "created " + ("unknown" if t.created_at_ms is None else ago(t.created_at_ms, now))
        used = "" if short else f", used {ago(t.last_used_at_ms, now)}"
        parts.append(f"{t.role}: {state}, {minted}{used}")
    return "; ".join(parts) or "none"


def render_paired(out: Output, listing: Listing) -> None:
    from vora_cli.core.devices.rules import minimal_scopes

    if not listing.paired:
        out.line("No paired devices.")
        return
    rows: list[list[str | Cell]] = [
        [v.device_id[:12], v.name,
         Cell(", ".join(v.approved_scopes) or "-", ", ".join(minimal_scopes(v.approved_scopes)) or "-"),
         Cell(token_text(v, listing.now_ms), token_text(v, listing.now_ms, short=True)),
         ", ".join(v.roles) or "-", v.label or "-", v.platform or "-"]
        for v in listing.paired
    ]
    out.table(["ID", "DEVICE", "SCOPES", "TOKENS", "ROLES", "LABEL", "PLATFORM"], rows,
              title=f"Paired devices ({len(listing.paired)})", keep=2, whole=("SCOPES", "TOKENS"))
    for v in listing.paired:
        for problem in v.problems:
            out.warn(f"paired.json: device {v.device_id[:12]}: {problem}")
