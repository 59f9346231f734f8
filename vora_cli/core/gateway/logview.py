"""`vora logs`: the lines as shown, masked, and labelled by the gateway start they follow (docs/gateway.md,
"Whose lines").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from vora_cli.core.gateway.logfile import LogLine, format_log_line, parse_shown_line
from vora_cli.core.gateway.shown import Masker
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.gateway.client import GatewayClient
    from vora_cli.core.gateway.connect import GatewaySetup
    from vora_cli.core.gateway.target import Target

START = "loading configuration"  # the first line of every gateway start (subsystem `gateway`)
CANVAS = re.compile(r"canvas host mounted at https?://\S*?:(\d{1,5})/")
EARLIER = "earlier"
OTHER = "other"


@dataclass(frozen=True)
class ShownLine:
    """A log line as `vora logs` shows it: which gateway start it follows, when not this one."""

    line: LogLine
    origin: str | None  # earlier | other | None
    port: int | None  # the port of the gateway start this line follows, when its canvas line named it

    def to_dict(self) -> dict[str, Any]:
        return {**self.line.to_dict(), "origin": self.origin, "gatewayPort": self.port}

    def text(self) -> str:
        if self.origin == EARLIER:
            mark = "[before this gateway started] "
        elif self.origin == OTHER:
            mark = f"[after gateway :{self.port} started] "
        else:
            mark = ""
        return mark + format_log_line(self.line)


def start_port(line: LogLine) -> int | None:
    """The port a gateway start's canvas line names."""
    if line.subsystem is not None and not line.subsystem.startswith("gateway"):
        return None
    match = CANVAS.match(line.message) if line.message.startswith("canvas host mounted at ") else None
    return int(match.group(1)) if match else None


def is_start(line: LogLine) -> bool:
    return line.subsystem == "gateway" and line.message.startswith(START)


@dataclass
class LogView:
    """Turns raw lines into shown ones, batch after batch (`--follow`): masked unless `masker` is
    None (`--reveal`), labelled against this gateway's port and process start when known."""

    masker: Masker | None
    own_port: int | None = None
    since_ms: int | None = None  # this gateway's process start less 1 s (through the gateway only)
    _port: int | None = field(default=None, repr=False)  # the start the lines now follow
    _start_ms: int | None = field(default=None, repr=False)  # when that start was logged

    def lines(self, raw_lines: Iterable[str]) -> list[ShownLine]:
        parsed = [self._parse(raw) for raw in raw_lines]
        out: list[ShownLine] = []
        for index, line in enumerate(parsed):
            if is_start(line):  # its port is named a few lines on: look ahead, within this batch
                self._port = next((p for p in map(start_port, parsed[index:index + 40]) if p is not None), None)
                self._start_ms = line.time_ms
            elif (port := start_port(line)) is not None:
                self._port, self._start_ms = port, line.time_ms
            self._after_own_start(line)
            out.append(ShownLine(line, self._origin(line), self._port))
        return out

    def _parse(self, raw: str) -> LogLine:
        return parse_shown_line(raw, None if self.masker is None else self.masker.text)

    def _after_own_start(self, line: LogLine) -> None:
        """A line from after this gateway's process start follows this start, even when the tail
        lost (or the start never logged) its canvas line: the last start seen is older."""
        when = line.time_ms
        if (self.since_ms is not None and when is not None and when >= self.since_ms
                and (self._start_ms is None or self._start_ms < self.since_ms)):
            self._port, self._start_ms = self.own_port, self.since_ms

    def _origin(self, line: LogLine) -> str | None:
        when = line.time_ms
        if self.since_ms is not None and when is not None and when < self.since_ms:
            return EARLIER
        if self._port is not None and self.own_port is not None and self._port != self.own_port:
            return OTHER
        return None


def own_port(target: Target) -> int | None:
    """This gateway's port, as its canvas line names it: the URL's, when the URL is the gateway
    itself on this host (a remote URL may be a proxy's port)."""
    from urllib.parse import urlsplit

    from vora_cli.core.gateway.target import is_loopback_host

    try:
        parts = urlsplit(target.url)
        return parts.port if parts.hostname and is_loopback_host(parts.hostname) else None
    except ValueError:
        return None


def gateway_view(client: GatewayClient, health: Any, *, reveal: bool) -> LogView:
    """The view of lines `logs.tail` returned through this connection: masked by the client's
    rules, labelled against this gateway's port and process start (from `health`, if it answered)."""
    from vora_cli.core.gateway.status import start_bound_ms

    hello = client.hello
    since = start_bound_ms(health, hello.snapshot) if hello is not None and isinstance(health, dict) else None
    return LogView(None if reveal else client.masker, own_port(client.target), since)


def file_view(setup: GatewaySetup, env: Mapping[str, str], *, reveal: bool) -> LogView:
    """The view of lines read from the file: masked with the run's known secrets, labelled against
    the port of the gateway this run would talk to (no process start is known)."""
    from vora_cli.core.gateway.shown import known_secrets

    return LogView(None if reveal else Masker(known_secrets(setup.config, env)), own_port(setup.target))
