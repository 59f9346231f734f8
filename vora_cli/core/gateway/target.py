"""Which gateway, and which credential (spec gateway.md, "Finding the gateway").

Pure functions of the config (placeholders resolved) and the environment: the result names
the source of the URL and of the credential, never printing the secret.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlsplit

from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass, field
from vora_cli.core.secrets import redact_urls
from vora_cli.core.settings.resolve import SOURCE_ENV, SOURCE_FLAG, Settings
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_PORT = 18789

# How the URL was chosen (`urlSource` of `gateway status --json`).
URL_FLAG = "--url"
URL_ENV = "VORA_GATEWAY_URL"
URL_SETTINGS = "settings"  # the `gateway.url` key of `vora settings`; the spec is silent (docs/gateway.md)
URL_REMOTE = "gateway.remote.url"
URL_PORT_ENV = "VORA_GATEWAY_PORT"
URL_PORT_CONFIG = "gateway.port"
URL_DEFAULT = "default"
EXPLICIT_SOURCES = (URL_FLAG, URL_ENV, URL_SETTINGS)  # URLs the config did not name

AUTH_TOKEN = "token"
AUTH_PASSWORD = "password"
AUTH_DEVICE_TOKEN = "device-token"
AUTH_NONE = "none"


@dataclass(frozen=True)
class Credential:
    """What vora sends in `connect.auth`: its kind, where it came from, and the secret itself."""

    mode: str  # token | password | device-token | none
    source: str  # VORA_GATEWAY_TOKEN, gateway.auth.token, ..., device token, none
    secret: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, str]:
        return {"mode": self.mode, "source": self.source}


@dataclass(frozen=True)
class Target:
    """The gateway's URL and the credential a command connects with."""
    url: str
    url_source: str
    credential: Credential  # the shared credential (mode none when there is none)
    warnings: tuple[str, ...] = ()
    config_url: str | None = None  # the URL the config resolves to (local or remote), wherever `url` came from

    @property
    def device_token_allowed(self) -> bool:
        """Whether this host's stored device token may be sent here, and a new one stored from
        here: only to the gateway the config names (docs/gateway.md, "The device token goes only
        to the config's gateway"). A stand-in at another URL would learn a credential of the real
        gateway, and could replace or delete the stored one."""
        if self.url_source not in EXPLICIT_SOURCES:
            return True
        return self.config_url is not None and same_origin(self.url, self.config_url)

    @property
    def shown_url(self) -> str:
        """The URL as printed: a password or token inside it is never shown."""
        return redact_urls(self.url)

    @property
    def how_chosen(self) -> str:
        """`from --url`, `from gateway.port`, `the default port`: for one-line errors."""
        if self.url_source == URL_DEFAULT:
            return "the default local gateway"
        if self.url_source == URL_SETTINGS:
            return "from the gateway.url setting"
        return f"from {self.url_source}"


def _text(value: Any) -> str | None:
    """A trimmed string; an empty string counts as unset."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


def _get(config: Mapping[str, Any], *path: str) -> Any:
    node: Any = config
    for key in path:
        if not isinstance(node, Mapping):
            return None
        node = node.get(key)
    return node


def _port_from_env(raw: str) -> int | None:
    """`VORA_GATEWAY_PORT`: a positive integer; `host:port` and `[v6]:port` take the port part."""
    text = raw.strip()
    if text.startswith("["):
        match = re.fullmatch(r"\[[^\]]*\]:(\d+)", text)
        text = match.group(1) if match else ""
    elif ":" in text:
        text = text.rsplit(":", 1)[1]
    # JavaScript's `\d` is ASCII; a run too long for `int()` is the gateway's Infinity: not a port.
    digits = text.lstrip("0")
    if text.isascii() and text.isdigit() and len(digits) <= 5 and 0 < int(digits or "0") < 65536:
        return int(digits)
    return None


def same_origin(a: str, b: str) -> bool:
    """The same scheme, host (case-insensitive) and port, default ports filled in."""
    def origin(url: str) -> tuple[str, str, int] | None:
        try:
            parts = urlsplit(url)
            port = parts.port or (443 if parts.scheme == "wss" else 80)
        except ValueError:
            return None
        return parts.scheme, (parts.hostname or "").lower(), port

    return origin(a) is not None and origin(a) == origin(b)


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower()
    return host in ("localhost", "::1") or bool(re.fullmatch(r"127\.\d{1,3}\.\d{1,3}\.\d{1,3}", host))


def check_url(url: str, source: str, env: Mapping[str, str]) -> str:
    """A `ws://` or `wss://` URL; plaintext to a non-loopback host only with the env opt-in."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or ""
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        parts, host = None, ""
    if parts is None or parts.scheme not in ("ws", "wss") or not host:
        raise VoraError("usage", f"invalid gateway URL {redact_urls(url)!r} (from {source})",
                        "use ws://HOST:PORT or wss://HOST:PORT")
    if parts.scheme == "ws" and not is_loopback_host(host) and env.get("VORA_ALLOW_INSECURE_PRIVATE_WS") != "1":
        raise VoraError(
            "gateway-insecure-url",
            f"refusing plaintext {redact_urls(url)} (from {source}): the credential would travel in clear",
            "use wss://, or set VORA_ALLOW_INSECURE_PRIVATE_WS=1 on a trusted private network",
        )
    return url


