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
    js_string,
    merge_missing,
    optional_lower,
    optional_string,
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


_SLACK_DRAFT = {"replace": "partial", "status_final": "progress", "append": "block"}


def slack_mode_core(entry: dict[str, Any]) -> str:
    parsed = _stream_mode(entry.get("streaming"))
    if parsed:
        return parsed
    legacy = optional_lower(entry.get("streamMode"))
    if legacy in _SLACK_DRAFT:
        return _SLACK_DRAFT[legacy]
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


# -- the channel plugins' doctor contracts ------------------------------------------------------------


def _string_entries(values: list[Any]) -> list[str]:
    return [s for s in (optional_string(js_string(v)) or "" for v in values) if s]


def _dm_aliases(entry: dict[str, Any], prefix: Path, changes: Changes,
                promote_allow_from: bool = True) -> tuple[dict[str, Any], bool]:
    """`normalizeLegacyDmAliases`: `dm.policy` → `dmPolicy`, `dm.allowFrom` → `allowFrom`."""
    text = dotted(prefix)
    raw_dm = entry.get("dm")
    dm = clone(raw_dm) if isinstance(raw_dm, dict) else None
    updated = entry
    changed = False
    dm_changed = False
    top_policy = updated.get("dmPolicy", MISSING)
    legacy_policy = dm.get("policy", MISSING) if dm is not None else MISSING
    if top_policy is MISSING and legacy_policy is not MISSING:
        updated = {**updated, "dmPolicy": legacy_policy}
        changed = True
        if dm is not None:
            del dm["policy"]
            dm_changed = True
        changes.append(((*prefix, "dm", "policy"), f"Moved {text}.dm.policy → {text}.dmPolicy."))
    elif top_policy is not MISSING and legacy_policy is not MISSING and _js_strict_equal(top_policy, legacy_policy) \
            and dm is not None:
        del dm["policy"]
        dm_changed = True
        changes.append(((*prefix, "dm", "policy"), f"Removed {text}.dm.policy (dmPolicy already set)."))
    if promote_allow_from:
        top = updated.get("allowFrom", MISSING)
        legacy = dm.get("allowFrom", MISSING) if dm is not None else MISSING
        if top is MISSING and legacy is not MISSING:
            updated = {**updated, "allowFrom": legacy}
            changed = True
            if dm is not None:
                del dm["allowFrom"]
                dm_changed = True
            changes.append(((*prefix, "dm", "allowFrom"), f"Moved {text}.dm.allowFrom → {text}.allowFrom."))
        elif top is not MISSING and legacy is not MISSING and isinstance(top, list) and isinstance(legacy, list) \
                and _string_entries(top) == _string_entries(legacy) and dm is not None:
            del dm["allowFrom"]
            dm_changed = True
            changes.append(((*prefix, "dm", "allowFrom"), f"Removed {text}.dm.allowFrom (allowFrom already set)."))
    if dm is not None and dm_changed:
        if not dm:
            if "dm" in updated:
                updated = {k: v for k, v in updated.items() if k != "dm"}
                changed = True
                changes.append(((*prefix, "dm"), f"Removed empty {text}.dm after migration."))
        else:
            updated = {**updated, "dm": dm}
            changed = True
    return updated, changed


def _js_strict_equal(a: Any, b: Any) -> bool:
    """`===` of JSON values: objects only by identity (two parsed objects never are)."""
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(type(a) is type(b) and a == b) or (isinstance(a, int | float) and isinstance(b, int | float)
                                                   and a == b)


def _preview_mode(value: Any) -> str | None:
    found = optional_lower(value) if isinstance(value, str) else None
    if found in ("off", "partial", "block", "progress"):
        return "partial" if found == "progress" else found
    return None


def telegram_mode(entry: dict[str, Any]) -> str:
    """The telegram plugin's own `resolveTelegramPreviewStreamMode` (its SDK's preview rule)."""
    streaming = entry.get("streaming")
    inner = streaming.get("mode", MISSING) if isinstance(streaming, dict) else MISSING
    parsed = _preview_mode(inner if inner is not MISSING and inner is not None else streaming)
    if parsed:
        return parsed
    legacy = _preview_mode(entry.get("streamMode"))
    if legacy:
        return legacy
    if is_bool(streaming):
        return "partial" if streaming else "off"
    return "partial"


