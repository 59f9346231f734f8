"""`vora sessions list`: every stored session with its age, model and context used."""

from __future__ import annotations

from vora_cli.cli.commands.sessions._shared import size_text
from vora_cli.cli.declare import command
from vora_cli.cli.streaming import stream_json
from vora_cli.cli.tables import Cell
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.sessions._options import AgentOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output
    from vora_cli.core.sessions.listing import SessionsList


@command("list", hot=True, examples=("vora sessions list", "vora sessions list --all-agents --active 60 --json"))
def sessions_list(
    state: AppState,
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

    out = state.output(json, no_headers=no_headers)
    result = list_sessions(state.install, agent=agent, all_agents=all_agents, active_minutes=active)
    _warn_skipped(out, result)
    if not out.json_mode:
        render_list(out, result)
        return 0
    if out.run.streams_json():
        stream_json(result.to_dict(sessions=False), (row.to_dict() for row in result.rows))
        return 0
    return out.emit(result.to_dict())


def _warn_skipped(out: Output, result: SessionsList) -> None:
    """Exit 1 when no store could be read; else a warning for each store that could not be."""
    if result.failed:
        first = next(e for _t, e in result.stores if e is not None)
        raise first.to_error()
    for _target, error in result.stores:
        if error is not None:
            out.warn(f"{error.location}: {error.message} (skipped)")


def _age_cell(text: str) -> Cell:
    """`367d ago`, or `367d` on a narrow terminal (the header says it is an age)."""
    return Cell(text, text.removesuffix(" ago"))


def render_list(out: Output, result: SessionsList) -> None:
    from vora_cli.core.sessions.store import age_text, context_text
    from vora_cli.core.strict_json import js_number

    if not result.rows:
        where = ", ".join(str(t.path) for t, _e in result.stores)
        out.line(f"No sessions in {where}." if where else "No sessions.")
        return
    # the short age is only ever shown on a terminal: elsewhere the cell is its text alone
    age_cell = _age_cell if out.table_is_fitted else str
    rows: list[list[str | Cell]] = [
        [
            row.key,
            row.agentId,
            row.kind,
            age_cell(age_text(row.ageMs)),
            row.model or "-",
            context_text(row.contextUsed, row.contextTokens, row.contextPercent),
            js_number(row.compactionCount),
            size_text(row.transcriptBytes),
        ]
        for row in result.rows
    ]
    out.table(["key", "agent", "kind", "age", "model", "context", "compactions", "transcript"], rows, keep=3,
              whole=("context",))
    if not out.no_headers:  # --no-headers: the rows alone, for awk
        out.line(f"{plural(len(result.rows), 'session')}. Context: tokens used by the last run / window (fresh totals only).")
