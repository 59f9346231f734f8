"""`vora gateway call METHOD`: one raw RPC for scripts; the payload as JSON on stdout."""

from __future__ import annotations

from vora_cli.cli.connect import open_client, setup
from vora_cli.cli.declare import command
from vora_cli.cli.output import write_stdout

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, RevealOption, TimeoutOption, UrlOption


@command("call", examples=(
    "vora gateway call health",
    "vora gateway call logs.tail --params '{\"limit\": 20}'",
    "vora gateway call config.get --json",
))
def gateway_call(
    state: AppState,
    method: Annotated[str, typer.Argument(metavar="METHOD", help="The gateway method, e.g. health or logs.tail.",
                                          show_default=False)],
    params: Annotated[str, typer.Option("--params", metavar="JSON", help="The params: a JSON object.")] = "{}",
    scope: Annotated[list[str] | None, typer.Option(
        "--scope", metavar="SCOPE",
        help="Ask for this scope (repeatable; default operator.read). More than the device's approved scopes "
             "needs a pairing approval.")] = None,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    reveal: RevealOption = False,
    json: JsonOption = False,
) -> int:
    """Call one gateway method and print its payload as JSON (with or without --json).

    Secrets in the payload (secret-named keys, tokens in text, the credential vora sent) print as
    <redacted> unless --reveal. Exit 0 on an answer, 1 when the gateway answers with an error or
    cannot be reached, 2 when --params is not a JSON object the gateway can read back.
    """
    from vora_cli.core.gateway.params import parse_call_params

    body = parse_call_params(params)
    scopes = list(dict.fromkeys(s.strip() for s in scope or [] if s.strip())) or None
    install = state.install
    out = state.output(json)
    found = setup(install, url, out)
    with open_client(install, found, timeout, out, scopes, reveal=reveal) as client:
        payload = client.call(method, body)
    write_stdout(out.run.stdout_json(payload))
    return 0
