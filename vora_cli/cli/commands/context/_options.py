"""The options the `vora context` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.core.context.files import SESSIONS

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
TotalMaxCharsOption = Annotated[
    int | None,
    typer.Option("--total-max-chars", metavar="N", help="What-if: total cap instead of bootstrapTotalMaxChars."),
]
FailOnTruncationOption = Annotated[
    bool, typer.Option("--fail-on-truncation", help="Exit 1 when any file is truncated (for CI).")
]