def discord_mode(entry: dict[str, Any]) -> str:
    def parse(value: Any) -> str | None:
        return value if value in ("off", "partial", "block") and isinstance(value, str) else None

    streaming = entry.get("streaming")
    if isinstance(streaming, dict):
        inner = streaming.get("mode")
        parsed = parse(inner if inner is not None else streaming.get("streaming"))
    else:
        parsed = parse(streaming)
    if parsed:
        return parsed
    legacy = parse(entry.get("streamMode"))
    if legacy:
        return legacy
    if is_bool(streaming):
        return "partial" if streaming else "off"
    return "off"


def _slack_stream_mode(value: Any) -> str | None:
    return optional_lower(value) if isinstance(value, str) else None


def slack_mode(entry: dict[str, Any]) -> str:
    streaming = entry.get("streaming")
    inner = streaming.get("mode") if isinstance(streaming, dict) else None
    found = _slack_stream_mode(inner if inner is not None else streaming)
    if found in ("off", "partial", "block", "progress"):
        return found
    legacy = _slack_stream_mode(entry.get("streamMode"))
    if legacy in _SLACK_DRAFT:
        return _SLACK_DRAFT[legacy]
    if is_bool(streaming):
        return "partial" if streaming else "off"
    return "partial"


def slack_native(entry: dict[str, Any]) -> bool:
    streaming = entry.get("streaming")
    canonical = streaming.get("nativeTransport") if isinstance(streaming, dict) else None
    if not is_bool(canonical):
        canonical = entry.get("nativeStreaming")
    if is_bool(canonical):
        return bool(canonical)
    return bool(streaming) if is_bool(streaming) else True


def _copy_record(owner: dict[str, Any], key: str) -> dict[str, Any]:
    found = owner.get(key)
    return dict(found) if isinstance(found, dict) else {}


def _streaming_aliases(entry: dict[str, Any], prefix: Path, changes: Changes, mode: str, *,
                       preview_chunk: bool = False, native: bool | None = None) -> tuple[dict[str, Any], bool]:
    """`normalizeLegacyStreamingAliases` (the plugins' form: a key already set keeps the legacy one)."""
    text = dotted(prefix)
    before = entry.get("streaming", MISSING)
    had_mode = entry.get("streamMode", MISSING) is not MISSING
    scalar = isinstance(before, str | bool)
    flat = any(entry.get(k, MISSING) is not MISSING for k in ("chunkMode", "blockStreaming", "blockStreamingCoalesce",
                                                                "nativeStreaming")) or \
        (preview_chunk and entry.get("draftChunk", MISSING) is not MISSING)
    if not (had_mode or scalar or flat):
        return entry, False
    updated = dict(entry)
    start = len(changes)
    streaming = _copy_record(updated, "streaming")
    block = _copy_record(streaming, "block")
    preview = _copy_record(streaming, "preview")
    if (had_mode or scalar) and "mode" not in streaming:
        streaming["mode"] = mode
        if had_mode:
            changes.append(((*prefix, "streamMode"), f"Moved {text}.streamMode → {text}.streaming.mode ({mode})."))
        elif is_bool(before):
            changes.append(((*prefix, "streaming"), f"Moved {text}.streaming (boolean) → {text}.streaming.mode ({mode})."))
        else:
            changes.append(((*prefix, "streaming"), f"Moved {text}.streaming (scalar) → {text}.streaming.mode ({mode})."))
    if had_mode:
        del updated["streamMode"]
    for old, target, key, words in (("chunkMode", streaming, "chunkMode", "streaming.chunkMode"),
                                    ("blockStreaming", block, "enabled", "streaming.block.enabled"),
                                    ("draftChunk", preview, "chunk", "streaming.preview.chunk"),
                                    ("blockStreamingCoalesce", block, "coalesce", "streaming.block.coalesce")):
        if old == "draftChunk" and not preview_chunk:
            continue
        if updated.get(old, MISSING) is not MISSING and target.get(key, MISSING) is MISSING:
            target[key] = updated.pop(old)
            changes.append(((*prefix, old), f"Moved {text}.{old} → {text}.{words}."))
    if updated.get("nativeStreaming", MISSING) is not MISSING and "nativeTransport" not in streaming \
            and native is not None:
        streaming["nativeTransport"] = native
        del updated["nativeStreaming"]
        changes.append(((*prefix, "nativeStreaming"), f"Moved {text}.nativeStreaming → {text}.streaming.nativeTransport."))
    elif is_bool(before) and "nativeTransport" not in streaming and native is not None:
        streaming["nativeTransport"] = native
        changes.append(((*prefix, "streaming"), f"Moved {text}.streaming (boolean) → {text}.streaming.nativeTransport."))
    if preview:
        streaming["preview"] = preview
    if block:
        streaming["block"] = block
    updated["streaming"] = streaming
    # every step that changed something said so; removing `streamMode` says it with its mode, or
    # not at all when the object already had one
    return updated, len(changes) > start or had_mode


