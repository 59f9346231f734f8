"""`vora sessions list`: every stored session with its age, model and context used."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from vora_cli.cli.commands.sessions._shared import AgentOption, size_text
from vora_cli.cli.common import JsonOption, NoHeadersOption, install_of, output
from vora_cli.cli.output import stream_json
from vora_cli.cli.tables import Cell

if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.sessions.listing import SessionsList


def sessions_list(
    ctx: typer.Context,
    agent: AgentOption = None,
    all_agents: Annotated[bool, typer.Option("--all-agents", help="Every configured agent and every store on disk.")] = False,
    active: Annotated[
        int | None, typer.Option("--active", metavar="MINUTES", help="Only sessions active in the last MINUTES.")
    ] = None,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List sessions: key, kind, age, model, context used of the window, compactions, transcript size."""
    from vora_cli.core.sessions.listing import list_sessions

    result = list_sessions(install_of(ctx), agent=agent, all_agents=all_agents, active_minutes=active)
    if result.failed:
        first = next(e for _t, e in result.stores if e is not None)
        raise first.to_error()
    out = output(ctx, json, no_headers=no_headers)
    for _target, error in result.stores:
        if error is not None:
            out.warn(f"{error.location}: {error.message} (skipped)")
    if out.json_mode and out.run.json_indent() is None:
        stream_json(result.to_dict(sessions=False), (row.to_dict() for row in result.rows))
        return 0
    # a callable: the JSON document is built only when it is printed (not for the table)
    return out.emit(result.to_dict, lambda o: render_list(o, result))


def _age_cell(text: str) -> Cell:
    """`367d ago`, or `367d` on a narrow terminal (the header says it is an age)."""
    return Cell(text, text.removesuffix(" ago"))


def render_list(out: Output, result: SessionsList) -> None:
    from vora_cli.core.sessions.jsfmt import js_number
    from vora_cli.core.sessions.store import (
        age_text,
        compaction_count,
        context_percent,
        context_text,
        effective_model,
    )

    if not result.rows:
        where = ", ".join(str(t.path) for t, _e in result.stores)
        out.line(f"No sessions in {where}." if where else "No sessions.")
        return
    rows: list[list[str | Cell]] = []
    for row in result.rows:
        model, _provider = effective_model(row.entry)
        compactions = compaction_count(row.entry)
        rows.append([
            row.key,
            row.agent_id,
            row.kind,
            _age_cell(age_text(row.age_ms)),
            model or "-",
            context_text(used := row.context_used, row.context_tokens, context_percent(used, row.context_tokens)),
            js_number(compactions),
            size_text(row.transcript_bytes),
        ])
    out.table(["key", "agent", "kind", "age", "model", "context", "compactions", "transcript"], rows, keep=3,
              whole=("context",))
    if not out.no_headers:  # --no-headers: the rows alone, for awk
        out.line(f"{len(result.rows)} session(s). Context: tokens used by the last run / window (fresh totals only).")
