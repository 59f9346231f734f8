"""The options the `vora devices` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

DeviceArgument = Annotated[str, typer.Argument(help="Device id, or a unique prefix of 8+ hex digits.")]
DeviceOption = Annotated[str, typer.Option("--device", metavar="ID",
                                           help="Device id, or a unique prefix of 8+ hex digits.")]
RoleOption = Annotated[str, typer.Option("--role", metavar="ROLE", help="The token's role, e.g. operator or node.")]
