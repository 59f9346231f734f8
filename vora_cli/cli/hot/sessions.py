"""The bodies of `vora sessions list` and `vora sessions show`, and their renderers."""

from __future__ import annotations

import functools
from collections.abc import Iterator

from vora_cli.cli.streaming import stream_json
from vora_cli.cli.tables import Cell

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.output import Output
    from vora_cli.core.sessions.listing import ListRow, SessionsList, TableRow
    from vora_cli.core.sessions.manifest import Segment
    from vora_cli.core.sessions.show import SessionDetail


def size_text(size: int | None) -> str:
    """`812 B`, `14.2 KB`, `3.1 MB` (1,000-based, one decimal); `missing` when unknown."""
    if size is None:
        return "missing"
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1000 or unit == "GB":
            return f"{size} B" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1000
    return f"{size} B"


def sessions_list(state: AppState, *, agent: str | None, all_agents: bool, active: int | None, json: bool,
                  no_headers: bool) -> int:
    from vora_cli.core.sessions.listing import list_sessions, list_sessions_table

    out = state.output(json, no_headers=no_headers)
    if not out.json_mode:  # the table's values only, not each row's JSON (100,000 rows, issue 24)
        table = list_sessions_table(state.install, agent=agent, all_agents=all_agents, active_minutes=active)
        _warn_skipped(out, table)
        render_list(out, table)
        return 0
    result = list_sessions(state.install, agent=agent, all_agents=all_agents, active_minutes=active)
    _warn_skipped(out, result)
    if out.run.json_indent() is None:
        stream_json(result.to_dict(sessions=False), result.rows, rows_json)
        return 0
    return out.emit(result.to_dict())


def _warn_skipped(out: Output, result: SessionsList[Any]) -> None:
    """Exit 1 when no store could be read; else a warning for each store that could not be."""
    if result.failed:
        first = next(e for _t, e in result.stores if e is not None)
        raise first.to_error()
    for _target, error in result.stores:
        if error is not None:
            out.warn(f"{error.location}: {error.message} (skipped)")


def rows_json(rows: list[ListRow], ascii_only: bool) -> str:
    """`to_json([row.to_dict() for row in rows], indent=None)` less its brackets, written from
    each row's values into one template: the usual row (text, integers, null, booleans) is one
    `%` format, no dict per row and no key encoded again per row (100,000 rows of
    `sessions list --json`, issue 24); any other row is the encoder's own text."""
    from json.encoder import encode_basestring, encode_basestring_ascii

    from vora_cli.cli.json_text import escape_raw_in_json, to_json

    string = encode_basestring_ascii if ascii_only else encode_basestring
    template = _row_template()
    parts = []
    for row in rows:
        (agent, key, kind, session_id, updated, updated_ms, age, chat, model, provider, label, total, fresh, used,
         window, percent, count, path, size, report) = row
        # numbers other than integers (a float, NaN in a stored total) and a stored total that is
        # text, a list or an object: the encoder writes them (json.dumps' float text, its
        # non-finite rule)
        if (type(updated_ms) is not int and updated_ms is not None) or (type(age) is not int and age is not None) \
                or (type(total) is not int and total is not None) or (type(used) is not int and used is not None) \
                or (type(window) is not int and window is not None) or type(count) is not int:
            parts.append(to_json(row.to_dict(), indent=None, ascii_only=ascii_only))
            continue
        parts.append(template % (
            string(agent), string(key), string(kind), "null" if session_id is None else string(session_id),
            "null" if updated is None else string(updated), "null" if updated_ms is None else updated_ms,
            "null" if age is None else age, "null" if chat is None else string(chat),
            "null" if model is None else string(model), "null" if provider is None else string(provider),
            "null" if label is None else string(label), "null" if total is None else total,
            "null" if fresh is None else "true" if fresh else "false", "null" if used is None else used,
            "null" if window is None else window, "null" if percent is None else percent, count,
            "null" if path is None else string(path), "null" if size is None else size,
            "true" if report else "false"))
    return escape_raw_in_json(", ".join(parts))


@functools.cache
def _row_template() -> str:
    """`{"agentId": %s, "key": %s, …}`: a list row's JSON object, its values left to fill."""
    from vora_cli.core.sessions.listing import ListRow

    return "{" + ", ".join(f'"{name}": %s' for name in ListRow._fields) + "}"


def _age_cell(text: str) -> Cell:
    """`367d ago`, or `367d` on a narrow terminal (the header says it is an age)."""
    return Cell(text, text.removesuffix(" ago"))


