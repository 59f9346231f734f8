"""`vora config get`: the effective value at a path."""

from __future__ import annotations

from vora_cli.cli.declare import command
from vora_cli.cli.json_text import to_json

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated, Any

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, RevealOption
    from vora_cli.cli.output import Output


def _scalar_text(value: Any) -> str:
    """How `get` prints a value: a scalar raw (a number as JavaScript's `String(n)`), an object or
    array as JSON with JavaScript's numbers: what the gateway reads, not how the file spells it."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        from vora_cli.core.strict_json import js_number

        return js_number(value)
    return to_json(value, js_numbers=True)


@command("get", hot=True, examples=("vora config get gateway.port", "vora config get plugins.slots --json"))
def config_get(
    state: AppState,
    path: Annotated[str | None, typer.Argument(help="Config path (omit for the whole config).")] = None,
    reveal: RevealOption = False,
    json: JsonOption = False,
) -> int:
    """Print the effective value at PATH (includes merged, ${VAR} resolved, defaults marked).

    Piped or redirected, the value is printed as stored; on a terminal, control characters in it
    are shown as escapes (\\x1b) so a value cannot drive the terminal.
    """
    from vora_cli.core.config.operations import get_effective

    out = state.output(json)
    result = get_effective(state.install, path, reveal=reveal)
    for name in result.missing_env:
        out.warn(f"${{{name}}} is not set in the environment; the text stays as written")

    def human(o: Output) -> None:
        o.value(_scalar_text(result.value), laid_out=isinstance(result.value, dict | list))
        if result.source == "default":
            o.note(f"({result.path} is not set; this is the default)")
        elif result.source == "env":
            o.note(f"({result.path} comes from the environment)")

    return out.emit(result.to_dict(), human, js_numbers=True)
