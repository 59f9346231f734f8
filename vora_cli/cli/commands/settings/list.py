"""`vora settings list`: every value with the place it came from."""

from __future__ import annotations

from vora_cli.cli.commands.settings._shared import resolved_all, shown, warn_ignored_env
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output


@command("list", examples=("vora settings list", "vora settings list --json"))
def settings_list(state: AppState, json: JsonOption = False, no_headers: NoHeadersOption = False) -> None:
    """List every setting: its value and where it came from (flag, env, settings, default)."""
    from vora_cli.core.settings.resolve import SETTINGS

    rows = resolved_all(state)
    path = state.install.settings.path
    payload = {"file": str(path), "exists": path.exists(),
               "settings": [{**r.to_dict(), "type": SETTINGS[r.key].type_name} for r in rows]}

    def human(o: Output) -> None:
        o.table(["KEY", "VALUE", "SOURCE", "FROM"], [[r.key, shown(r.key, r.value), r.source, r.origin] for r in rows])
        o.note(f"Settings file: {path}" + ("" if path.exists() else " (not created yet)"))

    out = state.output(json, no_headers=no_headers)
    warn_ignored_env(state, out, [r.key for r in rows])
    out.emit(payload, human)
