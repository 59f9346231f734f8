"""The gateway's legacy-key migrations outside `channels` (openclaw 2026.4.12's
`legacy-config-migrations.{audio,runtime.*,web-search}.ts` and the web fetch / x_search moves),
with its words for each change."""

from __future__ import annotations

import re

from vora_cli.core.config.migrations.base import (
    BLOCKED_KEYS,
    Changes,
    clone,
    clone_record,
    ensure,
    is_bool,
    is_number,
    js_json,
    merge_missing,
    optional_lower,
    record,
)
from vora_cli.core.config.migrations.channels import migrate_tts
from vora_cli.core.config.migrations.facts import web_search
from vora_cli.core.strict_json import js_number
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_GATEWAY_PORT = 18789


# -- audio ------------------------------------------------------------------------------------------

_SHELL_METACHARS = re.compile(r"[;&|`$<>]")
_BARE_NAME = re.compile(r"^[A-Za-z0-9._+-]+$")


def _safe_executable(value: str) -> bool:
    """`isSafeExecutableValue`: a path, or a bare command name with no shell syntax."""
    trimmed = js_trim(value)
    if not trimmed or "\0" in trimmed or "\r" in trimmed or "\n" in trimmed:
        return False
    if _SHELL_METACHARS.search(trimmed) or '"' in trimmed or "'" in trimmed:
        return False
    if trimmed.startswith((".", "~")) or "/" in trimmed or "\\" in trimmed or re.match(r"^[A-Za-z]:[\\/]", trimmed):
        return True
    if trimmed.startswith("-"):
        return False
    return bool(_BARE_NAME.match(trimmed))


def _audio_model(value: Any) -> dict[str, Any] | None:
    command = value.get("command") if isinstance(value, dict) else None
    if not isinstance(command, list) or not command or not all(isinstance(p, str) for p in command):
        return None
    executable = js_trim(command[0])
    if not executable or not _safe_executable(executable):
        return None
    result: dict[str, Any] = {"command": executable, "type": "cli"}
    if len(command) > 1:
        result["args"] = command[1:]
    timeout = value.get("timeoutSeconds") if isinstance(value, dict) else None
    if is_number(timeout):
        result["timeoutSeconds"] = timeout
    return result


