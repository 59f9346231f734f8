"""A plugin's `compat` (`minGatewayVersion`, `pluginApi`) against the gateway version vora knows.

Unknown: a warning; out of range: the install is refused, doctor fails the plugin (docs/plugins.md,
"What is accepted" and "Compat").
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.manifest import PluginSource
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install

@dataclass(frozen=True)
class CompatVerdict:
    """Whether a plugin's declared gateway range holds the known gateway version."""
    status: str  # ok | unknown | out-of-range | none (the plugin declares nothing)
    message: str | None = None


def check_compat(source: PluginSource, gateway_version: str | None) -> CompatVerdict:
    compat = source.compat
    wants = [(name, value) for name, value in (("minGatewayVersion", compat.min_gateway_version),
                                               ("pluginApi", compat.plugin_api)) if value]
    if not wants:
        return CompatVerdict("none")
    said = ", ".join(f"{name} {value}" for name, value in wants)
    if gateway_version is None:
        return CompatVerdict("unknown", f"{source.id} declares {said}; the gateway's version is not known, so it "
                             "was not checked (vora settings set gateway.version VERSION, or run vora doctor --live)")
    from vora_cli.core.plugins.semver import parse_version, satisfies, valid_range

    if parse_version(gateway_version) is None:
        return CompatVerdict("unknown", f"{source.id} declares {said}; the gateway version {gateway_version!r} is "
                             "not a version npm can read, so it was not checked (vora settings set gateway.version "
                             "VERSION)")
    for name, value in wants:
        range_text = value if name == "pluginApi" or value.strip()[:1] in "<>=^~" else f">={value}"
        if not valid_range(range_text):
            return CompatVerdict("unknown", f"{source.id} declares {name} {value!r}, which npm cannot read as a "
                                 "version range; it was not checked")
        if not satisfies(gateway_version, range_text):
            return CompatVerdict("out-of-range", f"{source.id} requires {name} {value}, but the gateway is "
                                 f"{gateway_version}")
    return CompatVerdict("ok", f"{source.id}: {said} fits gateway {gateway_version}")


def require_compatible(source: PluginSource, gateway_version: str | None) -> None:
    """Refuse an install the gateway's version is out of the plugin's range of (before anything is copied)."""
    verdict = check_compat(source, gateway_version)
    if verdict.status == "out-of-range":
        raise VoraError("refused", f"{verdict.message}; nothing was installed",
                        "install a version of the plugin made for this gateway, or upgrade the gateway "
                        "(if vora has the wrong gateway version: vora settings set gateway.version VERSION)")


LIVE_RECORD = "live-gateway.json"  # in vora's cache dir: the version each state dir's gateway last reported


@dataclass(frozen=True)
class KnownVersion:
    """The gateway version compatibility is judged against, and where it came from."""
    version: str | None
    source: str  # "setting" (gateway.version, or VORA_GATEWAY_VERSION), "live" (doctor --live), "unknown"


def install_gateway_version(install: Install) -> KnownVersion:
    """The gateway version `compat` is checked against for the run's install (its `gateway.version`
    setting, else what its live gateway last said)."""
    return known_gateway_version(install.paths.state_dir, install.settings.value("gateway.version"))


def known_gateway_version(state_dir: Path, setting: str | None) -> KnownVersion:
    """The gateway version `compat` is checked against: the operator's setting, else what the live
    gateway of this state dir said to the last `vora doctor --live`, else unknown."""

    from vora_cli.core.userdirs import cache_dir

    if setting:
        return KnownVersion(setting.strip(), "setting")
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    try:
        raw = read_bytes(cache_dir() / LIVE_RECORD)
        seen = nesting.loads(raw.decode("utf-8")) if raw is not None else None
    except (VoraError, ValueError):
        return KnownVersion(None, "unknown")
    entry = seen.get(str(state_dir)) if isinstance(seen, dict) else None
    version = entry.get("version") if isinstance(entry, dict) else None
    return KnownVersion(version, "live") if isinstance(version, str) and version else KnownVersion(None, "unknown")


def remember_live_gateway_version(state_dir: Path, version: str, seen_at_ms: int, *, lock_timeout: float) -> None:
    """Keep what the live gateway reported (vora's own cache file; one key per state dir)."""
    import json

    from vora_cli.core.userdirs import cache_dir
    from vora_cli.core.writer import ensure_dir, update_file

    path = cache_dir() / LIVE_RECORD
    ensure_dir(path.parent)

    def transform(old: bytes | None) -> bytes:
        try:
            data = nesting.loads(old.decode("utf-8")) if old else {}
        except ValueError:
            data = {}
        data = data if isinstance(data, dict) else {}
        data[str(state_dir)] = {"version": version, "seenAtMs": seen_at_ms}
        return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8")

    update_file(path, transform, lock_timeout=lock_timeout, keep_lock_file=False)
