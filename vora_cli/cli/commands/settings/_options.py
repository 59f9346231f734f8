"""The options the `vora settings` commands share (`cli/options.py`)."""

from __future__ import annotations

from typing import Annotated

import typer

KeyArgument = Annotated[str, typer.Argument(metavar="KEY", help="A setting, e.g. color or doctor.fail_on.",
                                                   show_default=False)]
