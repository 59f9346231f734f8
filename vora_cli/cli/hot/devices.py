"""The bodies of `vora devices list` (pending requests: kind, age, time left; paired devices: token
state, never a token) and `vora devices approve`, and the lines every devices command shares
(`report_written`, `require_one_selector`)."""

from __future__ import annotations

from collections.abc import Iterable

from vora_cli.cli.tables import Cell

# At the top, not in each function: a `from` import inside a function called once per row costs a
# module lookup and a failed `__path__` probe every time (a quarter of a 200-row table's work).
# `rules` is what every devices command needs first anyway.
from vora_cli.core.devices.rules import (
    KIND_LABELS,
    KIND_METADATA,
    format_duration,
    minimal_scopes,
    unique_prefixes,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.output import Output
    from vora_cli.core.devices.approval import ApproveResult
    from vora_cli.core.devices.transaction import WriteReport
    from vora_cli.core.devices.views import Listing, PairedView, PendingView


def ago(ms: int | None, now: int) -> str:
    if ms is None:
        return "never"
    return f"{format_duration(now - ms)} ago"


def devices_list(state: AppState, *, pending: bool, paired: bool, json: bool, no_headers: bool) -> int:
    from vora_cli.core.devices.views import list_devices

    both = pending == paired
    listing = list_devices(state.install, pending=both or pending, paired=both or paired)
    out = state.output(json, no_headers=no_headers)
    payload: dict[str, object] = {"stateDir": listing.state_dir, "nowMs": listing.now_ms}
    if out.json_mode:  # building the JSON data of 1,000 devices costs time a table does not need
        if both or pending:
            payload["pending"] = [p.to_dict() for p in listing.pending]
        if both or paired:
            if out.run.json_indent() is None:  # the paired devices streamed, each into one template
                from vora_cli.cli.streaming import stream_json

                stream_json({**payload, "paired": []}, listing.paired, paired_json)
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


def paired_json(views: list[PairedView], ascii_only: bool) -> str:
    """`to_json([v.to_dict() for v in views], indent=None)` less its brackets, each device written
    into one template, as `sessions list --json` writes its rows: no dict per device and no key
    encoded again for each of 1,000 devices. A view holding anything but text, integers and None
    where those go (none does: `views.paired_view` makes them) is the encoder's own text."""
    from json.encoder import encode_basestring, encode_basestring_ascii

    from vora_cli.cli.json_text import escape_raw_in_json, to_json

    string = encode_basestring_ascii if ascii_only else encode_basestring

    def strings(values: tuple[str, ...]) -> str:
        return f"[{', '.join(map(string, values))}]" if values else "[]"

    def when(ms: int | None) -> int | str:
        if ms is None:
            return "null"
        if type(ms) is not int:
            raise TypeError("not an integer time")
        return ms

    parts = []
    for v in views:
        try:
            tokens = []
            for t in v.tokens:
                tokens.append(_TOKEN_JSON % (
                    string(t.role), string(t.state), strings(t.scopes), when(t.created_at_ms), when(t.rotated_at_ms),
                    when(t.revoked_at_ms), when(t.last_used_at_ms)))
            parts.append(_PAIRED_JSON % (
                string(v.device_id), string(v.name), "null" if v.label is None else string(v.label),
                "null" if v.display_name is None else string(v.display_name),
                "null" if v.platform is None else string(v.platform),
                "null" if v.device_family is None else string(v.device_family),
                "null" if v.client_id is None else string(v.client_id),
                "null" if v.client_mode is None else string(v.client_mode),
                strings(v.roles), strings(v.approved_scopes),
                "null" if v.remote_ip is None else string(v.remote_ip), when(v.created_at_ms),
                when(v.approved_at_ms), f"[{', '.join(tokens)}]", strings(v.problems)))
        except TypeError:
            parts.append(to_json(v.to_dict(), indent=None, ascii_only=ascii_only))
    return escape_raw_in_json(", ".join(parts))


# A paired device's and a token's JSON objects, their values left to fill (`paired_json`).
_PAIRED_JSON = ('{"deviceId": %s, "name": %s, "label": %s, "displayName": %s, "platform": %s, "deviceFamily": %s, '
                '"clientId": %s, "clientMode": %s, "roles": %s, "approvedScopes": %s, "remoteIp": %s, '
                '"createdAtMs": %s, "approvedAtMs": %s, "tokens": %s, "problems": %s}')
_TOKEN_JSON = ('{"role": %s, "state": %s, "scopes": %s, "createdAtMs": %s, "rotatedAtMs": %s, "revokedAtMs": %s, '
               '"lastUsedAtMs": %s}')


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
        out.note(f"approve with: {command_line('vora', 'devices', 'approve', first)}  (or --device ID, or --latest)")


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


# -- approve --------------------------------------------------------------------------------------

def devices_approve(state: AppState, *, request_id: str | None, device: str | None, latest: bool, yes: bool,
                    dry_run: bool, json: bool) -> int:
    from vora_cli.cli.output import stdin_is_interactive
    from vora_cli.core.devices.approval import approve_request
    from vora_cli.core.devices.lookup import Selection

    require_one_selector(request_id, device, latest, allow_latest=True)
    out = state.output(json)

    def look(view: PendingView) -> bool:
        """Say what is about to be approved, and ask: True, approve exactly this request."""
        key_changed = view.classification.public_key_changed
        if key_changed:
            out.warn(f"request {view.request_id} carries a DIFFERENT public key than the paired device "
                     f"{view.device_id[:12]}: another key is claiming a known device id")
        if not (latest or key_changed) or dry_run:
            return False
        out.note(describe(view, kind_text(view)))
        if not out.confirm(f"Approve request {view.request_id} of {view.name}?", yes=yes):
            raise VoraError("refused", "not approved", "nothing was written")
        return True

    # Look first only when there may be a question to ask (--latest, or a terminal that can answer
    # one about a changed key); scripts go straight to the approval, which refuses a changed key
    # without --yes by itself.
    asks = latest or (not yes and not json and not dry_run and stdin_is_interactive())
    result = approve_request(state.install, Selection(request_id=request_id, device=device, latest=latest),
                             dry_run=dry_run, allow_key_change=yes, look=look if asks else None)
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


# -- what every devices command that writes shares -------------------------------------------------

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
