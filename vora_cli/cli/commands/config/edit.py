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
    # vora's stdout holds its report (with --json or --query, one document); the editor's screen, or
    # what an editor script prints, goes to stderr whenever stdout is not the terminal it draws on
    import sys

    editor_output = None
    if out.json_mode or state.run.query is not None or not sys.stdout.isatty():
        try:
            editor_output = sys.stderr.fileno()
        except (AttributeError, ValueError, OSError):  # a stream with no descriptor (an embedding app's)
            pass
    result = edit_config(install, reopen=ask_reopen, gateway=gateway_check(install, force=force),
                         editor_output=editor_output)
    return report_write(out, result, show_diff=True)
