"""How the gateway resolves its own exposure and auth from the config (openclaw 2026.4.12's
`resolveGatewayAuth` and audit rules), for the checks of `gateway_checks.py`."""

from __future__ import annotations

from collections.abc import Mapping

from vora_cli.core.doctor.model import FIX_COMMAND, FIX_CONFIG, NEW_SECRET, Fix, Install
from vora_cli.core.records import dataclass
from vora_cli.core.security.model import as_dict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The gateway refuses to start with these (its `KNOWN_WEAK_GATEWAY_TOKENS` / `..._PASSWORDS`),
# and the words people type when a tutorial says "set a token": guessable in one try.
GATEWAY_PLACEHOLDERS = ("change-me-to-a-long-random-token", "change-me-to-a-strong-password")
PLACEHOLDERS = frozenset((*GATEWAY_PLACEHOLDERS, "changeme", "change-me", "change_me", "token", "secret", "password",
                          "passw0rd", "admin", "test", "example", "default", "your-token", "your_token",
                          "yourtoken", "replace-me", "replaceme", "mytoken", "my-token", "letmein", "123456",
                          "12345678", "1234567890", "qwerty", "openclaw", "vora", "gateway", "xxx", "xxxxxxxx"))
MIN_TOKEN_LENGTH = 24  # the gateway's `gateway.token_too_short`; it generates 48 hex characters itself
MIN_PASSWORD_LENGTH = 12
# Tools the gateway denies over HTTP `POST /tools/invoke` unless `gateway.tools.allow` names them
# (its DEFAULT_GATEWAY_HTTP_TOOL_DENY).
HTTP_DENIED_TOOLS = ("exec", "spawn", "shell", "fs_write", "fs_delete", "fs_move", "apply_patch", "sessions_spawn",
                     "sessions_send", "cron", "gateway", "nodes", "whatsapp_login")
TOKEN_PATH = ("gateway", "auth", "token")


def text_of(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


@dataclass(frozen=True)
class GatewayView:
    """The gateway section as the gateway resolves it."""

    config: Mapping[str, Any]  # the effective config
    raw: Mapping[str, Any]  # as written (`${VAR}` unresolved)
    env: Mapping[str, str]

    @property
    def gateway(self) -> dict[str, Any]:
        return as_dict(self.config.get("gateway"))

    @property
    def auth(self) -> dict[str, Any]:
        return as_dict(self.gateway.get("auth"))

    @property
    def bind(self) -> str:
        return self.gateway["bind"] if isinstance(self.gateway.get("bind"), str) else "loopback"

    @property
    def tailscale(self) -> str:
        mode = as_dict(self.gateway.get("tailscale")).get("mode")
        return mode if isinstance(mode, str) else "off"

    @property
    def exposed(self) -> bool:
        return self.bind != "loopback"

    @property
    def remote(self) -> bool:
        """Reachable from other machines: a non-loopback bind, or Tailscale Serve/Funnel."""
        return self.exposed or self.tailscale in ("serve", "funnel")

    @property
    def explicit_mode(self) -> str | None:
        mode = as_dict(as_dict(self.raw.get("gateway")).get("auth")).get("mode")
        return mode if isinstance(mode, str) else None

    @property
    def config_token(self) -> str | None:
        """The token the config itself holds (resolved), not the one VORA_GATEWAY_TOKEN fills in."""
        written = as_dict(as_dict(self.raw.get("gateway")).get("auth")).get("token")
        return text_of(self.auth.get("token")) if text_of(written) else None

    @property
    def token(self) -> str | None:
        """Config first, then VORA_GATEWAY_TOKEN (the gateway's `tokenPrecedence: config-first`)."""
        return self.config_token or text_of(self.env.get("VORA_GATEWAY_TOKEN"))

    @property
    def password(self) -> str | None:
        return text_of(self.auth.get("password")) or text_of(self.env.get("VORA_GATEWAY_PASSWORD"))

    @property
    def mode(self) -> str:
        """Explicit mode, else password when one is set, else token (the gateway's default)."""
        return self.explicit_mode or ("password" if self.password else "token")

    @property
    def remote_token(self) -> bool:
        return text_of(as_dict(self.gateway.get("remote")).get("token")) is not None

    def _credentials(self, token: bool) -> tuple[bool, bool]:
        """(a token can win, a password is configured), as the gateway's audits weigh them."""
        explicit = self.explicit_mode
        password_can_win = explicit == "password" or (explicit not in ("token", "none", "trusted-proxy") and not token)
        return token, bool(text_of(self.auth.get("password"))) or (password_can_win and bool(self.password))

    def browser_credential(self) -> bool:
        """Whether the browser control routes need a credential (the browser plugin's audit): any
        token or password the gateway resolves, whatever `auth.mode` says."""
        token, password = self._credentials(bool(self.token))
        return token or password

    @property
    def has_shared_secret(self) -> bool:
        explicit = self.explicit_mode
        token, password = self._credentials(bool(self.token) or self.remote_token)
        if explicit == "token":
            return token
        if explicit == "password":
            return password
        if explicit in ("none", "trusted-proxy"):
            return False
        return token or password

    @property
    def tailscale_auth(self) -> bool:
        allow = self.auth.get("allowTailscale")
        if not isinstance(allow, bool):
            allow = self.tailscale == "serve" and self.mode not in ("password", "trusted-proxy")
        return allow and self.tailscale == "serve"

    @property
    def control_ui(self) -> dict[str, Any]:
        return as_dict(self.gateway.get("controlUi"))

    @property
    def control_ui_enabled(self) -> bool:
        return self.control_ui.get("enabled") is not False


def view(install: Install) -> GatewayView:
    raw = install.config.value if install.config is not None else {}
    return GatewayView(install.runtime, raw, install.env)


def token_fix(install: Install, g: GatewayView) -> Fix | None:
    """`--fix gateway-token`: a new strong token in `gateway.auth.token` (and `auth.mode: token`
    when it said none), through the one lossless writer. Not offered when the token comes from
    `${VAR}` or the environment (the secret lives there), or for password/trusted-proxy auth."""
    raw_token = as_dict(as_dict(as_dict(install.config.value if install.config else {}).get("gateway")).get("auth")).get(
        "token")
    if install.config is None or g.explicit_mode in ("password", "trusted-proxy"):
        return None
    if isinstance(raw_token, str) and "${" in raw_token:
        return Fix("gateway-token", FIX_COMMAND, "the token comes from an environment variable: set a new value there",
                   'export THE_VARIABLE="$(openssl rand -base64 32)"   (the one gateway.auth.token names)')
    if raw_token is None and text_of(install.env.get("VORA_GATEWAY_TOKEN")):
        return Fix("gateway-token", FIX_COMMAND, "the token comes from VORA_GATEWAY_TOKEN: set a new value there",
                   'export VORA_GATEWAY_TOKEN="$(openssl rand -base64 32)"')
    sets: tuple[tuple[tuple[str | int, ...], Any], ...] = ((TOKEN_PATH, NEW_SECRET),)
    if g.explicit_mode not in (None, "token"):
        sets += ((("gateway", "auth", "mode"), "token"),)
    return Fix("gateway-token", FIX_CONFIG, "write a new random token to gateway.auth.token (backed up, never printed)",
               "vora security audit --fix gateway-token", set=sets)
