"""What the code under test asked to wait for, recorded at the calls that wait.

Tests of timeouts assert on the mechanism instead of a stopwatch (docs/testing.md, "No wall-clock
bounds"): that the configured timeout reached the socket connect, the WebSocket opening and each
receive; that exactly one attempt was made; how long the sleeps asked for, in sum. The real calls
still run (a silent port really times out), so the behaviour is the one the user gets; only the
measurement changes, and it does not move on a loaded machine.
"""

from __future__ import annotations

import socket
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import pytest


@dataclass
class Receive:
    timeout: float | None
    timed_out: bool


@dataclass
class Waits:
    connects: list[float | None] = field(default_factory=list)  # socket.create_connection(timeout=)
    opens: list[float | None] = field(default_factory=list)  # websockets.sync.client.connect(open_timeout=)
    receives: list[Receive] = field(default_factory=list)  # the client's ws.recv(timeout=)
    sleeps: list[float] = field(default_factory=list)  # time.sleep() called from vora_cli

    def clear(self) -> None:
        for waits in (self.connects, self.opens, self.receives, self.sleeps):
            waits.clear()

    @property
    def timed_out(self) -> list[Receive]:
        return [r for r in self.receives if r.timed_out]


def record_waits(monkeypatch: pytest.MonkeyPatch) -> Waits:
    """Record every wait the in-process `vora` asks for until the test ends (sleeps only when
    vora_cli itself calls them: the test gateway's own are not vora's)."""
    from websockets.sync import client as ws_client

    waits = Waits()
    real_create = socket.create_connection
    real_connect = ws_client.connect
    real_recv = ws_client.ClientConnection.recv
    real_sleep = time.sleep

    def create_connection(address: Any, *args: Any, **kw: Any) -> Any:
        waits.connects.append(args[0] if args else kw.get("timeout"))
        return real_create(address, *args, **kw)

    def connect(*args: Any, **kw: Any) -> Any:
        waits.opens.append(kw.get("open_timeout"))
        return real_connect(*args, **kw)

    def recv(self: Any, timeout: float | None = None, *args: Any, **kw: Any) -> Any:
        try:
            answer = real_recv(self, timeout, *args, **kw)
        except TimeoutError:
            waits.receives.append(Receive(timeout, timed_out=True))
            raise
        waits.receives.append(Receive(timeout, timed_out=False))
        return answer

    def sleep(seconds: float) -> None:
        if sys._getframe(1).f_globals.get("__name__", "").startswith("vora_cli."):
            waits.sleeps.append(seconds)
        real_sleep(seconds)

    monkeypatch.setattr(socket, "create_connection", create_connection)
    monkeypatch.setattr(ws_client, "connect", connect)
    monkeypatch.setattr(ws_client.ClientConnection, "recv", recv)
    monkeypatch.setattr(time, "sleep", sleep)
    return waits
