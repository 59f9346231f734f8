"""`vora plugins`: install, link, list, inspect, enable/disable, use, uninstall, update, init.

One small module per command; each registers itself on `app` here.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Install, link, list, inspect, enable, select and remove gateway plugins.",
    no_args_is_help=True,
)


def _register() -> None:
    from vora_cli.cli.commands.plugins import (
        enable,
        info,
        init,
        install,
        listing,
        uninstall,
        update,
        use,
    )

    for module in (install, listing, info, enable, use, uninstall, update, init):
        module.register(app)


_register()
