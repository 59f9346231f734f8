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
    if out.json_mode and out.run.streams_json() and detail.manifest is not None:
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

    def segments() -> Iterator[dict[str, Any]]:
        if detail.manifest is not None:
            for segment in detail.manifest.iter_segments():
                totals.add(segment)
                yield segment.to_dict()

    stream_json(lambda: detail.to_dict(segments=False, totals=totals), segments())


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
    if out.terminal and isinstance(row.context_used, int) and isinstance(row.context_tokens, int) \
            and row.context_tokens > 0:  # the window as a gauge: how full it is, at a glance
        from vora_cli.cli.output import terminal_width
        from vora_cli.cli.pictures import gauge, glyphs

        share = row.context_percent if isinstance(row.context_percent, int) else \
            round(row.context_used * 100 / row.context_tokens)
        said = f" {share}% of the window"
        size = max(10, min(40, terminal_width() - 13 - len(said)))
        out.styled([("           ", None), *gauge(row.context_used, row.context_tokens, size, glyphs(out.run.ascii)),
                    (said, None)])
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
    if out.terminal and detail.compactions:
        _timeline(out, detail)
    for c in (() if out.terminal else detail.compactions):
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
    from vora_cli.cli.output import terminal_width

    spool = LineSpool(out.json_mode, terminal_width() if out.terminal else None, ascii_only=out.run.ascii_flag)
    for s in manifest.iter_segments():
        totals.add(s)
        spool.line(_segment_line(s), hanging="      ")
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
        if out.terminal:  # a bar chart: which segments weigh, against the largest
            from vora_cli.cli.output import terminal_width
            from vora_cli.cli.pictures import bar_chart, glyphs

            labels = [(f"  #{s.index} {s.kind} ~{s.tokens:,} tok", s.tokens) for s in largest]
            for parts in bar_chart(labels, min(terminal_width(), 100), glyphs(out.run.ascii)):
                out.styled(parts)
            return
        for s in largest:
            out.line(f"  #{s.index} {s.kind} ~{s.tokens:,} tok ({s.chars:,} chars) {s.hash}")


def _timeline(out: Output, detail: SessionDetail) -> None:
    """The compactions as a timeline on a terminal: a dot per compaction down a line, when and why,
    the tokens before and after as bars on one scale, its summary beneath."""
    from vora_cli.cli.pictures import before_after, glyphs

    g = glyphs(out.run.ascii)
    rows = [c.to_dict() for c in detail.compactions]
    scale = max([*(d["tokensBefore"] for d in rows if isinstance(d["tokensBefore"], int)), 1])
    for n, (c, d) in enumerate(zip(detail.compactions, rows, strict=True)):
        rail = g.line if n < len(rows) - 1 else " "
        when = str(d["compactedAt"] or "-").replace("T", " ").removesuffix(".000Z").removesuffix("Z")
        out.line(f"  {g.dot} {when}  {d['reason'] or '-'}: {_v(d['tokensBefore'])} {g.arrow} {_v(d['tokensAfter'])} tok"
                 f"  ({d['entryId']})", "bold", hanging=f"  {rail}   ")
        if isinstance(d["tokensBefore"], int) and isinstance(d["tokensAfter"], int):
            out.styled([(f"  {rail}   ", None), *before_after(d["tokensBefore"], d["tokensAfter"], scale, 24, g)])
        where = "on leaf path" if c.on_leaf_path else "off the leaf path (another branch)"
        out.line(f"  {rail}   summary {d['summaryChars']:,} chars (~{d['summaryTokens']:,} tok) {d['summaryHash']}; "
                 f"first kept {_v(d['firstKeptEntryId'])}; {where}", hanging=f"  {rail}     ")
        if d["preview"] is not None:
            out.line(f"  {rail}   {d['preview']}", hanging=f"  {rail}     ")


def _checkpoint_lines(out: Output, detail: SessionDetail) -> None:
    if not detail.checkpoints:
        return
    out.line(f"Checkpoints ({len(detail.checkpoints)}):")
    for cp in detail.checkpoints:
        exists = "exists" if cp["snapshotExists"] else "missing"
        out.line(f"  {_v(cp['checkpointId'])} {_v(cp['reason'])} {_v(cp['tokensBefore'])} -> {_v(cp['tokensAfter'])}; "
                 f"snapshot {_v(cp['snapshotPath'])} ({exists})")