def _with_channel(cfg: dict[str, Any], channel: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {**cfg, "channels": {**cfg["channels"], channel: entry}}


def _channel(cfg: dict[str, Any], channel: str) -> dict[str, Any] | None:
    channels = record(cfg.get("channels"))
    return record(channels.get(channel)) if channels is not None else None


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


def discord_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = _channel(cfg, "discord")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "discord")
    updated, dm_changed = _dm_aliases(entry, prefix, changes,
                                      promote_allow_from=not isinstance(entry.get("accounts"), dict))
    updated, streamed = _streaming_aliases(updated, prefix, changes, discord_mode(updated), preview_chunk=True)
    changed = dm_changed or streamed
    accounts = record(updated.get("accounts"))
    if accounts is not None:
        new_accounts = dict(accounts)
        touched = False
        for account_id, account in accounts.items():
            if not isinstance(account, dict):
                continue
            at: Path = (*prefix, "accounts", account_id)
            moved, account_changed = _dm_aliases(account, at, changes)
            moved, streamed = _streaming_aliases(moved, at, changes, discord_mode(moved), preview_chunk=True)
            account_changed = account_changed or streamed
            voice = record(moved.get("voice"))
            if voice is not None and migrate_tts(record(voice.get("tts")), (*at, "voice", "tts"), changes, blocked=False):
                moved = {**moved, "voice": voice}
                account_changed = True
            if account_changed:
                new_accounts[account_id] = moved
                touched = True
        if touched:
            updated = {**updated, "accounts": new_accounts}
            changed = True
    voice = record(updated.get("voice"))
    if voice is not None and migrate_tts(record(voice.get("tts")), (*prefix, "voice", "tts"), changes, blocked=False):
        updated = {**updated, "voice": voice}
        changed = True
    return _with_channel(cfg, "discord", updated) if changed else cfg


def slack_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = _channel(cfg, "slack")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "slack")
    updated, dm_changed = _dm_aliases(entry, prefix, changes)
    updated, streamed = _streaming_aliases(updated, prefix, changes, slack_mode(updated), native=slack_native(updated))
    changed = dm_changed or streamed
    accounts = record(updated.get("accounts"))
    if accounts is not None:
        new_accounts = dict(accounts)
        touched = False
        for account_id, account in accounts.items():
            if not isinstance(account, dict):
                continue
            at: Path = (*prefix, "accounts", account_id)
            moved, dm_changed = _dm_aliases(account, at, changes)
            moved, streamed = _streaming_aliases(moved, at, changes, slack_mode(moved), native=slack_native(moved))
            if dm_changed or streamed:
                new_accounts[account_id] = moved
                touched = True
        if touched:
            updated = {**updated, "accounts": new_accounts}
            changed = True
    return _with_channel(cfg, "slack", updated) if changed else cfg


def telegram_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = _channel(cfg, "telegram")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "telegram")
    updated = entry
    changed = False
    start = len(changes)
    if updated.get("groupMentionsOnly", MISSING) is not MISSING:
        groups_raw = updated.get("groups", MISSING)
        groups = record(groups_raw)
        star = groups.get("*", MISSING) if groups is not None else MISSING
        if (groups_raw is not MISSING and groups is None) or (star is not MISSING and not isinstance(star, dict)):
            changes.append(((*prefix, "groupMentionsOnly"), "Skipped channels.telegram.groupMentionsOnly migration "
                            "because channels.telegram.groups already has an incompatible shape; fix remaining "
                            "issues manually."))
        else:
            groups = groups if groups is not None else {}
            default = star if isinstance(star, dict) else {}
            if default.get("requireMention", MISSING) is MISSING:
                default["requireMention"] = updated["groupMentionsOnly"]
                groups["*"] = default
                updated = {**updated, "groups": groups}
                changes.append(((*prefix, "groupMentionsOnly"), "Moved channels.telegram.groupMentionsOnly → "
                                'channels.telegram.groups."*".requireMention.'))
            else:
                changes.append(((*prefix, "groupMentionsOnly"), "Removed channels.telegram.groupMentionsOnly "
                                '(channels.telegram.groups."*" already set).'))
            updated = {k: v for k, v in updated.items() if k != "groupMentionsOnly"}
            changed = True
    updated, streamed = _streaming_aliases(updated, prefix, changes, telegram_mode(updated), preview_chunk=True)
    changed = changed or streamed
    accounts = record(updated.get("accounts"))
    if accounts is not None:
        new_accounts = dict(accounts)
        touched = False
        for account_id, account in accounts.items():
            if not isinstance(account, dict):
                continue
            moved, streamed = _streaming_aliases(account, (*prefix, "accounts", account_id), changes,
                                                 telegram_mode(account), preview_chunk=True)
            if streamed:
                new_accounts[account_id] = moved
                touched = True
        if touched:
            updated = {**updated, "accounts": new_accounts}
            changed = True
    if not changed and len(changes) == start:
        return cfg
    return _with_channel(cfg, "telegram", updated)


