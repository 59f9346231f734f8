"""A real WebSocket gateway for the tests, speaking the protocol as spec gateway.md writes it.

It runs `websockets`' sync server on 127.0.0.1 (an ephemeral port) in a thread: sends the
`connect.challenge`, checks `connect` schema-strictly, verifies the Ed25519 device signature
with `cryptography` (its own v3 payload, not vora's code), answers `hello-ok`, serves
`health`, `doctor.memory.status` and `logs.tail`, and refuses with the error and close codes
of the spec. Every wait is bounded; nothing leaves loopback.

It can also be hostile (issue 22): `raw` answers a method with frames of the test's own
making (nested 100,000 deep, a flood of answers to ids vora never sent, NaN), `http_answer`
answers the WebSocket upgrade with a plain HTTP response (a redirect), `refusal` makes
`connect` fail with a given error document (one that repeats the credential it was sent).
"""

from __future__ import annotations

import base64
import hashlib
import json
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from websockets.exceptions import ConnectionClosed
from websockets.sync.server import Server, ServerConnection, serve

CONNECT_FIELDS = {"minProtocol", "maxProtocol", "client", "role", "scopes", "caps", "auth", "device", "commands",
                  "permissions", "pathEnv", "locale", "userAgent"}
CLIENT_FIELDS = {"id", "version", "platform", "mode", "displayName", "deviceFamily", "modelIdentifier", "instanceId"}
CLIENT_IDS = {"cli", "gateway-client", "webchat", "node-host", "test"}
CLIENT_MODES = {"webchat", "cli", "ui", "backend", "node", "probe", "test"}
DEVICE_FIELDS = {"id", "publicKey", "signature", "signedAt", "nonce"}
READ_METHODS = {"health", "status", "logs.tail", "doctor.memory.status", "tools.catalog", "config.get"}
WRITE_METHODS = {"chat.send"}


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def gateway_log_line(time_iso: str, message: str, *, level: str = "INFO", subsystem: str | None = "gateway",
                     extra: list[Any] | None = None) -> str:
    """One line as the gateway writes it to /tmp/vora/vora-YYYY-MM-DD.log."""
    doc: dict[str, Any] = {}
    args: list[Any] = ([json.dumps({"subsystem": subsystem})] if subsystem else []) + [message, *(extra or [])]
    for i, arg in enumerate(args):
        doc[str(i)] = arg
    doc["_meta"] = {"date": time_iso, "logLevelName": level, "name": "vora"}
    doc["time"] = time_iso
    return json.dumps(doc)


def iso(ms: int) -> str:
    """An ISO time with offset (UTC here) for a millisecond timestamp."""
    from datetime import UTC, datetime

    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat(timespec="milliseconds")


class Refused(Exception):
    def __init__(self, code: str, message: str, details: dict[str, Any] | None, close: int = 1008) -> None:
        super().__init__(message)
        self.code, self.message, self.details, self.close = code, message, details, close