def render_list(out: Output, result: SessionsList[TableRow]) -> None:
    from vora_cli.core.sessions.jsfmt import js_number
    from vora_cli.core.sessions.store import age_text, context_text

    if not result.rows:
        where = ", ".join(str(t.path) for t, _e in result.stores)
        out.line(f"No sessions in {where}." if where else "No sessions.")
        return
    # the short age is only ever shown on a terminal: elsewhere the cell is its text alone
    age_cell = _age_cell if out.table_is_fitted else str
    rows: list[list[str | Cell]] = []
    append = rows.append
    counts: dict[Any, str] = {}  # the few compaction counts a store holds, each written once
    for key, agent_id, kind, age, model, used, window, percent, count, size in result.rows:
        shown = counts.get(count) if type(count) is int else None
        if shown is None:
            shown = js_number(count)
            if type(count) is int:
                counts[count] = shown
        append([
            key,
            agent_id,
            kind,
            age_cell(age_text(age)),
            model or "-",
            context_text(used, window, percent),
            shown,
            f"{size} B" if type(size) is int and 0 <= size < 1000 else size_text(size),
        ])
    out.table(["key", "agent", "kind", "age", "model", "context", "compactions", "transcript"], rows, keep=3,
              whole=("context",))
    if not out.no_headers:  # --no-headers: the rows alone, for awk
        out.line(f"{len(result.rows)} session(s). Context: tokens used by the last run / window (fresh totals only).")


def sessions_show(state: AppState, *, key: str, agent: str | None, no_preview: bool, json: bool) -> int:
    from vora_cli.core.sessions.show import show_session

    detail = show_session(state.install, key, agent=agent, previews=not no_preview)
    out = state.output(json)
    if out.json_mode and out.run.json_indent() is None and detail.manifest is not None:
        _stream_json(detail)
        return 0
    # a callable: the JSON document (every segment again) is built only when it is printed
    return out.emit(detail.to_dict, lambda o: render_detail(o, detail))


def _stream_json(detail: SessionDetail) -> None:
    """The same one-line document `emit` writes, with the segments made and written one at a
    time: a context of 400,000 messages never exists as a list (memory flat in the transcript's
    size). The totals before them are added up on the way; the segments wait in a spool."""
    from vora_cli.cli.streaming import stream_json
    from vora_cli.core.sessions.manifest import ManifestTotals

    totals = ManifestTotals()

    def segments() -> Iterator[Segment]:
        if detail.manifest is not None:
            for segment in detail.manifest.iter_segments():
                totals.add(segment)
                yield segment

    stream_json(lambda: detail.to_dict(segments=False, totals=totals), segments(), segments_json)


def segments_json(segments: list[Segment], ascii_only: bool) -> str:
    """`to_json([s.to_dict() for s in segments], indent=None)` less its brackets, each segment's
    fields written into one template (20,000 segments of a 200 MB transcript, issue 24): no dict
    per segment, no key encoded again per segment; its tool calls and attachments, when it has
    them, are the encoder's own text."""
    from json.encoder import encode_basestring, encode_basestring_ascii

    from vora_cli.cli.json_text import escape_raw_in_json, to_json

    string = encode_basestring_ascii if ascii_only else encode_basestring
    parts = []
    for s in segments:
        text = _SEGMENT % (s.index, string(s.entry_id), string(s.kind), s.chars, s.tokens, string(s.hash),
                           "null" if s.preview is None else string(s.preview))
        if s.tool_calls:
            text += ', "toolCalls": ' + to_json(list(s.tool_calls), indent=None, ascii_only=ascii_only)
        if s.tool_name is not None:
            text += ', "toolName": ' + string(s.tool_name)
        if s.is_error is not None:
            text += ', "isError": true' if s.is_error else ', "isError": false'
        if s.attachments:
            text += ', "attachments": ' + to_json(list(s.attachments), indent=None, ascii_only=ascii_only)
        parts.append(text + "}")
    return escape_raw_in_json(", ".join(parts))


# `Segment.to_dict`'s keys, always there, in its order (`segments_json`)
_SEGMENT = '{"index": %s, "entryId": %s, "kind": %s, "chars": %s, "tokens": %s, "hash": %s, "preview": %s'


def _v(value: Any) -> str:
    from vora_cli.core.sessions.jsfmt import format_number, is_number

    if value is None:
        return "-"
    if is_number(value):
        return format_number(value)
    return str(value)


def _segment_line(s: Segment) -> str:
    extra = ""
    if s.tool_name:
        extra += f" {s.tool_name}" + (" (error)" if s.is_error else "")
    if s.tool_calls:
        extra += " calls " + ", ".join(str(c["name"]) for c in s.tool_calls)
    head = f"  #{s.index} {s.kind}{extra} ~{s.tokens:,} tok {s.hash}"
    return head + (f"  {s.preview}" if s.preview is not None else "")


