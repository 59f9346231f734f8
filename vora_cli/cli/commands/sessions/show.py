"""`vora sessions show KEY`: the entry, compaction history, transcript statistics and the
context manifest (what the model sees now)."""

from __future__ import annotations

from collections.abc import Iterator

from vora_cli.cli.commands.sessions._shared import size_text
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated, Any

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output
    from vora_cli.core.sessions.manifest import Segment
    from vora_cli.core.sessions.show import SessionDetail


@command("show", hot=True, examples=("vora sessions show agent:main:main", "vora sessions show main --no-preview --json"))
def sessions_show(
    state: AppState,
    key: Annotated[str, typer.Argument(help="Session key (agent:main:main), request key (main) or session id.")],
    agent: Annotated[
        str | None,
        typer.Option("--agent", metavar="ID", help="The agent whose store to look in (default: the key's agent, else the default agent)."),
    ] = None,
    no_preview: Annotated[
        bool, typer.Option("--no-preview", help="Print no transcript content at all (no previews, no summaries).")
    ] = False,
    json: JsonOption = False,
) -> int:
    """Show one session: entry, compactions with checkpoints, transcript stats, context manifest."""
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
    fields written into one template (the 20,000 segments of a 200 MB transcript): no dict
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
