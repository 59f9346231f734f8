"""The options the `vora backup` commands share (`cli/options.py`): the keys of an encrypted archive."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

IdentityOption = Annotated[Path | None, typer.Option(
    "--identity", metavar="FILE", help="An age identity file (age-keygen's) to read an encrypted archive.")]
PassphraseOption = Annotated[bool, typer.Option(
    "--passphrase", help="Read the archive's passphrase from stdin (asked without echo on a terminal).")]
PassphraseFileOption = Annotated[Path | None, typer.Option(
    "--passphrase-file", metavar="FILE", help="Read the archive's passphrase from FILE (its first line).")]
