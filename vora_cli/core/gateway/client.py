"""One WebSocket to the gateway: handshake, calls matched by id, a clean close (spec gateway.md); failures
never name the secret, payloads pass vora's secret rules (`shown.py`) unless `reveal`.

Why one module: the opening, the handshake and the calls share one socket's state and its failures.
"""

from __future__ import annotations

import itertools
import json
import socket
import sys
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from urllib.parse import urlsplit

from vora_cli import __version__
from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.gateway import device as dev
from vora_cli.core.gateway import failures
from vora_cli.core.gateway.shapes import arr, obj
from vora_cli.core.gateway.shown import Masker
from vora_cli.core.gateway.target import AUTH_DEVICE_TOKEN, AUTH_NONE, Credential, Target
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    import logging
    from typing import Any

    from websockets.sync.client import ClientConnection

PROTOCOL = 3
READ_SCOPES = ("operator.read",)
CLIENT_ID = "cli"
CLIENT_MODE = "cli"
ROLE = "operator"
# The gateway's policy.maxPayload is 25 MiB; a logs.tail answer can come close to it.
MAX_FRAME = 32 * 1024 * 1024
# Frames the library holds before it stops reading the socket (its default, 16, is 512 MiB here).
MAX_QUEUE = 2
AUTH_CODES = ("AUTH_TOKEN_", "AUTH_PASSWORD_", "AUTH_DEVICE_TOKEN_MISMATCH", "AUTH_UNAUTHORIZED", "AUTH_REQUIRED",
              "AUTH_RATE_LIMITED")


def node_platform() -> str:
    """The Node.js-style OS name the gateway pins for a paired device: linux, darwin, win32."""
    return sys.platform


@dataclass(frozen=True)
class Hello:
    """What `hello-ok` told us, plus what vora measured and sent."""

    protocol: int
    server: dict[str, Any]
    methods: tuple[str, ...]
    snapshot: dict[str, Any]
    token_scopes: tuple[str, ...] | None
    latency_ms: int
    scopes: tuple[str, ...]
    credential: Credential
    device_id: str
    identity_created: bool
    token_stored: bool


