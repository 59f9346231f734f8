"""What each setting's consumer accepts (docs/settings.md, "Keys").

Each check returns None for a value its consumer can use, else what the value must be (the
error names the key and this text). `SETTINGS` in `resolve.py` attaches one to each key.
"""

from __future__ import annotations

from vora_cli.core.text import NAME_RE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def check_profile(value: Any) -> str | None:
    return None if NAME_RE.match(value) else "a profile name: 1-64 letters, digits, '_' or '-'"


def check_indent(value: Any) -> str | None:
    return None if value <= 16 else "an integer from 0 to 16"


def check_ws_url(value: Any) -> str | None:
    """What the gateway client can open (core/gateway/target.check_url): ws:// or wss://, a host,
    a port that parses. Whether plaintext may go to a host that is not loopback depends on
    VORA_ALLOW_INSECURE_PRIVATE_WS at the time of use, so the client decides that."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value.strip())
        ok = parts.scheme in ("ws", "wss") and bool(parts.hostname)
        parts.port  # noqa: B018 - raises on a port out of range
    except ValueError:
        ok = False
    return None if ok else "a ws:// or wss:// URL with a host (ws://HOST:PORT)"


def check_state_dir(value: Any) -> str | None:
    # A relative path would be resolved against whatever directory vora runs in, on every run
    #: the file must say where. `--state-dir` and VORA_STATE_DIR are typed in
    # the shell at hand and resolve against it, as the gateway resolves OPENCLAW_STATE_DIR.
    text = value.strip()
    ok = text == "~" or text.startswith(("~/", "/"))
    return None if ok else "an absolute path or one starting with ~/ (a relative path would depend on the current directory)"


def check_command_line(value: Any) -> str | None:
    """An editor or pager: a command line that splits into words (a missing quote does not)."""
    import shlex

    try:
        words = shlex.split(value)
    except ValueError as exc:
        return f"a command line that splits into words ({exc})"
    return None if words else "a command line"


MAX_LOCK_TIMEOUT = 3600.0  # an hour: more is a wait nobody means
MAX_GATEWAY_TIMEOUT = 600.0


def check_lock_timeout(value: Any) -> str | None:
    return None if value <= MAX_LOCK_TIMEOUT else f"a number of seconds from 0 to {MAX_LOCK_TIMEOUT:g}"


def check_gateway_timeout(value: Any) -> str | None:
    return None if 0 < value <= MAX_GATEWAY_TIMEOUT else f"a number of seconds above 0, at most {MAX_GATEWAY_TIMEOUT:g}"


def shown_url(value: Any) -> Any:
    from vora_cli.core.secrets import redact_urls

    return redact_urls(value) if isinstance(value, str) else value


def check_version(value: Any) -> str | None:
    import re

    ok = isinstance(value, str) and re.fullmatch(r"v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?", value.strip())
    return None if ok else "a version such as 2026.4.12"
