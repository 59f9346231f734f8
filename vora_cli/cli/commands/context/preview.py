"""`vora context preview`: exactly the text the gateway would inject."""

from __future__ import annotations

from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.context._options import (
        AgentOption,
        KindOption,
        MaxCharsOption,
        TotalMaxCharsOption,
        WorkspaceOption,
    )
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("preview", examples=("vora context preview TOOLS.md | less",))
def context_preview(
    state: AppState,
    name: Annotated[str | None, typer.Argument(help="One bootstrap file, e.g. TOOLS.md (default: all).")] = None,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalMaxCharsOption = None,
    json: JsonOption = False,
) -> int:
    """Print exactly the text the gateway would inject (one file, or all under ## headings)."""
    from vora_cli.core.context.operations import context_preview as preview

    found = preview(state.install, name, workspace=workspace, agent=agent, kind=kind or "main",
                    max_chars=max_chars, total_max_chars=total_max_chars)

    def human(o: Output) -> None:
        o.text(found.text)

    return state.output(json).emit(found.to_dict(), human)
