"""The options the `vora plugins` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

IdArgument = Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")]
