"""`vora config unset`: remove exactly one key or array element."""

from __future__ import annotations

from vora_cli.cli.commands.config._report import report_write
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.commands.config._options import ForceOption, PathArgument
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("unset", examples=("vora config unset plugins.entries.old-engine",))
def config_unset(
    state: AppState,
    path: PathArgument,
    dry_run: DryRunOption = False,
    force: ForceOption = False,
    json: JsonOption = False,
) -> int:
    """Remove exactly one key or array element (and its own comment)."""
    from vora_cli.core.config.operations import unset_value
    from vora_cli.core.plugins.facts import gateway_check

    install = state.install
    result = unset_value(install, path, dry_run=dry_run, gateway=gateway_check(install, force=force))
    return report_write(state.output(json), result, show_diff=False)