@dataclass
class FakeGateway:
    token: str | None = None
    password: str | None = None
    auto_pair: bool = True  # loopback, no Origin: a new device is paired silently
    request_id: str | None = None  # the requestId a PAIRING_REQUIRED refusal names (None: a fresh uuid)
    paired: dict[str, list[str]] = field(default_factory=dict)  # deviceId -> approved scopes
    device_tokens: dict[str, str] = field(default_factory=dict)  # deviceId -> issued token
    version: str = "2026.4.2"
    uptime_ms: int = 60_000
    log_lines: list[str] = field(default_factory=list)
    log_file: str = "/tmp/vora/vora-2026-04-12.log"
    memory: dict[str, Any] | None = None
    close_on: dict[str, tuple[int, str]] = field(default_factory=dict)  # method -> close code, reason
    silent_on: set[str] = field(default_factory=set)  # methods never answered
    skew_ms: int = 0  # the gateway's clock minus the real one
    rate_limited: bool = False
    connects: list[dict[str, Any]] = field(default_factory=list)
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    origins: list[str | None] = field(default_factory=list)
    handlers: dict[str, Callable[[dict[str, Any]], Any]] = field(default_factory=dict)
    protocol: int = 3  # the protocol this gateway speaks
    send_challenge: bool = True
    reverse_batch: int = 0  # hold this many requests, then answer them last-first (pipelining, id matching)
    rotate_after: int | None = None  # logs.tail with a cursor: answer reset once the file "rotated"
    # hostile: method -> the raw text frames to send for that request (instead of its answer)
    raw: dict[str, Callable[[dict[str, Any]], Iterable[str]]] = field(default_factory=dict)
    http_answer: tuple[int, dict[str, str], bytes] | None = None  # status, headers, body for the upgrade
    refusal: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # connect params -> error document
    _server: Server | None = None
    _thread: threading.Thread | None = None
    port: int = 0

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> FakeGateway:
        self._server = serve(self._handle, "127.0.0.1", 0, compression=None, max_size=2**25,
                             process_request=self._process_request)
        self.port = int(self._server.socket.getsockname()[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def now_ms(self) -> int:
        return int(time.time() * 1000) + self.skew_ms

    def _process_request(self, connection: ServerConnection, request: Any) -> Any:
        if self.http_answer is None:
            return None
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        status, headers, body = self.http_answer
        return Response(status, "Moved" if 300 <= status < 400 else "Error", Headers(headers), body)

    # -- one connection ------------------------------------------------------------------------
    def _handle(self, ws: ServerConnection) -> None:
        self.origins.append(ws.request.headers.get("Origin") if ws.request else None)
        nonce = str(uuid.uuid4())
        if self.send_challenge:
            ws.send(json.dumps({"type": "event", "event": "connect.challenge", "payload": {"nonce": nonce,
                                                                                           "ts": self.now_ms()}}))
        try:
            first = json.loads(ws.recv(timeout=5))
        except (TimeoutError, ConnectionClosed, ValueError):
            ws.close(1008, "handshake timeout")
            return
        req_id = first.get("id")
        try:
            if first.get("type") != "req" or first.get("method") != "connect":
                raise Refused("INVALID_REQUEST", "invalid handshake: first request must be connect", None)
            hello, scopes = self._connect(first.get("params"), nonce)
        except Refused as refusal:
            error: dict[str, Any] = {"code": refusal.code, "message": refusal.message}
            if refusal.details is not None:
                error["details"] = refusal.details
            ws.send(json.dumps({"type": "res", "id": req_id, "ok": False, "error": error}))
            ws.close(refusal.close, refusal.message[:120])
            return
        ws.send(json.dumps({"type": "event", "event": "tick", "payload": {"ts": self.now_ms()}, "seq": 1}))
        ws.send(json.dumps({"type": "res", "id": req_id, "ok": True, "payload": hello}))
        try:
            self._serve_requests(ws, scopes)
        except (ConnectionClosed, TimeoutError):
            return

    def _serve_requests(self, ws: ServerConnection, scopes: list[str]) -> None:
        held: list[dict[str, Any]] = []
        for _ in range(1000):
            frame = json.loads(ws.recv(timeout=30))
            if self.reverse_batch:
                held.append(frame)
                if len(held) < self.reverse_batch:
                    continue
                for later in reversed(held[1:]):
                    self._serve_one(ws, later, scopes)
                self.reverse_batch, frame = 0, held[0]
            if not self._serve_one(ws, frame, scopes):
                return

    def _serve_one(self, ws: ServerConnection, frame: dict[str, Any], scopes: list[str]) -> bool:
        """Answer one request; False when the connection was closed on purpose."""
        method, params, req_id = frame.get("method"), frame.get("params") or {}, frame.get("id")
        self.requests.append((method, params))
        if method in self.close_on:
            code, reason = self.close_on[method]
            ws.close(code, reason)
            return False
        if method in self.silent_on:
            return True
        if method in self.raw:
            for text in self.raw[method](frame):
                ws.send(text)
            return True
        # events arrive at any time; a response for another id must be ignored too
        ws.send(json.dumps({"type": "event", "event": "health", "payload": {}}))
        ws.send(json.dumps({"type": "res", "id": "someone-else", "ok": True, "payload": {"not": "yours"}}))
        needed = "operator.write" if method in WRITE_METHODS else "operator.read"
        allowed = needed in scopes or "operator.admin" in scopes or (needed == "operator.read" and "operator.write" in scopes)
        if not allowed:
            ws.send(json.dumps({"type": "res", "id": req_id, "ok": False,
                                "error": {"code": "INVALID_REQUEST", "message": f"missing scope: {needed}"}}))
            return True
        try:
            payload = self._answer(method, params)
        except Refused as refusal:
            ws.send(json.dumps({"type": "res", "id": req_id, "ok": False,
                                "error": {"code": refusal.code, "message": refusal.message}}))
            return True
        ws.send(json.dumps({"type": "res", "id": req_id, "ok": True, "payload": payload}))
        return True

    # -- connect -------------------------------------------------------------------------------
    def _connect(self, params: Any, nonce: str) -> tuple[dict[str, Any], list[str]]:
        if not isinstance(params, dict):
            raise Refused("INVALID_REQUEST", "invalid connect params: not an object", None)
        self.connects.append(params)
        if self.refusal is not None:
            error = self.refusal(params)
            raise Refused(error["code"], error["message"], error.get("details"))
        unknown = set(params) - CONNECT_FIELDS
        if unknown or not {"minProtocol", "maxProtocol", "client"} <= set(params):
            raise Refused("INVALID_REQUEST", f"invalid connect params: {sorted(unknown) or 'missing fields'}", None)
        client = params["client"]
        if (not isinstance(client, dict) or set(client) - CLIENT_FIELDS
                or not {"id", "version", "platform", "mode"} <= set(client)
                or client["id"] not in CLIENT_IDS or client["mode"] not in CLIENT_MODES):
            raise Refused("INVALID_REQUEST", "invalid connect params: client", None)
        if not params["minProtocol"] <= self.protocol <= params["maxProtocol"]:
            raise Refused("INVALID_REQUEST", "protocol mismatch", {"expectedProtocol": self.protocol}, close=1002)
        role = params.get("role", "operator")
        scopes = list(params.get("scopes") or [])
        auth = params.get("auth") or {}
        device = params.get("device")
        if not isinstance(device, dict) or set(device) != DEVICE_FIELDS:
            raise Refused("INVALID_REQUEST", "invalid connect params: device", None)
        device_id = device["id"]
        self._check_auth(auth, device_id)
        self._check_device(device, client, role, scopes, auth, nonce)
        approved = self.paired.get(device_id)
        if approved is None:
            if not self.auto_pair:
                raise Refused("NOT_PAIRED", "pairing required",
                              {"code": "PAIRING_REQUIRED", "requestId": self.request_id or str(uuid.uuid4()),
                               "reason": "not-paired"})
            self.paired[device_id] = approved = list(scopes)
        if not set(scopes) <= set(approved) and "operator.admin" not in approved:
            raise Refused("NOT_PAIRED", "pairing required",
                          {"code": "PAIRING_REQUIRED", "requestId": str(uuid.uuid4()), "reason": "scope-upgrade"})
        token = self.device_tokens.setdefault(device_id, base64.urlsafe_b64encode(uuid.uuid4().bytes * 2)
                                              .rstrip(b"=").decode())
        hello = {
            "type": "hello-ok", "protocol": 3,
            "server": {"version": self.version, "connId": str(uuid.uuid4())},
            "features": {"methods": sorted(READ_METHODS | WRITE_METHODS), "events": ["tick", "health"]},
            "snapshot": {"presence": [], "health": {}, "stateVersion": {}, "uptimeMs": self.uptime_ms},
            "auth": {"deviceToken": token, "role": "operator", "scopes": approved, "issuedAtMs": self.now_ms()},
            "policy": {"maxPayload": 26214400, "maxBufferedBytes": 52428800, "tickIntervalMs": 30000},
        }
        return hello, scopes

    def _check_auth(self, auth: dict[str, Any], device_id: str) -> None:
        if self.rate_limited:
            raise Refused("INVALID_REQUEST", "unauthorized: too many failed authentication attempts (retry later)",
                          {"code": "AUTH_RATE_LIMITED"})
        if "deviceToken" in auth:
            if auth["deviceToken"] != self.device_tokens.get(device_id):
                raise Refused("INVALID_REQUEST", "unauthorized: device token mismatch",
                              {"code": "AUTH_DEVICE_TOKEN_MISMATCH"})
            return
        if self.token is not None:
            if "token" not in auth:
                raise Refused("INVALID_REQUEST", "unauthorized: gateway token missing", {"code": "AUTH_TOKEN_MISSING"})
            if auth["token"] != self.token:
                raise Refused("INVALID_REQUEST", "unauthorized: gateway token mismatch (set the same token)",
                              {"code": "AUTH_TOKEN_MISMATCH"})
        elif self.password is not None and auth.get("password") != self.password:
            raise Refused("INVALID_REQUEST", "unauthorized: gateway password mismatch",
                          {"code": "AUTH_PASSWORD_MISMATCH"})

    def _check_device(self, device: dict[str, Any], client: dict[str, Any], role: str, scopes: list[str],
                      auth: dict[str, Any], nonce: str) -> None:
        raw = b64url_decode(device["publicKey"])
        if hashlib.sha256(raw).hexdigest() != device["id"]:
            raise Refused("INVALID_REQUEST", "device identity mismatch", {"code": "DEVICE_AUTH_ID_MISMATCH"})
        if device["nonce"] != nonce:
            raise Refused("INVALID_REQUEST", "device nonce mismatch", {"code": "DEVICE_AUTH_NONCE_MISMATCH"})
        if abs(self.now_ms() - int(device["signedAt"])) > 120_000:
            raise Refused("INVALID_REQUEST", "device signature expired", {"code": "DEVICE_AUTH_SIGNATURE_EXPIRED"})

        def norm(value: Any) -> str:
            return "".join(c.lower() if "A" <= c <= "Z" else c for c in str(value or "").strip())

        token = auth.get("token") or auth.get("deviceToken") or ""
        payload = "|".join(["v3", device["id"], client["id"], client["mode"], role, ",".join(scopes),
                            str(device["signedAt"]), token, nonce, norm(client.get("platform")),
                            norm(client.get("deviceFamily"))])
        try:
            Ed25519PublicKey.from_public_bytes(raw).verify(b64url_decode(device["signature"]), payload.encode())
        except (InvalidSignature, ValueError):
            raise Refused("INVALID_REQUEST", "device signature invalid", {"code": "DEVICE_AUTH_SIGNATURE_INVALID"}) from None

    # -- methods -------------------------------------------------------------------------------
    def _answer(self, method: str, params: dict[str, Any]) -> Any:
        if method in self.handlers:
            return self.handlers[method](params)
        if method == "health":
            return {"ok": True, "ts": self.now_ms(), "durationMs": 3, "channels": {"telegram": {}, "slack": {}},
                    "channelOrder": ["telegram", "slack"], "channelLabels": {}, "heartbeatSeconds": 60,
                    "defaultAgentId": "main",
                    "agents": [{"agentId": "main", "isDefault": True, "heartbeat": {},
                                "sessions": {"path": "/x", "count": 2, "recent": []}}],
                    "sessions": {"path": "/x", "count": 2, "recent": []}}
        if method == "doctor.memory.status":
            return self.memory if self.memory is not None else {
                "agentId": "main", "provider": "auto", "embedding": {"ok": False, "error": "no API key"}}
        if method == "logs.tail":
            return self._logs_tail(params)
        raise Refused("INVALID_REQUEST", f"unknown method: {method}", None)

    def _logs_tail(self, params: dict[str, Any]) -> dict[str, Any]:
        lines = self.log_lines
        if "cursor" in params:
            cursor = int(params["cursor"])
            if self.rotate_after is not None and len(lines) >= self.rotate_after and cursor <= len(lines):
                self.rotate_after = None
                self.log_lines = lines = lines[cursor:]  # the old file is gone; the new one holds these
                return {"file": self.log_file, "cursor": len(lines), "size": len(lines), "lines": lines,
                        "reset": True}
            return {"file": self.log_file, "cursor": len(lines), "size": len(lines), "lines": lines[cursor:]}
        limit = int(params.get("limit", 200))
        return {"file": self.log_file, "cursor": len(lines), "size": len(lines), "lines": lines[-limit:]}


@contextmanager
def running_gateway(**options: Any) -> Iterator[FakeGateway]:
    gateway = FakeGateway(**options).start()
    try:
        yield gateway
    finally:
        gateway.stop()


@contextmanager
def silent_port() -> Iterator[int]:
    """A port that accepts TCP connections and never says a word."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
                accepted.append(conn)
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(timeout=2)
        for conn in accepted:
            conn.close()
        listener.close()


def refused_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = int(sock.getsockname()[1])
    sock.close()
    return port
