"""`vora context`: what the gateway injects from the workspace files, computed offline."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from vora_cli.cli.clickcompat import app_state
from vora_cli.cli.common import JsonOption, add_command, command_group, install_of, output
from vora_cli.cli.groups import GROUP_HELP
from vora_cli.cli.hot import context as hot
from vora_cli.cli.output import Output
from vora_cli.core.context.files import SESSIONS

if TYPE_CHECKING:
    pass

app = command_group(GROUP_HELP["context"])

WorkspaceOption = Annotated[
    str | None, typer.Option("--workspace", metavar="DIR", help="Report on this workspace directory (default: the agent's).")
]
AgentOption = Annotated[
    str | None, typer.Option("--agent", metavar="ID", help="The agent whose workspace to use (default: the default agent).")
]
KindOption = Annotated[
    str | None, typer.Option("--kind", metavar="|".join(SESSIONS),
                             help=f"Session kind: {', '.join(SESSIONS[:-1])} or {SESSIONS[-1]} (the last two get 5 files).")
]
SessionOption = Annotated[
    str | None,
    typer.Option("--session", metavar="KEY",
                 help="A stored session (key, request key or id): the gateway's own /context reply for it."),
]
MaxCharsOption = Annotated[
    int | None, typer.Option("--max-chars", metavar="N", help="What-if: per-file cap instead of bootstrapMaxChars.")
]
TotalOption = Annotated[
    int | None,
    typer.Option("--total-max-chars", metavar="N", help="What-if: total cap instead of bootstrapTotalMaxChars."),
]
FailOption = Annotated[
    bool, typer.Option("--fail-on-truncation", help="Exit 1 when any file is truncated (for CI).")
]


def context_list(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = False,
) -> int:
    """Show each bootstrap file's raw and injected size, and the skills list size."""
    return hot.context_list(app_state(ctx), workspace=workspace, agent=agent, kind=kind, session=session,
                             max_chars=max_chars, total_max_chars=total_max_chars,
                             fail_on_truncation=fail_on_truncation, json=json)


def context_detail(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = False,
) -> int:
    """Like list, plus the lines and headings each truncated file loses, and skills by size."""
    return hot.context_detail(app_state(ctx), workspace=workspace, agent=agent, kind=kind, session=session,
                             max_chars=max_chars, total_max_chars=total_max_chars,
                             fail_on_truncation=fail_on_truncation, json=json)


def context_json(
    ctx: typer.Context,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    session: SessionOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    fail_on_truncation: FailOption = False,
    json: JsonOption = True,
) -> int:
    """Print the whole report as one JSON document (same as list --json)."""
    return hot.context_json(app_state(ctx), workspace=workspace, agent=agent, kind=kind, session=session,
                             max_chars=max_chars, total_max_chars=total_max_chars,
                             fail_on_truncation=fail_on_truncation, json=True)


def context_preview(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="One bootstrap file, e.g. TOOLS.md (default: all).")] = None,
    workspace: WorkspaceOption = None,
    agent: AgentOption = None,
    kind: KindOption = None,
    max_chars: MaxCharsOption = None,
    total_max_chars: TotalOption = None,
    json: JsonOption = False,
) -> None:
    """Print exactly the text the gateway would inject (one file, or all under ## headings)."""
    from vora_cli.core.context.operations import context_preview as preview

    found = preview(install_of(ctx), name, workspace=workspace, agent=agent, kind=kind or "main",
                    max_chars=max_chars, total_max_chars=total_max_chars)

    def human(o: Output) -> None:
        o.paged(found.text)

    output(ctx, json).emit(found.to_dict(), human)


add_command(app, "list", context_list, body=hot.context_list,
            examples=("vora context list --max-chars 30000", "vora context list --session agent:main:main"))
add_command(app, "detail", context_detail,
            examples=("vora context detail --agent ops", "vora context detail --session main"))
add_command(app, "json", context_json, json_only=True, body=hot.context_json,
            examples=(
                "vora context json --fail-on-truncation > context.json",
                "vora context json --session main",
            ))
add_command(app, "preview", context_preview, examples=("vora context preview TOOLS.md | less",))
