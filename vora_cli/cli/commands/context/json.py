"""`vora context json`: Print the whole report as one JSON document (same as list --json)."""

from __future__ import annotations

from vora_cli.cli.commands.context._report import run_report
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.context._options import (
        AgentOption,
        FailOnTruncationOption,
        KindOption,
        MaxCharsOption,
        SessionOption,
        TotalMaxCharsOption,
        WorkspaceOption,
    )
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption


@command("json", hot=True, json_only=True, examples=(
    "vora context json --fail-on-truncation > context.json",
    "vora context json --session main",
))
def context_json(
    state: AppState,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalMaxCharsOption = None,
    fail_on_truncation: FailOnTruncationOption = False,
    json: JsonOption = True,
) -> int:
    """Print the whole report as one JSON document (same as list --json)."""
    return run_report(state, "json", workspace=workspace, agent=agent, kind=kind, session=session,
                      max_chars=max_chars, total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation,
                      json=json)