def _private_network_alias(entry: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any]:
    """`migrateLegacyFlatAllowPrivateNetworkAlias`: `allowPrivateNetwork` →
    `network.dangerouslyAllowPrivateNetwork` (a boolean already there wins)."""
    if "allowPrivateNetwork" not in entry:
        return entry
    legacy = entry["allowPrivateNetwork"]
    network = dict(entry["network"]) if isinstance(entry.get("network"), dict) else {}
    current = network.get("dangerouslyAllowPrivateNetwork", MISSING)
    resolved = current
    if is_bool(current):
        resolved = current
    elif is_bool(legacy) or current is MISSING:
        resolved = legacy
    network.pop("dangerouslyAllowPrivateNetwork", None)
    if resolved is not MISSING:
        network["dangerouslyAllowPrivateNetwork"] = resolved
    updated = {k: v for k, v in entry.items() if k != "allowPrivateNetwork"}
    if network:
        updated["network"] = network
    else:
        updated.pop("network", None)
    text = dotted(prefix)
    changes.append(((*prefix, "allowPrivateNetwork"), f"Moved {text}.allowPrivateNetwork → "
                    f"{text}.network.dangerouslyAllowPrivateNetwork ({js_string(resolved)})."))
    return updated


def private_network_contract(channel: str) -> Any:
    """The SDK's `createLegacyPrivateNetworkDoctorContract` for one channel."""
    def apply(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
        entry = _channel(cfg, channel)
        if entry is None:
            return cfg
        prefix: Path = ("channels", channel)
        updated = _private_network_alias(entry, prefix, changes)
        changed = updated is not entry
        accounts = record(updated.get("accounts"))
        if accounts is not None:
            new_accounts = dict(accounts)
            touched = False
            for account_id, account in accounts.items():
                if not isinstance(account, dict):
                    continue
                moved = _private_network_alias(account, (*prefix, "accounts", account_id), changes)
                if moved is not account:
                    new_accounts[account_id] = moved
                    touched = True
            if touched:
                updated = {**updated, "accounts": new_accounts}
                changed = True
        return _with_channel(cfg, channel, updated) if changed else cfg

    return apply


def _room_allow(rooms: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any] | None:
    """`.allow` (a boolean) → `.enabled` on each room or group; None when nothing moved."""
    moved = dict(rooms)
    changed = False
    text = dotted(prefix)
    for room_id, room in rooms.items():
        if not isinstance(room, dict) or not is_bool(room.get("allow")):
            continue
        new = dict(room)
        if not is_bool(new.get("enabled")):
            new["enabled"] = room["allow"]
        del new["allow"]
        moved[room_id] = new
        changed = True
        changes.append(((*prefix, room_id, "allow"), f"Moved {text}.{room_id}.allow → {text}.{room_id}.enabled "
                        f"({js_string(new['enabled'])})."))
    return moved if changed else None


def _trusted_dm(entry: dict[str, Any], prefix: Path, changes: Changes) -> dict[str, Any]:
    dm = record(entry.get("dm"))
    if dm is None or dm.get("policy") != "trusted":
        return entry
    allow = dm.get("allowFrom")
    count = sum(1 for v in allow if isinstance(v, str) and v.strip()) if isinstance(allow, list) else 0
    policy = "allowlist" if count > 0 else "pairing"
    text = dotted(prefix)
    kept = f"preserved {count} {text}.dm.allowFrom {'entry' if count == 1 else 'entries'}" if count > 0 else \
        "no allowFrom entries present, defaulting to pairing for safety"
    changes.append(((*prefix, "dm", "policy"), f'Migrated {text}.dm.policy "trusted" → "{policy}" '
                    f"(legacy alias removed; {kept})."))
    return {**entry, "dm": {**dm, "policy": policy}}


def matrix_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = _channel(cfg, "matrix")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "matrix")
    updated = _private_network_alias(entry, prefix, changes)
    updated = _trusted_dm(updated, prefix, changes)
    changed = updated is not entry
    for key in ("groups", "rooms"):
        rooms = record(updated.get(key))
        moved = _room_allow(rooms, (*prefix, key), changes) if rooms is not None else None
        if moved is not None:
            updated = {**updated, key: moved}
            changed = True
    accounts = record(updated.get("accounts"))
    if accounts is not None:
        new_accounts = dict(accounts)
        touched = False
        for account_id, account in accounts.items():
            if not isinstance(account, dict):
                continue
            at: Path = (*prefix, "accounts", account_id)
            new = _trusted_dm(_private_network_alias(account, at, changes), at, changes)
            for key in ("groups", "rooms"):
                rooms = record(new.get(key))
                moved = _room_allow(rooms, (*at, key), changes) if rooms is not None else None
                if moved is not None:
                    new = {**new, key: moved}
            if new is not account:
                new_accounts[account_id] = new
                touched = True
        if touched:
            updated = {**updated, "accounts": new_accounts}
            changed = True
    return _with_channel(cfg, "matrix", updated) if changed else cfg


