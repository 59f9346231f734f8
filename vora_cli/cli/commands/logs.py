"""`vora logs [--limit N] [--follow] [--json] [--file]` (spec gateway.md, `vora logs`).

Through the gateway when it answers; when it is refused or times out (never on an auth error),
or with `--file`, straight from the newest log file on this host. `--follow` polls once a
second with the cursor and prints a marker when the file was rotated; Ctrl-C ends with exit 0.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from vora_cli.cli.connect import open_client, setup
from vora_cli.cli.declare import command
from vora_cli.cli.json_text import to_json
from vora_cli.cli.output import Output, write_stdout
from vora_cli.cli.query import select_fields
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Annotated, Any

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, RevealOption, TimeoutOption, UrlOption
    from vora_cli.core.gateway.client import GatewayClient
    from vora_cli.core.gateway.logview import LogView

EXAMPLES = (
    "vora logs",
    "vora logs --limit 50 --json",
    "vora logs --follow",
    "vora logs --file --follow --json",
)
POLL_SECONDS = 1.0
ROTATED = "--- the log file was rotated or truncated; continuing from its start ---"
FALLBACK_CODES = ("gateway-unreachable", "gateway-timeout")


@command("logs", examples=EXAMPLES)
def logs(
    state: AppState,
    limit: Annotated[int, typer.Option("--limit", "-n", metavar="N", help="How many lines (1-5000).")] = 200,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new lines; Ctrl-C ends.")] = False,
    file: Annotated[bool, typer.Option("--file", help="Read the log file on this host; do not ask the gateway.")]
    = False,
    url: UrlOption = None,
    timeout: TimeoutOption = None,
    reveal: RevealOption = False,
    json: JsonOption = False,
) -> None:
    """Show the gateway's log lines as time, level, subsystem and message.

    Asks the running gateway (logs.tail); when it does not answer, or with --file, reads the
    newest log file on this host. The file is shared by every gateway of this user on this host:
    a line written before this gateway started, or after another gateway (another port) started,
    is marked. Secrets print as <redacted> unless --reveal. --json prints {source, file, lines};
    with --follow, one JSON object per line (JSON Lines).
    """
    if not 1 <= limit <= 5000:
        raise VoraError("usage", f"invalid --limit {limit}", "give a number of lines from 1 to 5000")
    try:
        _logs(state, limit, follow, file, url, timeout, reveal, json)
    except KeyboardInterrupt:
        if not follow:
            raise
        # Ctrl-C is how --follow ends, whenever it comes: also during the handshake or the
        # first tail, not only between polls (spec gateway.md: "Ctrl-C ends with exit 0")


def _logs(state: AppState, limit: int, follow: bool, file: bool, url: str | None, timeout: float | None,
          reveal: bool, json: bool) -> None:
    install = state.install
    out = state.output(json)
    found = setup(install, url, out)
    if not file:
        try:
            client = open_client(install, found, timeout, out, reveal=reveal)
        except VoraError as error:
            if error.code not in FALLBACK_CODES:
                raise
            out.note(f"The gateway did not answer ({error.message}); reading the log file on this host")
        else:
            with client:
                _from_gateway(client, out, limit, follow, reveal, json)
            return
    from vora_cli.core.gateway.logfile import configured_log_file, find_log_file

    search = find_log_file(configured_log_file(found.config), install.paths.home, install.paths.config_dir)
    skipped = "; ".join(f"not read: {reason}" for reason in search.skipped)
    if search.path is None:
        where = f"in {search.folder}" if search.folder is not None else "in a folder vora can trust"
        raise VoraError("not_found", f"no gateway log file (vora-YYYY-MM-DD.log) {where}"
                        + (f" ({skipped})" if skipped else ""),
                        "the gateway writes one when it runs; start it, or use vora logs through a running gateway"
                        + ("; remove or fix the folder vora did not read (the gateway refuses it too)" if skipped else ""))
    for reason in search.skipped:
        out.warn(f"not read: {reason}")
    from vora_cli.core.gateway.logview import file_view

    _from_file(search.path, file_view(found, install.env, reveal=reveal), out, limit, follow, json)


# -- printing ------------------------------------------------------------------------------------

def _printer(view: LogView, json_lines: bool, out: Output) -> Callable[[Iterable[str]], None]:
    def emit(raw_lines: Iterable[str]) -> None:
        for line in view.lines(raw_lines):
            # one line per log line: a message holding a newline must not print a forged next line
            if json_lines:  # `--query` selects from each line's object (JSON Lines: one document a line)
                doc = line.to_dict() if out.run.query is None else \
                    select_fields(out.run.query, line.to_dict(), out.run.command)
                write_stdout(to_json(doc, indent=None) + "\n")
            else:
                out.line(line.text())  # folded under itself on a terminal, whole when piped
        write_stdout("", flush=True)

    return emit


def _document(view: LogView, source: str, file: str | None, raw_lines: list[str]) -> dict[str, Any]:
    return {"source": source, "file": file, "lines": [line.to_dict() for line in view.lines(raw_lines)]}


def _rotated(out: Output, json: bool) -> None:
    if json:
        out.note(ROTATED)  # stdout holds only line objects
    else:
        write_stdout(ROTATED + "\n")


def _strings(value: Any) -> list[str]:
    return [s for s in value if isinstance(s, str)] if isinstance(value, list) else []


# -- the two sources ---------------------------------------------------------------------------------

def _from_gateway(client: GatewayClient, out: Output, limit: int, follow: bool, reveal: bool, json: bool) -> None:
    from vora_cli.core.gateway.logview import gateway_view

    # `health` in the same round trip: this gateway's process start, to mark the lines before it
    answer, health = client.call_many([("logs.tail", {"limit": limit}), ("health", {})])
    if isinstance(answer, VoraError):
        raise answer
    view = gateway_view(client, health, reveal=reveal)
    answer = answer if isinstance(answer, dict) else {}
    file = answer.get("file") if isinstance(answer.get("file"), str) else None
    lines = _strings(answer.get("lines"))
    if not follow:
        out.emit(_document(view, "gateway", file, lines), lambda o: _printer(view, False, o)(lines))
        return
    out.note(f"Following {file or 'the gateway log'} through {client.target.shown_url}; Ctrl-C ends")
    emit = _printer(view, json, out)
    emit(lines)
    cursor = answer.get("cursor")
    while True:  # until Ctrl-C (caught in `logs`)
        time.sleep(POLL_SECONDS)
        answer = client.call("logs.tail", {"cursor": cursor} if cursor is not None else {"limit": limit})
        answer = answer if isinstance(answer, dict) else {}
        if answer.get("reset") is True:
            _rotated(out, json)
        emit(_strings(answer.get("lines")))
        cursor = answer.get("cursor", cursor)


def _from_file(path: Path, view: LogView, out: Output, limit: int, follow: bool, json: bool) -> None:
    from vora_cli.core.gateway.logfile import read_from, tail_lines

    try:
        lines, size = tail_lines(path, limit)
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}", None) from None
    out.note(f"Log file {path} (read directly; it is shared by every gateway of this user on this host)")
    if not follow:
        out.emit(_document(view, "file", str(path), lines), lambda o: _printer(view, False, o)(lines))
        return
    emit = _printer(view, json, out)
    emit(lines)
    offset = size
    while True:  # until Ctrl-C (caught in `logs`)
        time.sleep(POLL_SECONDS)
        try:
            new, offset, reset = read_from(path, offset)
        except FileNotFoundError:
            continue  # between the gateway's delete and its next write
        if reset:
            _rotated(out, json)
        emit(new)
