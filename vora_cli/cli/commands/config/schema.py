"""`vora config schema`: the JSON Schema of the keys vora knows."""

from __future__ import annotations

from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("schema", examples=("vora config schema > vora.schema.json",))
def config_schema(state: AppState, json: JsonOption = False) -> int:
    """Print the JSON Schema of the keys vora knows."""
    from vora_cli.cli.json_text import to_json
    from vora_cli.core.config.keys import json_schema

    schema = json_schema()

    def human(o: Output) -> None:
        o.text(to_json(schema) + "\n")

    return state.output(json).emit(schema, human)
