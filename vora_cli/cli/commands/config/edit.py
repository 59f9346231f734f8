"""`vora config edit`: vora.json in $EDITOR, validated before it is written back."""

from __future__ import annotations

from vora_cli.cli.commands.config._report import report_write
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.config._options import ForceOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption


@command("edit", examples=("EDITOR=nano vora config edit",))
def config_edit(state: AppState, force: ForceOption = False, json: JsonOption = False) -> int:
    """Open vora.json in $EDITOR; on save, validate and write it back (never an invalid file)."""
    from vora_cli.cli.output import stdin_is_interactive
    from vora_cli.core.config.operations import edit_config
    from vora_cli.core.plugins.facts import gateway_check

    out = state.output(json)

    def ask_reopen(message: str) -> bool:
        if json or not stdin_is_interactive():
            return False
        out.warn(message)
        return out.confirm("Reopen the editor to fix it?", yes=False)

    install = state.install
    result = edit_config(install, reopen=ask_reopen, gateway=gateway_check(install, force=force))
    return report_write(out, result, show_diff=True)