def resolve_target(config: Mapping[str, Any], env: Mapping[str, str], url_flag: str | None = None,
                   settings: Settings | None = None) -> Target:
    """The URL and the shared credential, each from the first source that applies: the URL is
    the `gateway.url` setting (`--url` > VORA_GATEWAY_URL > the settings file), else the
    config's; `settings` is the run's (default: none but `env`)."""
    warnings: list[str] = []
    mode = _text(_get(config, "gateway", "mode")) or "local"
    remote = mode == "remote"
    if remote and _text(_get(config, "gateway", "remote", "url")):
        config_url, config_source = str(_get(config, "gateway", "remote", "url")).strip(), URL_REMOTE
    else:
        config_url, config_source = _local_url(config, env)
    explicit = False
    chosen = (settings or Settings(env, values={})).resolve("gateway.url", url_flag if _text(url_flag) else None)
    if _text(chosen.value):
        # a URL the config did not name: only the environment's credential goes there
        url_source = {SOURCE_FLAG: URL_FLAG, SOURCE_ENV: URL_ENV}.get(chosen.source, URL_SETTINGS)
        url, explicit = str(chosen.value).strip(), True
    else:
        if remote and config_source != URL_REMOTE:
            warnings.append('gateway.mode is "remote" but gateway.remote.url is not set; trying the local gateway')
        url, url_source = config_url, config_source
    check_url(url, url_source, env)
    return Target(url, url_source, _credential(config, env, explicit=explicit, remote=remote), tuple(warnings),
                  config_url)


def local_port(config: Mapping[str, Any], env: Mapping[str, str]) -> tuple[int, str]:
    """The local gateway's port and where it came from: `VORA_GATEWAY_PORT`, `gateway.port`, 18789."""
    raw_env = env.get("VORA_GATEWAY_PORT")
    port = _port_from_env(raw_env) if raw_env else None
    if port is not None:
        return port, URL_PORT_ENV
    configured = _get(config, "gateway", "port")
    if isinstance(configured, int | float) and not isinstance(configured, bool) and is_finite(configured) \
            and configured > 0:  # the gateway's `Number.isFinite(port) && port > 0`; else its default
        return int(configured), URL_PORT_CONFIG
    return DEFAULT_PORT, URL_DEFAULT


def _local_url(config: Mapping[str, Any], env: Mapping[str, str]) -> tuple[str, str]:
    scheme = "wss" if _get(config, "gateway", "tls", "enabled") is True else "ws"
    port, source = local_port(config, env)
    return f"{scheme}://127.0.0.1:{port}", source


def _first(*candidates: tuple[str, Any]) -> tuple[str, str] | None:
    for source, value in candidates:
        text = _text(value)
        if text is not None:
            return source, text
    return None


def _credential(config: Mapping[str, Any], env: Mapping[str, str], *, explicit: bool, remote: bool) -> Credential:
    env_token = ("VORA_GATEWAY_TOKEN", env.get("VORA_GATEWAY_TOKEN"))
    env_password = ("VORA_GATEWAY_PASSWORD", env.get("VORA_GATEWAY_PASSWORD"))
    auth_token = ("gateway.auth.token", _get(config, "gateway", "auth", "token"))
    auth_password = ("gateway.auth.password", _get(config, "gateway", "auth", "password"))
    if explicit:  # secrets from the config never go to a URL the config did not name
        token, password = _first(env_token), _first(env_password)
    elif remote:
        token = _first(("gateway.remote.token", _get(config, "gateway", "remote", "token")), env_token, auth_token)
        password = _first(env_password, ("gateway.remote.password", _get(config, "gateway", "remote", "password")),
                          auth_password)
    else:
        token, password = _first(env_token, auth_token), _first(env_password, auth_password)
    # The config's auth.mode describes the gateway the config names, not one given by URL.
    auth_mode = None if explicit else _text(_get(config, "gateway", "auth", "mode"))
    if auth_mode == "token":
        password = None
    elif auth_mode == "password":
        token = None
    elif auth_mode in ("none", "trusted-proxy"):
        token = password = None
    if token is not None:
        return Credential(AUTH_TOKEN, token[0], token[1])
    if password is not None:
        return Credential(AUTH_PASSWORD, password[0], password[1])
    return Credential(AUTH_NONE, "none")
