"""The options the `vora sessions` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

AgentOption = Annotated[
    str | None, typer.Option("--agent", metavar="ID", help="The agent whose store to read (default: the default agent).")
]
