"""`vora config file`: where the config is, and why there."""

from __future__ import annotations

from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("file", hot=True, examples=("vora --profile work config file --json",))
def config_file(state: AppState, json: JsonOption = False) -> int:
    """Print the resolved config file path (and, with --json, where it came from)."""
    install = state.install
    paths = install.paths
    payload = {
        "path": str(paths.config_path),
        "source": paths.config_source,
        "exists": paths.config_path.exists(),
        "stateDir": str(paths.state_dir),
        "stateDirSource": paths.state_dir_source,
        "profile": paths.profile,
        "profileSource": paths.profile_source,
        "settingsFile": str(install.settings.path),
    }

    def human(out: Output) -> None:
        out.line(str(paths.config_path))

    return state.output(json).emit(payload, human)
