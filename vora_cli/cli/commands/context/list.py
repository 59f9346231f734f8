"""`vora context list`: Show each bootstrap file's raw and injected size, and the skills list size."""

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


@command("list", hot=True, examples=("vora context list --max-chars 30000", "vora context list --session agent:main:main"))
def context_list(
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
    """Show each bootstrap file's raw and injected size, and the skills list size."""
    return run_report(state, "list", workspace=workspace, agent=agent, kind=kind, session=session,
                      max_chars=max_chars, total_max_chars=total_max_chars, fail_on_truncation=fail_on_truncation,
                      json=json)