def render_detail(out: Output, detail: SessionDetail) -> None:
    from vora_cli.core.sessions.store import age_text, context_text

    row = detail.resolved.row
    entry = detail.entry_dict()
    out.line(f"Session {row.key}")
    out.line(f"  agent: {row.agent_id}   kind: {row.kind}   sessionId: {_v(entry['sessionId'])}")
    out.line(f"  store: {detail.resolved.store.path}")
    out.line(f"  updated: {entry['updatedAt'] or 'unknown'} ({age_text(row.age_ms)})")
    model = entry["model"] if not entry["modelProvider"] else f"{entry['modelProvider']}/{entry['model']}"
    out.line(f"  model: {model or '-'}")
    out.line(
        f"  context: {context_text(row.context_used, row.context_tokens, row.context_percent)}"
        f"   input {_v(entry['inputTokens'])}   output {_v(entry['outputTokens'])}"
    )
    out.line(f"  compactions: {_v(entry['compactionCount'])}   run report: {entry['reportSource'] or 'none'}")
    if entry["label"]:
        out.line(f"  label: {entry['label']}")
    if entry["spawnedBy"] or entry["parentSessionKey"]:
        out.line(f"  lineage: spawnedBy {_v(entry['spawnedBy'])}, parent {_v(entry['parentSessionKey'])}, "
                 f"status {_v(entry['status'])}")
    scan = detail.scan
    if scan is None:
        out.line()
        out.line(f"transcript missing: {detail.transcript_path}")
        _checkpoint_lines(out, detail)
        return
    out.line()
    out.line(f"Compaction history ({len(detail.compactions)}):")
    for c in detail.compactions:
        d = c.to_dict()
        where = "on leaf path" if c.on_leaf_path else "off the leaf path (another branch)"
        out.line(
            f"  {d['entryId']} {_v(d['compactedAt'])} {d['reason'] or '-'}: {_v(d['tokensBefore'])} -> "
            f"{_v(d['tokensAfter'])} tok; summary {d['summaryChars']:,} chars (~{d['summaryTokens']:,} tok) "
            f"{d['summaryHash']}; first kept {_v(d['firstKeptEntryId'])}; {where}"
        )
        if d["preview"] is not None:
            out.line(f"    {d['preview']}")
    _checkpoint_lines(out, detail)
    out.line()
    t = scan.to_dict()
    out.line(f"Transcript: {t['path']}")
    out.line(f"  {size_text(t['bytes'])}, {t['lines']:,} lines, {t['entries']:,} entries, leaf {t['leafId'] or '-'}")
    header = t["header"]
    if header is None:
        out.line("  header: none (the first line is not a session header)")
    else:
        out.line(f"  header: id {_v(header['id'])}, version {_v(header['version'])}, {_v(header['timestamp'])}, "
                 f"cwd {_v(header['cwd'])}")
    out.line("  by type: " + (", ".join(f"{k} {v}" for k, v in t["byType"].items()) or "-"))
    out.line("  by role: " + (", ".join(f"{k} {v}" for k, v in t["byRole"].items()) or "-"))
    if t["branchPoints"]:
        out.line("  branch points: " + ", ".join(t["branchPoints"]))
    if t["badLines"]:
        shown = ", ".join(str(n) for n in t["badLines"][:20]) + (" …" if len(t["badLines"]) > 20 else "")
        out.line(f"  bad lines (skipped): {shown}")
    if t["tornTail"]:
        out.line("  torn tail: the last line is still being written (skipped)")
    manifest = detail.manifest
    if manifest is None:
        return
    from vora_cli.cli.streaming import LineSpool
    from vora_cli.core.sessions.manifest import ManifestTotals

    # The segments are made one at a time and their lines spooled: the totals go above them.
    totals = ManifestTotals()
    spool = LineSpool(out.json_mode)
    for s in manifest.iter_segments():
        totals.add(s)
        spool.line(_segment_line(s))
    out.line()
    summary = f" after compaction {manifest.compaction_id}" if manifest.compaction_id else ""
    out.line(
        f"What the model sees now{summary}: {totals.messages} messages, "
        f"{totals.total_chars:,} chars (~{totals.total_tokens:,} tok, estimate)"
    )
    out.line(f"  model {manifest.model or '-'}, thinking {manifest.thinking_level or '-'}; "
             "stored context, before the per-run pruning of old tool results")
    spool.copy_out()
    largest = totals.largest()
    if largest:
        out.line()
        out.line("Largest segments (evict or compact stale tool results first):")
        for s in largest:
            out.line(f"  #{s.index} {s.kind} ~{s.tokens:,} tok ({s.chars:,} chars) {s.hash}")


def _checkpoint_lines(out: Output, detail: SessionDetail) -> None:
    if not detail.checkpoints:
        return
    out.line(f"Checkpoints ({len(detail.checkpoints)}):")
    for cp in detail.checkpoints:
        exists = "exists" if cp["snapshotExists"] else "missing"
        out.line(f"  {_v(cp['checkpointId'])} {_v(cp['reason'])} {_v(cp['tokensBefore'])} -> {_v(cp['tokensAfter'])}; "
                 f"snapshot {_v(cp['snapshotPath'])} ({exists})")
