"""The options commands of several groups share, declared once for Typer; named by command modules under
`if TYPE_CHECKING:` only, so the fast dispatch imports a command without Typer (`cli/declare.py`).
"""

from __future__ import annotations

from typing import Annotated

import typer

from vora_cli.cli.check_options import FORMATS
from vora_cli.cli.clickcompat import run_of
from vora_cli.cli.invocation import AppState

__all__ = ["Annotated", "AppState", "typer"]  # what command annotations name besides the aliases below


def _json_option(ctx: typer.Context, value: bool) -> bool:
    """`--json` records JSON mode for the whole run, and is on when the root's `--json` was given.

    Eager, so it is recorded before any other option or argument of its command can fail.
    """
    run = run_of(ctx)
    if value:
        run.json_mode = True
    return run.json_mode


def _format_option(ctx: typer.Context, value: str | None) -> str | None:
    """`--format json` is `--json`: recorded first, so even a usage error comes out as JSON."""
    if value == "json":
        run_of(ctx).json_mode = True
    return value


JsonOption = Annotated[bool, typer.Option(
    "--json", help="Print exactly one JSON document on stdout, errors included.", is_eager=True, callback=_json_option
)]
DryRunOption = Annotated[
    bool, typer.Option("--dry-run", help="Run every check a real write runs, show the change, write nothing.")
]
NoHeadersOption = Annotated[
    bool, typer.Option("--no-headers", help="Leave out the header row and title (for awk and cut).")
]
YesOption = Annotated[bool, typer.Option("--yes", "-y", help="Proceed without asking (for scripts).")]
RevealOption = Annotated[bool, typer.Option("--reveal", help="Show secrets (tokens, passwords) instead of <redacted>.")]


# -- the check engine's commands (`vora doctor`, `vora security audit`) ---------------------------

OnlyOption = Annotated[
    list[str] | None, typer.Option("--only", metavar="ID", help="Run only these checks (repeat, or a,b).")
]
SkipOption = Annotated[
    list[str] | None, typer.Option("--skip", metavar="ID", help="Leave these checks out (repeat, or a,b).")
]
FormatOption = Annotated[str | None, typer.Option(
    "--format", metavar="|".join(FORMATS), is_eager=True, callback=_format_option,
    help="Output: text (default), json (= --json), github (workflow annotations), junit (XML), sarif (2.1.0).",
)]

# -- the commands that ask the running gateway (`vora gateway`, `vora logs`, `--live`) ------------

UrlOption = Annotated[
    str | None,
    typer.Option("--url", metavar="URL", help="Gateway URL, ws:// or wss:// (default: env VORA_GATEWAY_URL, "
                 "the gateway.url setting, then the config: gateway.remote.url in remote mode, else "
                 "ws://127.0.0.1:<gateway.port>)."),
]
TimeoutOption = Annotated[
    float | None,
    typer.Option("--timeout", metavar="SEC", help="Seconds to wait for the socket, the handshake and each call "
                 "(default: the gateway.timeout setting, else 3)."),
]
