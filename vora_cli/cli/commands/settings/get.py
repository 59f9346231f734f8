"""`vora settings get`: one setting's value in effect."""

from __future__ import annotations

from vora_cli.cli.commands.settings._shared import resolved, shown, warn_ignored_env
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.settings._options import KeyArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("get", examples=("vora settings get color", "vora settings get doctor.fail_on --json"))
def settings_get(state: AppState, key: KeyArgument, json: JsonOption = False,
                 reveal: Annotated[bool, typer.Option(
                     "--reveal", help="Show a password inside gateway.url (hidden by default).")] = False) -> None:
    """Print one setting's value in effect (--json: with where it came from)."""
    from vora_cli.core.settings.resolve import setting_spec

    setting_spec(key)  # an unknown key is a usage error, before anything is read
    row = resolved(state, key)

    def human(o: Output) -> None:
        o.line(shown(key, row.value, reveal=reveal))

    out = state.output(json)
    warn_ignored_env(state, out, [key])
    out.emit(row.to_dict(reveal=reveal), human)
