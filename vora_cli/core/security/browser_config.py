"""The browser section as the gateway's browser plugin resolves it (`resolveBrowserConfig`,
`resolveProfile`, openclaw 2026.4.12): which settings it refuses, and where each profile's CDP
endpoint is, with the address tables of its SSRF guard (`isPrivateIpAddress`).
"""

from __future__ import annotations

import ipaddress
import math
import re

from vora_cli.core.records import dataclass
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_GATEWAY_PORT = 18789
DEFAULT_CONTROL_PORT = 18791
CDP_RANGE_START, CDP_RANGE_SPAN = 18800, 99
_SPECIAL = ("http", "https", "ws", "wss", "ftp", "file")
_DEFAULT_PORT = {"http": 80, "https": 443, "ws": 80, "wss": 443}
# ipaddr.js ranges the guard blocks: unspecified, broadcast, multicast, link-local, loopback,
# carrier-grade NAT, private, reserved, and the benchmark range.
_PRIVATE_V4 = tuple(ipaddress.IPv4Network(n) for n in (
    "0.0.0.0/8", "255.255.255.255/32", "224.0.0.0/4", "169.254.0.0/16", "127.0.0.0/8", "100.64.0.0/10", "10.0.0.0/8",
    "172.16.0.0/12", "192.168.0.0/16", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.51.100.0/24",
    "203.0.113.0/24", "240.0.0.0/4", "198.18.0.0/15"))
_PRIVATE_V6 = tuple(ipaddress.IPv6Network(n) for n in (
    "::/128", "::1/128", "fe80::/10", "fc00::/7", "ff00::/8", "2001:db8::/32", "2001:2::/48", "100::/64",
    "2001:20::/28", "fec0::/10"))
_TRUSTED_PRIVATE_NAMES = frozenset(("localhost", "localhost.localdomain", "metadata.google.internal"))


class BrowserConfigError(ValueError):
    """What the gateway throws while resolving the browser section (its message, verbatim)."""


@dataclass(frozen=True)
class CdpUrl:
    """A browser's CDP endpoint as the gateway parses it (`parseHttpUrl`)."""

    scheme: str
    host: str  # lowercased, IPv4 in dotted decimal, IPv6 without brackets
    port: int


def _ipv4_number(part: str) -> int | None:
    if re.fullmatch(r"0[xX][0-9a-fA-F]*", part):
        return int(part[2:] or "0", 16)
    if re.fullmatch(r"0[0-7]+", part):
        return int(part, 8)
    if re.fullmatch(r"[0-9]+", part):  # any length, as WHATWG reads it: too long is too large a part
        return int(part) if len(part) <= 20 else 256**4
    return None


def _host(raw: str) -> str:
    """The WHATWG host: an IPv4 written in numbers (hex, octal, fewer parts) in dotted decimal."""
    host = raw.lower()
    if host.startswith("["):
        if not host.endswith("]"):
            raise BrowserConfigError("Invalid URL")
        try:
            return str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            raise BrowserConfigError("Invalid URL") from None
    parts = host.split(".")
    if parts and parts[-1] == "" and len(parts) > 1:
        parts = parts[:-1]
    if not parts or _ipv4_number(parts[-1]) is None:
        return host
    numbers = [_ipv4_number(p) for p in parts]
    if len(parts) > 4 or any(n is None for n in numbers):
        raise BrowserConfigError("Invalid URL")
    values = [n for n in numbers if n is not None]
    if any(v > 255 for v in values[:-1]) or values[-1] >= 256 ** (5 - len(values)):
        raise BrowserConfigError("Invalid URL")
    address = values[-1] + sum(v * 256 ** (3 - i) for i, v in enumerate(values[:-1]))
    return str(ipaddress.IPv4Address(address))


def parse_cdp_url(raw: str, label: str) -> CdpUrl:
    """`parseBrowserHttpUrl`: an http(s) or ws(s) URL with a port in range."""
    text = raw.strip()
    match = re.fullmatch(r"([A-Za-z][A-Za-z0-9+.-]*):(.*)", text, flags=re.DOTALL)
    if match is None:
        raise BrowserConfigError("Invalid URL")
    scheme, rest = match.group(1).lower(), match.group(2)
    if scheme not in _SPECIAL or scheme == "file":  # a file URL parses with no host at all
        raise BrowserConfigError(f"{label} must be http(s) or ws(s), got: {scheme}")
    authority = re.split(r"[/?#\\]", rest.lstrip("/\\"), maxsplit=1)[0].rpartition("@")[2]
    if authority.startswith("["):
        close = authority.find("]")
        host, after = (authority[:close + 1], authority[close + 1:]) if close != -1 else (authority, "")
        port_text = after[1:] if after.startswith(":") else after
    else:
        host, _colon, port_text = authority.partition(":")
    if not host or not re.fullmatch(r"[0-9]*", port_text) or (port_text and len(port_text.lstrip("0")) > 5) \
            or (port_text and int(port_text.lstrip("0") or "0") > 65535):
        raise BrowserConfigError("Invalid URL")
    if scheme not in _DEFAULT_PORT:
        raise BrowserConfigError(f"{label} must be http(s) or ws(s), got: {scheme}")
    port = int(port_text.lstrip("0") or "0") or _DEFAULT_PORT[scheme]
    return CdpUrl(scheme, _host(host), port)


