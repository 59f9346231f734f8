"""`vora context detail`: Like list, plus the lines and headings each truncated file loses, and skills by size."""

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


@command("detail", examples=("vora context detail --agent ops", "vora context detail --session main"))
def context_detail(
    state: AppState,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalMaxCharsOption = None,
    fail_on_truncation: FailOnTruncationOption = False,
    json: JsonOption = False,
) -> int:
    """Like list, plus the lines and headings each truncated file loses, and skills by size."""
    return run_report(state, "detail", workspace=workspace, agent=agent, kind=kind, session=session,
                      max_chars=max_chars, total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation,
                      json=json)
