"""`vora doctor` (not built yet)."""

from __future__ import annotations

import typer

from vora_cli.cli.common import JsonOption
from vora_cli.core.errors import VoraError

app = typer.Typer(help="(not built yet) Check a Vora install.")


@app.callback(invoke_without_command=True)
def doctor(json: JsonOption = False) -> None:
    """Check a Vora install (not built yet)."""
    raise VoraError("refused", "vora doctor is not built yet", None)