def audio_transcription(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    audio = record(raw.get("audio"))
    if audio is None or "transcription" not in audio:
        return raw
    mapped = _audio_model(audio["transcription"])
    where = ("audio", "transcription")
    if mapped is None:
        changes.append((where, "Removed audio.transcription (invalid or empty command)."))
    else:
        media_audio = ensure(ensure(ensure(raw, "tools"), "media"), "audio")
        models = media_audio.get("models")
        if not (isinstance(models, list) and models):
            media_audio["enabled"] = True
            media_audio["models"] = [mapped]
            changes.append((where, "Moved audio.transcription → tools.media.audio.models."))
        else:
            changes.append((where, "Removed audio.transcription (tools.media.audio.models already set)."))
    del audio["transcription"]
    if not audio:
        del raw["audio"]
    return raw


# -- agents -----------------------------------------------------------------------------------------


def _per_session(sandbox: dict[str, Any], label: str, path: tuple[str | int, ...], changes: Changes) -> None:
    if "perSession" not in sandbox or not is_bool(sandbox["perSession"]):
        return
    if "scope" not in sandbox:
        sandbox["scope"] = "session" if sandbox["perSession"] else "shared"
        changes.append(((*path, "perSession"), f"Moved {label}.perSession → {label}.scope ({sandbox['scope']})."))
    else:
        changes.append(((*path, "perSession"), f"Removed {label}.perSession ({label}.scope already set)."))
    del sandbox["perSession"]


def sandbox_per_session(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    agents = record(raw.get("agents"))
    defaults = record(agents.get("defaults")) if agents is not None else None
    sandbox = record(defaults.get("sandbox")) if defaults is not None else None
    if sandbox is not None:
        _per_session(sandbox, "agents.defaults.sandbox", ("agents", "defaults", "sandbox"), changes)
    agent_list = agents.get("list") if agents is not None else None
    if isinstance(agent_list, list):
        for i, agent in enumerate(agent_list):
            box = record(agent.get("sandbox")) if isinstance(agent, dict) else None
            if box is not None:
                _per_session(box, f"agents.list.{i}.sandbox", ("agents", "list", i, "sandbox"), changes)
    return raw


def _into_defaults(raw: dict[str, Any], root: str, field: str, legacy: dict[str, Any], moved: str, merged: str,
                   where: tuple[str, ...], changes: Changes) -> None:
    defaults = ensure(ensure(raw, root), "defaults")
    existing = record(defaults.get(field))
    if existing is None:
        defaults[field] = legacy
        changes.append((where, moved))
    else:
        combined = clone(existing)
        merge_missing(combined, legacy)
        defaults[field] = combined
        changes.append((where, merged))


def memory_search(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    legacy = record(raw.get("memorySearch"))
    if legacy is None:
        return raw
    _into_defaults(raw, "agents", "memorySearch", legacy, "Moved memorySearch → agents.defaults.memorySearch.",
                   "Merged memorySearch → agents.defaults.memorySearch (filled missing fields from legacy; kept "
                   "explicit agents.defaults values).", ("memorySearch",), changes)
    del raw["memorySearch"]
    return raw


_CHANNEL_HEARTBEAT = frozenset(("showOk", "showAlerts", "useIndicator"))


def heartbeat(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    legacy = record(raw.get("heartbeat"))
    if legacy is None:
        return raw
    agent = {k: v for k, v in legacy.items() if k not in BLOCKED_KEYS and k not in _CHANNEL_HEARTBEAT}
    channel = {k: v for k, v in legacy.items() if k in _CHANNEL_HEARTBEAT}
    where = ("heartbeat",)
    if agent:
        _into_defaults(raw, "agents", "heartbeat", agent, "Moved heartbeat → agents.defaults.heartbeat.",
                       "Merged heartbeat → agents.defaults.heartbeat (filled missing fields from legacy; kept explicit "
                       "agents.defaults values).", where, changes)
    if channel:
        _into_defaults(raw, "channels", "heartbeat", channel, "Moved heartbeat visibility → channels.defaults.heartbeat.",
                       "Merged heartbeat visibility → channels.defaults.heartbeat (filled missing fields from legacy; "
                       "kept explicit channels.defaults values).", where, changes)
    if not agent and not channel:
        changes.append((where, "Removed empty top-level heartbeat."))
    del raw["heartbeat"]
    return raw


# -- gateway ----------------------------------------------------------------------------------------

_NON_LOOPBACK = ("lan", "tailnet", "custom", "auto")


def seed_allowed_origins(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """A bind beyond loopback with no Control UI origins: the gateway seeds the local ones (a
    normalisation of a current key, not a legacy one; said as the gateway says it)."""
    gateway = record(raw.get("gateway"))
    if gateway is None or gateway.get("bind") not in _NON_LOOPBACK or not isinstance(gateway.get("bind"), str):
        return raw
    bind = gateway["bind"]
    control = record(gateway.get("controlUi")) or {}
    origins = control.get("allowedOrigins")
    if control.get("dangerouslyAllowHostHeaderOriginFallback") is True or (
            isinstance(origins, list) and any(isinstance(o, str) and js_trim(o) for o in origins)):
        return raw
    port = gateway.get("port")
    port = port if is_number(port) and port > 0 else DEFAULT_GATEWAY_PORT
    shown_port = js_number(port)
    seeded = [f"http://localhost:{shown_port}", f"http://127.0.0.1:{shown_port}"]
    host = gateway.get("customBindHost")
    host = js_trim(host) if isinstance(host, str) else ""
    if bind == "custom" and host and f"http://{host}:{shown_port}" not in seeded:
        seeded.append(f"http://{host}:{shown_port}")
    gateway["controlUi"] = {**control, "allowedOrigins": seeded}
    changes.append((("gateway", "bind"), f"Seeded gateway.controlUi.allowedOrigins {js_json(seeded)} for bind={bind}. "
                    "Required since v2026.2.26. Add other machine origins to gateway.controlUi.allowedOrigins if "
                    "needed."))
    return raw


_BIND_ALIASES = {"0.0.0.0": "lan", "::": "lan", "[::]": "lan", "*": "lan",
                 "127.0.0.1": "loopback", "localhost": "loopback", "::1": "loopback", "[::1]": "loopback"}


def bind_alias(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    gateway = record(raw.get("gateway"))
    bind = gateway.get("bind") if gateway is not None else None
    if gateway is None or not isinstance(bind, str):
        return raw
    mapped = _BIND_ALIASES.get(optional_lower(bind) or "")
    if mapped is None:
        return raw
    gateway["bind"] = mapped
    shown = bind.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t")
    changes.append((("gateway", "bind"), f'Normalized gateway.bind "{shown}" → "{mapped}".'))
    return raw


# -- tools.web: x_search, search, fetch ---------------------------------------------------------------


def x_search(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    tools = record(raw.get("tools"))
    web = record(tools.get("web")) if tools is not None else None
    legacy = record(web.get("x_search")) if web is not None else None
    if legacy is None or "apiKey" not in legacy:
        return raw
    root = clone_record(raw)
    web = ensure(ensure(root, "tools"), "web")
    rest = {k: v for k, v in legacy.items() if k != "apiKey"}
    if rest:
        web["x_search"] = rest
    else:
        del web["x_search"]
    entry = ensure(ensure(ensure(root, "plugins"), "entries"), "xai")
    had_enabled = "enabled" in entry
    if not had_enabled:
        entry["enabled"] = True
    config = ensure(entry, "config")
    auth = legacy["apiKey"]
    where = ("tools", "web", "x_search", "apiKey")
    target = "plugins.entries.xai.config.webSearch.apiKey"
    existing = record(config.get("webSearch"))
    if existing is None:
        config["webSearch"] = {"apiKey": auth}
        changes.append((where, f"Moved tools.web.x_search.apiKey → {target}."))
    elif "apiKey" not in existing:
        config["webSearch"] = {**existing, "apiKey": auth}
        changes.append((where, f"Merged tools.web.x_search.apiKey → {target} (filled missing plugin auth)."))
    else:
        changes.append((where, f"Removed tools.web.x_search.apiKey ({target} already set)."))
    if not rest and not had_enabled:
        changes.append((("tools", "web", "x_search"), "Removed empty tools.web.x_search."))
    return root


def tts(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    messages = record(raw.get("messages"))
    migrate_tts(record(messages.get("tts")) if messages is not None else None, ("messages", "tts"), changes)
    plugins = record(raw.get("plugins"))
    entries = record(plugins.get("entries")) if plugins is not None else None
    for plugin_id, entry in (entries or {}).items():
        if plugin_id != "voice-call" or not isinstance(entry, dict):
            continue
        config = record(entry.get("config"))
        migrate_tts(record(config.get("tts")) if config is not None else None,
                    ("plugins", "entries", plugin_id, "config", "tts"), changes)
    return raw


def _plugin_web_config(root: dict[str, Any], plugin_id: str, field: str, payload: dict[str, Any], legacy: str,
                       target: str, where: tuple[str, ...], changes: Changes) -> None:
    """`migratePluginWebSearchConfig` / `…WebFetchConfig`: into `plugins.entries.<id>.config.<field>`."""
    entry = ensure(ensure(ensure(root, "plugins"), "entries"), plugin_id)
    config = ensure(entry, "config")
    had_enabled = "enabled" in entry
    existing = dict(config[field]) if isinstance(config.get(field), dict) else None
    if not had_enabled:
        entry["enabled"] = True
    if existing is None:
        config[field] = dict(payload)
        changes.append((where, f"Moved {legacy} → {target}."))
        return
    merged = dict(existing)
    merge_missing(merged, payload)
    changed = js_json(merged) != js_json(existing) or not had_enabled
    config[field] = merged
    if changed:
        changes.append((where, f"Merged {legacy} → {target} (filled missing fields from legacy; kept explicit plugin "
                        "config values)."))
    else:
        changes.append((where, f"Removed {legacy} ({target} already set)."))


def web_search_config(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    facts = web_search()
    providers: tuple[str, ...] = tuple(facts["legacyProviders"])
    owners: dict[str, str] = facts["owners"]
    tools = record(raw.get("tools"))
    web = record(tools.get("web")) if tools is not None else None
    search = record(web.get("search")) if web is not None else None
    if search is None or not ("apiKey" in search or any(isinstance(search.get(p), dict) for p in providers)):
        return raw
    root = dict(raw)
    web = ensure(ensure(root, "tools"), "web")
    kept = {k: v for k, v in search.items() if k != "apiKey" and not (k in providers and isinstance(v, dict))
            and (k in ("openaiCodex",) or not isinstance(v, dict))}
    web["search"] = kept
    legacy_brave = dict(search["brave"]) if isinstance(search.get("brave"), dict) else None
    payload = dict(legacy_brave) if legacy_brave is not None else {}
    if "apiKey" in search:
        payload["apiKey"] = search["apiKey"]
    if payload:
        plugin = owners.get("brave", "brave")
        has_key = "apiKey" in search
        legacy = "tools.web.search.apiKey" if has_key else "tools.web.search.brave"
        target = f"plugins.entries.{plugin}.config.webSearch" + (".apiKey" if has_key and legacy_brave is None else "")
        where = ("tools", "web", "search", "apiKey") if has_key else ("tools", "web", "search", "brave")
        _plugin_web_config(root, plugin, "webSearch", payload, legacy, target, where, changes)
    for provider in providers:
        if provider == "brave":
            continue
        scoped = dict(search[provider]) if isinstance(search.get(provider), dict) else None
        if not scoped:
            continue
        owner = owners.get(provider)
        if owner is None:
            continue
        _plugin_web_config(root, owner, "webSearch", scoped, f"tools.web.search.{provider}",
                           f"plugins.entries.{owner}.config.webSearch", ("tools", "web", "search", provider), changes)
    return root


def web_fetch_config(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    tools = record(raw.get("tools"))
    web = record(tools.get("web")) if tools is not None else None
    fetch = record(web.get("fetch")) if web is not None else None
    if fetch is None or not isinstance(fetch.get("firecrawl"), dict):
        return raw
    root = clone_record(raw)
    web = ensure(ensure(root, "tools"), "web")
    fetch = root["tools"]["web"]["fetch"]
    web["fetch"] = {k: v for k, v in fetch.items() if not (k == "firecrawl" and isinstance(v, dict))
                    and k not in BLOCKED_KEYS}
    firecrawl = {k: v for k, v in fetch["firecrawl"].items() if k != "enabled"}
    where = ("tools", "web", "fetch", "firecrawl")
    if firecrawl:
        _plugin_web_config(root, "firecrawl", "webFetch", firecrawl, "tools.web.fetch.firecrawl",
                           "plugins.entries.firecrawl.config.webFetch", where, changes)
    else:
        changes.append((where, "Removed empty tools.web.fetch.firecrawl."))
    return root


# -- the first pass's order (LEGACY_CONFIG_MIGRATION_SPECS, after the channels') ----------------------

AFTER_CHANNELS = (audio_transcription, sandbox_per_session, memory_search, heartbeat, seed_allowed_origins,
                  bind_alias, x_search, tts, web_search_config)
