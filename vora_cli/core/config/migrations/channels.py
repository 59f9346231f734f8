"""The gateway's legacy-key migrations under `channels` (openclaw 2026.4.12): its own
(`legacy-config-migrations.channels.ts`) and its channel plugins' doctor contracts (discord, matrix,
mattermost, slack, telegram, zalouser, whatsapp, tlon, bluebubbles, nextcloud-talk), with the
gateway's words for each change."""

from __future__ import annotations

from vora_cli.core.config.migrations.base import (
    MISSING,
    Changes,
    Path,
    clone,
    dotted,
    ensure,
    is_bool,
    is_string,
    merge_missing,
    optional_lower,
    record,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def _accounts(entry: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    accounts = record(entry.get("accounts"))
    return [(aid, acc) for aid, acc in accounts.items() if isinstance(acc, dict)] if accounts else []


# -- the gateway's own channel migrations ---------------------------------------------------------


def _thread_binding_ttl(owner: dict[str, Any], prefix: Path, changes: Changes) -> None:
    bindings = record(owner.get("threadBindings"))
    if bindings is None or "ttlHours" not in bindings:
        return
    text = dotted(prefix)
    had = "idleHours" in bindings
    if not had:
        bindings["idleHours"] = bindings["ttlHours"]
    del bindings["ttlHours"]
    where = (*prefix, "threadBindings", "ttlHours")
    if had:
        changes.append((where, f"Removed {text}.threadBindings.ttlHours ({text}.threadBindings.idleHours already set)."))
    else:
        changes.append((where, f"Moved {text}.threadBindings.ttlHours → {text}.threadBindings.idleHours."))


def thread_bindings(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    session = record(raw.get("session"))
    if session is not None:
        _thread_binding_ttl(session, ("session",), changes)
    channels = record(raw.get("channels"))
    if channels is None:
        return raw
    for channel_id, channel in channels.items():
        if not isinstance(channel, dict):
            continue
        _thread_binding_ttl(channel, ("channels", channel_id), changes)
        for account_id, account in _accounts(channel):
            _thread_binding_ttl(account, ("channels", channel_id, "accounts", account_id), changes)
    return raw


def _stream_mode(value: Any) -> str | None:
    found = optional_lower(value)
    return found if found in ("off", "partial", "block", "progress") else None


def telegram_mode_core(entry: dict[str, Any]) -> str:
    parsed = _stream_mode(entry.get("streaming"))
    if parsed:
        return "partial" if parsed == "progress" else parsed
    legacy = _stream_mode(entry.get("streamMode"))
    if legacy:
        return "partial" if legacy == "progress" else legacy
    streaming = entry.get("streaming")
    if is_bool(streaming):
        return "partial" if streaming else "off"
    return "partial"


SLACK_DRAFT_MODES = {"replace": "partial", "status_final": "progress", "append": "block"}


def slack_mode_core(entry: dict[str, Any]) -> str:
    parsed = _stream_mode(entry.get("streaming"))
    if parsed:
        return parsed
    legacy = optional_lower(entry.get("streamMode"))
    if legacy in SLACK_DRAFT_MODES:
        return SLACK_DRAFT_MODES[legacy]
    streaming = entry.get("streaming")
    if is_bool(streaming):
        return "partial" if streaming else "off"
    return "partial"


def _slack_native_core(entry: dict[str, Any]) -> bool:
    native = entry.get("nativeStreaming")
    if is_bool(native):
        return bool(native)
    streaming = entry.get("streaming")
    return bool(streaming) if is_bool(streaming) else True


def _move_streaming_shape(entry: dict[str, Any], prefix: Path, changes: Changes, slack: bool) -> None:
    """`moveLegacyStreamingShapeForPath`: scalar `streaming`, `streamMode` and the flat keys into
    the `streaming` object (telegram and slack; a key already set wins, the legacy one goes)."""
    text = dotted(prefix)
    legacy = entry.get("streaming", MISSING)
    snapshot = dict(entry)
    had_mode = "streamMode" in entry
    scalar = isinstance(legacy, str | bool)
    if had_mode or scalar:
        streaming = ensure(entry, "streaming")
        if "mode" not in streaming:
            mode = (slack_mode_core if slack else telegram_mode_core)(snapshot)
            streaming["mode"] = mode
            if had_mode:
                changes.append(((*prefix, "streamMode"), f"Moved {text}.streamMode → {text}.streaming.mode ({mode})."))
            if is_bool(legacy):
                changes.append(((*prefix, "streaming"), f"Moved {text}.streaming (boolean) → {text}.streaming.mode ({mode})."))
            elif is_string(legacy):
                changes.append(((*prefix, "streaming"), f"Moved {text}.streaming (scalar) → {text}.streaming.mode ({mode})."))
        else:
            where = (*prefix, "streamMode") if had_mode else (*prefix, "streaming")
            changes.append((where, f"Removed legacy {text}.streaming mode aliases ({text}.streaming.mode already set)."))
    if had_mode:
        del entry["streamMode"]
    if scalar and not isinstance(entry.get("streaming"), dict):
        entry["streaming"] = {}
    for old, new_path, words in (("chunkMode", ("chunkMode",), "streaming.chunkMode"),
                                 ("blockStreaming", ("block", "enabled"), "streaming.block.enabled"),
                                 ("draftChunk", ("preview", "chunk"), "streaming.preview.chunk"),
                                 ("blockStreamingCoalesce", ("block", "coalesce"), "streaming.block.coalesce")):
        if old not in entry:
            continue
        target = ensure(entry, "streaming")
        for step in new_path[:-1]:
            target = ensure(target, step)
        if new_path[-1] not in target:
            target[new_path[-1]] = entry[old]
            changes.append(((*prefix, old), f"Moved {text}.{old} → {text}.{words}."))
        else:
            changes.append(((*prefix, old), f"Removed {text}.{old} ({text}.{words} already set)."))
        del entry[old]
    if slack and "nativeStreaming" in entry:
        streaming = ensure(entry, "streaming")
        if "nativeTransport" not in streaming:
            streaming["nativeTransport"] = _slack_native_core({"nativeStreaming": entry["nativeStreaming"],
                                                               "streaming": legacy})
            changes.append(((*prefix, "nativeStreaming"),
                            f"Moved {text}.nativeStreaming → {text}.streaming.nativeTransport."))
        else:
            changes.append(((*prefix, "nativeStreaming"),
                            f"Removed {text}.nativeStreaming ({text}.streaming.nativeTransport already set)."))
        del entry["nativeStreaming"]
    elif slack and is_bool(legacy):
        streaming = ensure(entry, "streaming")
        if "nativeTransport" not in streaming:
            streaming["nativeTransport"] = _slack_native_core({"streaming": legacy})
            changes.append(((*prefix, "streaming"),
                            f"Moved {text}.streaming (boolean) → {text}.streaming.nativeTransport."))


def streaming_keys(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    channels = record(raw.get("channels"))
    if channels is None:
        return raw
    for provider in ("telegram", "slack"):
        entry = record(channels.get(provider))
        if entry is None:
            continue
        _move_streaming_shape(entry, ("channels", provider), changes, provider == "slack")
        for account_id, account in _accounts(entry):
            _move_streaming_shape(account, ("channels", provider, "accounts", account_id), changes, provider == "slack")
    return raw


def _allow_alias(entry: dict[str, Any], prefix: Path, changes: Changes) -> None:
    if "allow" not in entry:
        return
    text = dotted(prefix)
    had = "enabled" in entry
    if not had:
        entry["enabled"] = entry["allow"]
    del entry["allow"]
    if had:
        changes.append(((*prefix, "allow"), f"Removed {text}.allow ({text}.enabled already set)."))
    else:
        changes.append(((*prefix, "allow"), f"Moved {text}.allow → {text}.enabled."))


def _allow_in_map(entry: dict[str, Any], key: str, prefix: Path, changes: Changes) -> None:
    members = record(entry.get(key))
    for member_id, member in (members or {}).items():
        if isinstance(member, dict):
            _allow_alias(member, (*prefix, key, member_id), changes)


def _allow_in_guilds(entry: dict[str, Any], prefix: Path, changes: Changes) -> None:
    guilds = record(entry.get("guilds"))
    for guild_id, guild in (guilds or {}).items():
        if isinstance(guild, dict):
            _allow_in_map(guild, "channels", (*prefix, "guilds", guild_id), changes)


def allow_aliases(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    channels = record(raw.get("channels"))
    if channels is None:
        return raw
    def walk(provider: str, entry: dict[str, Any], prefix: Path) -> None:
        if provider == "discord":
            _allow_in_guilds(entry, prefix, changes)
        else:
            _allow_in_map(entry, "channels" if provider == "slack" else "groups", prefix, changes)

    for provider in ("slack", "googlechat", "discord"):
        entry = record(channels.get(provider))
        if entry is None:
            continue
        walk(provider, entry, ("channels", provider))
        for account_id, account in _accounts(entry):
            walk(provider, account, ("channels", provider, "accounts", account_id))
    return raw


def googlechat_stream_mode(raw: dict[str, Any], changes: Changes) -> dict[str, Any]:
    googlechat = record(record(raw.get("channels")) and raw["channels"].get("googlechat"))
    if googlechat is None:
        return raw
    for entry, prefix in ((googlechat, ("channels", "googlechat")),
                          *((acc, ("channels", "googlechat", "accounts", aid)) for aid, acc in _accounts(googlechat))):
        if "streamMode" in entry:
            del entry["streamMode"]
            changes.append(((*prefix, "streamMode"), f"Removed {dotted(prefix)}.streamMode (legacy key no longer used)."))
    return raw



_TTS_KEYS = (("openai", "openai"), ("elevenlabs", "elevenlabs"), ("microsoft", "microsoft"), ("edge", "microsoft"))


def migrate_tts(tts: dict[str, Any] | None, prefix: Path, changes: Changes, *, blocked: bool = True) -> bool:
    """Provider keys of a `tts` object into `tts.providers.<id>` (`edge` is `microsoft`)."""
    if tts is None:
        return False
    changed = False
    moved: list[tuple[str, str]] = []
    for legacy, provider in _TTS_KEYS:
        value = record(tts.get(legacy))
        if value is None:
            continue
        providers = record(tts.get("providers")) or {}
        tts["providers"] = providers
        merged = clone(record(providers.get(provider)) or {})
        merge_missing(merged, value, blocked=blocked)
        providers[provider] = merged
        del tts[legacy]
        moved.append((legacy, provider))
        changed = True
    text = dotted(prefix)
    changes.extend(((*prefix, legacy), f"Moved {text}.{legacy} → {text}.providers.{provider}.") for legacy, provider in moved)
    return changed
