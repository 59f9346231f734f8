"""`vora config patch`: a JSON5 merge patch in one write."""

from __future__ import annotations

import sys

from vora_cli.cli.commands.config._report import report_write
from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.commands.config._options import ForceOption
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption


@command("patch", examples=(
    "echo '{plugins: {slots: {memory: \"none\"}}}' | vora config patch -",
    "vora config patch <(jq -n '{gateway: {port: 18790}}')",
))
def config_patch(
    state: AppState,
    file: Annotated[str, typer.Argument(help="A JSON5 merge patch file (a pipe, /dev/stdin, <(...) too), or - for stdin.")],
    dry_run: DryRunOption = False,
    force: ForceOption = False,
    json: JsonOption = False,
) -> int:
    """Apply a JSON5 merge patch (objects merge, arrays and scalars replace, null deletes) in one write."""
    from vora_cli.core.config.operations import apply_patch, read_patch
    from vora_cli.core.plugins.facts import gateway_check

    install = state.install
    patch = read_patch(file, sys.stdin.buffer if file == "-" else None)
    result = apply_patch(install, patch, dry_run=dry_run, gateway=gateway_check(install, force=force))
    return report_write(state.output(json), result, show_diff=False)
