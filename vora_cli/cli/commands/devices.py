"""`vora devices` (not built yet: this group has no commands so far)."""

from __future__ import annotations

import typer

app = typer.Typer(help="(not built yet) vora devices.", no_args_is_help=True)