@dataclass
class GatewayClient:
    """`with GatewayClient(...) as client: client.call("health")`: one connection, closed on exit."""

    target: Target
    state_dir: Path
    timeout: float  # seconds for the socket, the handshake and each call
    now_ms: int  # the run's clock (the signature's signedAt, the stored token's updatedAtMs)
    lock_timeout: float  # for the identity and device-token writes
    scopes: Sequence[str] = READ_SCOPES
    secrets: frozenset[str] = frozenset()  # what this run knows to be secret (config, environment)
    reveal: bool = False  # payloads as the gateway sent them (`--reveal`); messages are masked anyway
    hello: Hello | None = None
    may_write: bool = True  # False in a newer line's state dir (core/newer_line.py): no token is stored
    refuse_write: Callable[[str], None] | None = field(default=None, repr=False)  # then: no identity made
    identity_created: bool = False  # set as soon as the handshake made one, even if it then fails
    _ws: ClientConnection | None = field(default=None, repr=False)
    _ids: Any = field(default_factory=lambda: itertools.count(1), repr=False)
    _prefix: str = field(default_factory=lambda: uuid.uuid4().hex[:8], repr=False)
    _answers: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)
    _pending: set[str] = field(default_factory=set, repr=False)  # ids sent and still waited for
    _masker: Masker | None = field(default=None, repr=False)

    @property
    def masker(self) -> Masker:
        """Hides the known secrets and, once the handshake chose it, the credential sent."""
        if self._masker is None:
            self._masker = Masker(self.secrets).with_secret(self.target.credential.secret)
        return self._masker

    def __enter__(self) -> GatewayClient:
        if self._ws is None:
            self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- connection ---------------------------------------------------------------------------
    def open(self) -> Hello:
        url, shown = self.target.url, self.target.shown_url
        started = time.monotonic()
        # The TCP connection first, with the stdlib: a refused port (the common "gateway down")
        # then fails at once, without importing the WebSocket library at all.
        sock = self._open_socket()
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
        from websockets.sync.client import connect

        try:
            opened = connect(url, sock=sock, origin=None, compression=None, max_size=MAX_FRAME, max_queue=MAX_QUEUE,
                             open_timeout=self.timeout, close_timeout=min(self.timeout, 1.0), proxy=None,
                             ping_interval=None, user_agent_header=f"vora/{__version__}", logger=_silent_logger())
            # websockets 17.1+ wants the connection used as a context manager; close() exits it.
            self._ws = opened.__enter__()
        except TimeoutError:
            raise failures.timed_out(self.target, self.timeout, "opening the WebSocket") from None
        except InvalidURI as exc:
            raise VoraError("usage", f"invalid gateway URL {shown!r}: {str(exc).replace(url, shown)}",
                            "use ws://HOST:PORT") from None
        except InvalidHandshake as exc:
            raise VoraError("gateway-protocol", f"{shown} ({self.target.how_chosen}) did not accept a gateway "
                            f"WebSocket: {self.masker.text(str(exc).replace(url, shown))}",
                            "check that the URL points at a Vora gateway") from None
        except OSError as exc:
            raise VoraError("gateway-unreachable", f"cannot reach {shown} ({self.target.how_chosen}): "
                            f"{exc.strerror or exc}", failures.START_HINT) from None
        except ValueError as exc:
            # websockets refuses to follow a redirect over the socket vora opened (and vora would
            # not: the credential would go to a URL nobody named); anything else it refuses alike
            raise failures.not_followed(self.target, self.masker, exc) from None
        finally:
            if self._ws is None:
                sock.close()
        try:
            return self._handshake(started)
        except ConnectionClosed as exc:
            self.close()
            raise failures.closed(self.target, self.masker, exc, "the handshake") from None
        except BaseException:
            self.close()
            raise

    def _open_socket(self) -> socket.socket:
        parts = urlsplit(self.target.url)
        url = self.target.shown_url  # for the messages
        port = parts.port or (443 if parts.scheme == "wss" else 80)
        try:
            sock = socket.create_connection((parts.hostname or "", port), timeout=self.timeout)
        except ConnectionRefusedError:
            raise VoraError("gateway-unreachable", f"no gateway is listening at {url} (connection refused; "
                            f"{self.target.how_chosen})", failures.START_HINT) from None
        except TimeoutError:
            raise failures.timed_out(self.target, self.timeout, "opening the connection") from None
        except OSError as exc:
            raise VoraError("gateway-unreachable", f"cannot reach {url} ({self.target.how_chosen}): "
                            f"{exc.strerror or exc}", failures.START_HINT) from None
        sock.settimeout(None)
        return sock

    def close(self) -> None:
        ws, self._ws = self._ws, None
        if ws is not None:
            try:
                ws.__exit__(None, None, None)
            except Exception:  # closing a socket the peer already dropped is not a failure
                pass

    # -- calls --------------------------------------------------------------------------------
    def call(self, method: str, params: Mapping[str, Any] | None = None, timeout: float | None = None) -> Any:
        """Send one request and return its payload; a method error is `gateway-method-error`."""
        result = self.call_many([(method, params)], timeout)[0]
        if isinstance(result, VoraError):
            raise result
        return result

    def call_many(self, calls: Sequence[tuple[str, Mapping[str, Any] | None]],
                  timeout: float | None = None) -> list[Any]:
        """Send every request at once, then collect the answers by id (one round trip, not one per
        call). Each item is the payload or the `VoraError` of that call; each wait is bounded
        by the timeout on its own. A closed connection fails every call still waiting."""
        from websockets.exceptions import ConnectionClosed

        limit = self.timeout if timeout is None else timeout
        results: list[Any] = []
        try:
            ids = [self._send(method, dict(params or {})) for method, params in calls]
        except (ConnectionClosed, VoraError) as exc:
            error = failures.closed(self.target, self.masker, exc, calls[0][0]) if isinstance(exc, ConnectionClosed) else exc
            self.close()
            return [error for _ in calls]
        for (method, _), request_id in zip(calls, ids, strict=True):
            if self._ws is None:
                results.append(VoraError("gateway-closed", f"{method}: the connection to {self.target.shown_url} "
                                         "was closed", "run the command again"))
                continue
            try:
                frame = self._await(request_id, time.monotonic() + limit, method)
            except ConnectionClosed as exc:
                self.close()
                results.append(failures.closed(self.target, self.masker, exc, method))
                continue
            except VoraError as error:
                self._pending.discard(request_id)  # a late answer is dropped, not kept
                results.append(error)
                continue
            if frame.get("ok") is not True:
                results.append(failures.method_error(method, frame.get("error"), self.masker))
            else:
                payload = frame.get("payload")
                results.append(payload if self.reveal else self.masker.payload(payload))
        return results

    def _send(self, method: str, params: dict[str, Any]) -> str:
        if self._ws is None:
            raise VoraError("gateway-closed", f"{method}: the connection to {self.target.shown_url} is already closed",
                            "run the command again")
        request_id = f"vora-{self._prefix}-{next(self._ids)}"
        # strict JSON (no NaN/Infinity): what the gateway's JSON.parse cannot read, it drops unanswered
        self._ws.send(json.dumps({"type": "req", "id": request_id, "method": method, "params": params},
                                 allow_nan=False))
        self._pending.add(request_id)
        return request_id

    def _await(self, request_id: str, deadline: float, waiting_for: str) -> dict[str, Any]:
        """The response with this id. Answers to the other ids still waited for are kept for their
        own wait (at most one each); events and answers to anything else are dropped, and a wait
        that has to drop more than MAX_DROPPED_BYTES or MAX_DROPPED_FRAMES stops with an error."""
        dropped = failures.Dropped(self, waiting_for)
        while request_id not in self._answers:
            frame, size = self._receive_sized(deadline, waiting_for)
            answer_to = frame.get("id") if frame.get("type") == "res" else None
            if isinstance(answer_to, str) and answer_to in self._pending:
                self._pending.discard(answer_to)
                self._answers[answer_to] = frame
            else:
                dropped.add(size)
        return self._answers.pop(request_id)

    def _request(self, method: str, params: dict[str, Any], timeout: float) -> dict[str, Any]:
        return self._await(self._send(method, params), time.monotonic() + timeout, method)

    def _receive_sized(self, deadline: float, waiting_for: str) -> tuple[dict[str, Any], int]:
        """The next frame as an object ({} when it is not one) and its size in characters."""
        assert self._ws is not None
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise failures.timed_out(self.target, self.timeout, waiting_for)
        try:
            raw = self._ws.recv(timeout=remaining)
        except TimeoutError:
            raise failures.timed_out(self.target, self.timeout, waiting_for) from None
        try:
            frame = nesting.loads(raw)
        except nesting.TooDeep:
            # not a frame the gateway (JSON.stringify of its own answers) would send; which call it
            # answers cannot be known without reading it, so the wait ends here
            raise VoraError("gateway-protocol", f"{self.target.shown_url} sent a frame nested deeper than "
                            f"{nesting.MAX_NESTING} levels while vora waited for {waiting_for}; vora does not "
                            "read it", "check that the URL points at a Vora gateway") from None
        except (TypeError, ValueError):
            return {}, len(raw)
        return frame if isinstance(frame, dict) else {}, len(raw)

    # -- the handshake ------------------------------------------------------------------------
    def _handshake(self, started: float) -> Hello:
        deadline = time.monotonic() + self.timeout
        dropped = failures.Dropped(self, "the connect.challenge")
        while True:
            frame, size = self._receive_sized(deadline, "the connect.challenge")
            if frame.get("type") == "event" and frame.get("event") == "connect.challenge":
                break
            dropped.add(size)
        payload = obj(frame.get("payload"))
        nonce = payload.get("nonce")
        if not isinstance(nonce, str) or not nonce:
            raise VoraError("gateway-protocol", f"{self.target.shown_url} sent a connect.challenge without a nonce",
                            "check that the URL points at a Vora gateway")
        now = self.now_ms
        identity = dev.load_or_create_identity(self.state_dir / "identity" / "device.json", now, self.lock_timeout,
                                               refuse_create=None if self.may_write else self.refuse_write)
        self.identity_created = identity.created
        credential = self.target.credential
        if credential.mode == AUTH_NONE and self.target.device_token_allowed:
            stored = dev.read_device_token(self.state_dir, identity.device_id)
            if stored is not None:
                credential = Credential(AUTH_DEVICE_TOKEN, "device token", stored)
                self._masker = self.masker.with_secret(stored)
        params = self._connect_params(identity, credential, nonce, now)
        frame = self._request("connect", params, self.timeout)
        if frame.get("ok") is not True:
            raise self._refused(frame.get("error"), credential, identity)
        hello = obj(frame.get("payload"))
        latency = int((time.monotonic() - started) * 1000)
        auth = hello.get("auth") if isinstance(hello.get("auth"), dict) else None
        token_stored = False
        token_scopes: tuple[str, ...] | None = None
        if auth is not None:
            scopes = auth.get("scopes")
            token_scopes = tuple(s for s in scopes if isinstance(s, str)) if isinstance(scopes, list) else ()
            token = auth.get("deviceToken")
            if isinstance(token, str) and token:
                # the token it just issued is vora's credential from now on: a payload of this very
                # connection that repeats it is masked as the one vora sent would be
                self._masker = self.masker.with_secret(token)
                if self.target.device_token_allowed and self.may_write:
                    token_stored = dev.store_device_token(self.state_dir, identity.device_id, token, token_scopes,
                                                           now, self.lock_timeout)
        server = obj(hello.get("server"))
        features = obj(hello.get("features"))
        methods = arr(features.get("methods"))
        snapshot = obj(hello.get("snapshot"))
        protocol = hello.get("protocol")
        self.hello = Hello(
            protocol=protocol if isinstance(protocol, int) else PROTOCOL,
            server=self.masker.payload({"version": server.get("version"), "connId": server.get("connId")}),
            methods=tuple(m for m in methods if isinstance(m, str)),
            snapshot=snapshot,
            token_scopes=None if token_scopes is None else tuple(self.masker.text(s) for s in token_scopes),
            latency_ms=latency,
            scopes=tuple(self.scopes),
            credential=credential,
            device_id=identity.device_id,
            identity_created=identity.created,
            token_stored=token_stored,
        )
        return self.hello

    def _connect_params(self, identity: dev.DeviceIdentity, credential: Credential, nonce: str,
                        now: int) -> dict[str, Any]:
        platform = node_platform()
        scopes = list(self.scopes)
        auth: dict[str, str] | None = None
        signed_token: str | None = None
        if credential.secret is not None:
            key = {"token": "token", "password": "password", AUTH_DEVICE_TOKEN: "deviceToken"}[credential.mode]
            auth = {key: credential.secret}
            signed_token = credential.secret if credential.mode != "password" else None  # a password is not signed
        payload = dev.build_v3_payload(
            device_id=identity.device_id, client_id=CLIENT_ID, client_mode=CLIENT_MODE, role=ROLE, scopes=scopes,
            signed_at_ms=now, token=signed_token, nonce=nonce, platform=platform, device_family=None,
        )
        params: dict[str, Any] = {
            "minProtocol": PROTOCOL,
            "maxProtocol": PROTOCOL,
            "client": {"id": CLIENT_ID, "mode": CLIENT_MODE, "version": __version__, "platform": platform,
                       "displayName": "vora"},
            "role": ROLE,
            "scopes": scopes,
            "caps": [],
            "device": {"id": identity.device_id, "publicKey": identity.public_key,
                       "signature": identity.sign(payload), "signedAt": now, "nonce": nonce},
        }
        if auth is not None:
            params["auth"] = auth
        return params

    # -- errors -------------------------------------------------------------------------------
    def _refused(self, error: Any, credential: Credential, identity: dev.DeviceIdentity) -> VoraError:
        error = error if isinstance(error, dict) else {}
        message = self.masker.text(str(error.get("message") or error.get("code") or "refused"))
        details = obj(error.get("details"))
        detail_code = str(details.get("code") or "")
        if detail_code == "PAIRING_REQUIRED":
            return failures.pairing_required(details, identity.device_id, self.masker)
        if detail_code.startswith(AUTH_CODES):
            if detail_code == "AUTH_DEVICE_TOKEN_MISMATCH" and credential.mode == AUTH_DEVICE_TOKEN and self.may_write:
                dev.forget_device_token(self.state_dir, identity.device_id, self.lock_timeout)
            hint = ("the gateway limits failed attempts: retry later" if detail_code == "AUTH_RATE_LIMITED" else
                    "check VORA_GATEWAY_TOKEN / gateway.auth.token (or the password) against the gateway's")
            if detail_code == "AUTH_DEVICE_TOKEN_MISMATCH":
                hint = "the stored device token was dropped; set VORA_GATEWAY_TOKEN or pair again"
            if credential.mode == AUTH_NONE:
                kept = ("" if self.target.device_token_allowed else "; the stored device token goes only to the "
                        "gateway the config names, not to a URL given by --url, VORA_GATEWAY_URL or gateway.url")
                return VoraError("gateway-auth", f"the gateway wants a credential and vora had none to send: {message}",
                                 f"set VORA_GATEWAY_TOKEN (or gateway.auth.token / VORA_GATEWAY_PASSWORD){kept}")
            what = "password" if credential.mode == "password" else "token"
            return VoraError("gateway-auth", f"the gateway refused the {what} from {credential.source}: {message}",
                             hint)
        if detail_code.startswith("DEVICE_AUTH_"):
            hint = ("check this host's clock (the gateway allows 2 minutes of skew)"
                    if detail_code.endswith("SIGNATURE_EXPIRED") else
                    "run vora doctor --only device-identity; check the identity file")
            return VoraError("gateway-device-auth", f"the gateway refused this device's signature: {message}", hint)
        if "expectedProtocol" in details or message == "protocol mismatch":
            return VoraError("gateway-protocol", f"protocol mismatch: vora speaks {PROTOCOL}, the gateway "
                             f"expects {details.get('expectedProtocol', '?')}", "update vora or the gateway")
        return VoraError("gateway-protocol", f"the gateway refused connect: {message}", None)


def _silent_logger() -> logging.Logger:
    """The logger handed to websockets: its receive thread logs a peer's garbage with a traceback
    (and could log a frame), which Python would print on stderr; vora says what failed in one line."""
    import logging

    quiet = logging.getLogger("vora.gateway.websocket")
    if not quiet.handlers:
        quiet.addHandler(logging.NullHandler())
        quiet.propagate = False
    return quiet