def _gateway_port(config: dict[str, Any], env: dict[str, str]) -> float:
    raw = (env.get("VORA_GATEWAY_PORT") or "").strip()
    if re.fullmatch(r"[0-9]+", raw) and len(raw.lstrip("0")) <= 5 and 0 < int(raw.lstrip("0") or "0") <= 65535:
        return int(raw.lstrip("0"))
    port = (config.get("gateway") or {}).get("port") if isinstance(config.get("gateway"), dict) else None
    if isinstance(port, (int, float)) and not isinstance(port, bool) and is_finite(port) and port > 0:
        return port
    return DEFAULT_GATEWAY_PORT  # the gateway's resolveGatewayPort


def _derive(base: float, offset: int, fallback: int) -> float:
    return base + offset if 0 < base + offset <= 65535 else fallback


def resolve_problem(browser: dict[str, Any], config: dict[str, Any], env: dict[str, str]) -> str | None:
    """The error the gateway throws resolving `browser`, or None: a port range that does not fit,
    a `cdpUrl` that is not an http(s)/ws(s) URL, or no room for the derived CDP port."""
    control = _derive(_gateway_port(config, env), 2, DEFAULT_CONTROL_PORT)
    derived = _derive(control, 9, CDP_RANGE_START)
    derived = derived if derived + CDP_RANGE_SPAN <= 65535 else CDP_RANGE_START
    raw_start = browser.get("cdpPortRangeStart")
    numeric = isinstance(raw_start, (int, float)) and not isinstance(raw_start, bool) and math.isfinite(raw_start)
    start = int(float(raw_start) // 1) if numeric and raw_start is not None else int(derived)
    if start < 1 or start > 65535:
        return f"browser.cdpPortRangeStart must be between 1 and 65535, got: {start}"
    if start > 65535 - CDP_RANGE_SPAN:
        return (f"browser.cdpPortRangeStart ({start}) is too high for a {CDP_RANGE_SPAN + 1}-port range; "
                f"max is {65535 - CDP_RANGE_SPAN}.")
    raw = browser.get("cdpUrl")
    if isinstance(raw, str) and raw.strip():
        try:
            parse_cdp_url(raw, "browser.cdpUrl")
        except BrowserConfigError as err:
            return str(err)
    elif control + 1 > 65535:
        return f"Derived CDP port ({int(control + 1)}) is too high; check gateway port configuration."
    return None


def profile_hosts(browser: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(profile, CDP host, CDP URL) of each profile the gateway drives over CDP: the
    configured ones and its default `openclaw` profile (existing-session profiles attach locally;
    a profile whose URL does not parse is skipped, as the gateway's audit fails on it)."""
    raw = browser.get("cdpUrl")
    base = parse_cdp_url(raw, "browser.cdpUrl") if isinstance(raw, str) and raw.strip() else None
    base_host = base.host if base is not None else "127.0.0.1"
    protocol = "https" if base is not None and base.scheme == "https" else "http"
    profiles: dict[str, Any] = dict(browser["profiles"]) if isinstance(browser.get("profiles"), dict) else {}
    if not profiles.get("openclaw"):
        legacy = raw.strip() if base is not None and base.scheme in ("ws", "wss") and isinstance(raw, str) else None
        profiles["openclaw"] = {"cdpPort": base.port if base is not None else CDP_RANGE_START,
                                **({"cdpUrl": legacy} if legacy else {})}
    out = []
    for name, profile in profiles.items():
        if not isinstance(profile, dict) or profile.get("driver") == "existing-session":
            continue
        raw_url, raw_port = profile.get("cdpUrl"), profile.get("cdpPort")
        url = raw_url.strip() if isinstance(raw_url, str) else ""
        port = raw_port if isinstance(raw_port, (int, float)) and not isinstance(raw_port, bool) else 0
        try:
            if url and port > 0 and re.match(r"wss?://", url, re.I) and re.search(r"/devtools/browser/", url, re.I):
                host = parse_cdp_url(url, name).host
                url = f"{protocol}://{_bracketed(host)}:{int(port)}"
            elif url:
                host = parse_cdp_url(url, f"browser.profiles.{name}.cdpUrl").host
            elif port:
                host, url = base_host, f"{protocol}://{_bracketed(base_host)}:{int(port)}"
            else:
                continue
        except BrowserConfigError:
            continue
        out.append((name, host, url))
    return out


def _bracketed(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _v4(host: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(host)
    except ValueError:
        return None


def _embedded_v4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    packed = address.packed
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if packed[:12] == bytes(12) or packed[:12] == bytes.fromhex("0064ff9b0000000000000000"):
        return ipaddress.IPv4Address(packed[12:])
    if packed[:2] == b"\x20\x02":  # 6to4
        return ipaddress.IPv4Address(packed[2:6])
    return None


def loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    if (v4 := _v4(host)) is not None:
        return v4.is_loopback
    try:
        v6 = ipaddress.IPv6Address(host)
    except ValueError:
        return False
    mapped = v6.ipv4_mapped
    return v6.is_loopback or (mapped is not None and mapped.is_loopback)


def private_host(host: str) -> bool:
    """A host the gateway's guard counts private or internal: its own names, or an address in its
    blocked ranges (an IPv4 inside an IPv6 address counts as that IPv4)."""
    if host in _TRUSTED_PRIVATE_NAMES:
        return True
    if (v4 := _v4(host)) is not None:
        return any(v4 in n for n in _PRIVATE_V4)
    try:
        v6 = ipaddress.IPv6Address(host)
    except ValueError:
        return ":" in host
    if any(v6 in n for n in _PRIVATE_V6):
        return True
    embedded = _embedded_v4(v6)
    return embedded is not None and any(embedded in n for n in _PRIVATE_V4)
