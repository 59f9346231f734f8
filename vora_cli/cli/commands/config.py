"""`vora config`: the config file, read and edited losslessly."""

from __future__ import annotations

import typer

from vora_cli.cli.common import JsonOption, output, paths_of
from vora_cli.cli.output import Output

app = typer.Typer(
    help="Read and edit vora.json without losing a comment.",
    no_args_is_help=True,
)


@app.command("file", epilog="Example: vora --profile work config file --json")
def config_file(ctx: typer.Context, json: JsonOption = False) -> None:
    """Print the resolved config file path (and, with --json, where it came from)."""
    paths = paths_of(ctx)
    payload = {
        "path": str(paths.config_path),
        "source": paths.config_source,
        "exists": paths.config_path.exists(),
        "stateDir": str(paths.state_dir),
        "stateDirSource": paths.state_dir_source,
        "profile": paths.profile,
    }

    def human(out: Output) -> None:
        out.line(str(paths.config_path))

    output(json).emit(payload, human)
