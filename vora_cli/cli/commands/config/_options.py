"""The options the `vora config` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

PathArgument = Annotated[str, typer.Argument(help="Config path: agents.defaults.workspace, agents.list[0].id, "
                                                        'plugins.entries["my.plugin"].enabled, a.b\\.c')]


ForceOption = Annotated[bool, typer.Option(
    "--force", help="Write even what the gateway's validator refuses (a warning says the gateway will not start).")]