def zalouser_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = _channel(cfg, "zalouser")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "zalouser")
    updated = entry
    groups = record(updated.get("groups"))
    moved = _room_allow(groups, (*prefix, "groups"), changes) if groups is not None else None
    if moved is not None:
        updated = {**updated, "groups": moved}
    accounts = record(updated.get("accounts"))
    if accounts is not None:
        new_accounts = dict(accounts)
        touched = False
        for account_id, account in accounts.items():
            groups = record(account.get("groups")) if isinstance(account, dict) else None
            if groups is None:
                continue
            moved = _room_allow(groups, (*prefix, "accounts", account_id, "groups"), changes)
            if moved is not None:
                new_accounts[account_id] = {**account, "groups": moved}
                touched = True
        if touched:
            updated = {**updated, "accounts": new_accounts}
    return _with_channel(cfg, "zalouser", updated) if updated is not entry else cfg


_ACK_SCOPES = {"all": (True, "always"), "direct": (True, "never"), "group-all": (False, "always"),
               "group-mentions": (False, "mentions")}


def whatsapp_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """`messages.ackReaction` copied into `channels.whatsapp.ackReaction` (a gateway normalisation)."""
    messages = record(cfg.get("messages"))
    ack = messages.get("ackReaction") if messages is not None else None
    legacy = ack.strip() if isinstance(ack, str) else None
    channels = record(cfg.get("channels"))
    if not legacy or channels is None or "whatsapp" not in channels:
        return cfg
    whatsapp = channels["whatsapp"]
    if isinstance(whatsapp, dict) and "ackReaction" in whatsapp:
        return cfg
    scope = messages.get("ackReactionScope") if messages is not None else None
    scope = "group-mentions" if scope is None else scope
    direct, group = _ACK_SCOPES.get(scope, (True, "mentions")) if isinstance(scope, str) else (True, "mentions")
    base = whatsapp if isinstance(whatsapp, dict) else {}
    changes.append((("messages", "ackReaction"), f"Copied messages.ackReaction → channels.whatsapp.ackReaction "
                    f"(scope: {js_string(scope)})."))
    return _with_channel(cfg, "whatsapp", {**base, "ackReaction": {"emoji": legacy, "direct": direct, "group": group}})


# The contracts the gateway's first pass runs (its plugins' `doctor-contract-api`), and its
# channels' doctor adapters the second pass runs; each only for a channel the config names.
PLUGIN_CONTRACTS = {"discord": discord_contract, "matrix": matrix_contract,
                    "mattermost": private_network_contract("mattermost"), "slack": slack_contract,
                    "telegram": telegram_contract, "zalouser": zalouser_contract}
CHANNEL_DOCTORS = {"bluebubbles": private_network_contract("bluebubbles"), "discord": discord_contract,
                   "matrix": matrix_contract, "mattermost": PLUGIN_CONTRACTS["mattermost"],
                   "nextcloud-talk": private_network_contract("nextcloud-talk"), "slack": slack_contract,
                   "telegram": telegram_contract, "tlon": private_network_contract("tlon"),
                   "whatsapp": whatsapp_contract, "zalouser": zalouser_contract}
