"""The doctor contracts of the gateway's discord, slack and telegram plugins (openclaw 2026.4.12):
their `dm.policy`/`dm.allowFrom` and streaming aliases (`normalizeLegacyDmAliases`,
`normalizeLegacyStreamingAliases`), discord's voice TTS keys, telegram's `groupMentionsOnly`, with
the gateway's words for each change."""

from __future__ import annotations

from vora_cli.core.config.migrations.base import (
    MISSING,
    Changes,
    Path,
    clone,
    dotted,
    each_account,
    is_bool,
    js_string,
    optional_lower,
    optional_string,
    record,
)
from vora_cli.core.config.migrations.channels import SLACK_DRAFT_MODES, migrate_tts

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

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
    if legacy in SLACK_DRAFT_MODES:
        return SLACK_DRAFT_MODES[legacy]
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


def with_channel(cfg: dict[str, Any], channel: str, entry: dict[str, Any]) -> dict[str, Any]:
    return {**cfg, "channels": {**cfg["channels"], channel: entry}}


def channel_entry(cfg: dict[str, Any], channel: str) -> dict[str, Any] | None:
    channels = record(cfg.get("channels"))
    return record(channels.get(channel)) if channels is not None else None


def discord_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = channel_entry(cfg, "discord")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "discord")
    updated, dm_changed = _dm_aliases(entry, prefix, changes,
                                      promote_allow_from=not isinstance(entry.get("accounts"), dict))
    updated, streamed = _streaming_aliases(updated, prefix, changes, discord_mode(updated), preview_chunk=True)
    changed = dm_changed or streamed

    def account(value: dict[str, Any], at: Path) -> tuple[dict[str, Any], bool]:
        moved, account_changed = _dm_aliases(value, at, changes)
        moved, streamed = _streaming_aliases(moved, at, changes, discord_mode(moved), preview_chunk=True)
        voice = record(moved.get("voice"))
        if voice is not None and migrate_tts(record(voice.get("tts")), (*at, "voice", "tts"), changes, blocked=False):
            return {**moved, "voice": voice}, True
        return moved, account_changed or streamed

    updated, touched = each_account(updated, prefix, account)
    changed = changed or touched
    voice = record(updated.get("voice"))
    if voice is not None and migrate_tts(record(voice.get("tts")), (*prefix, "voice", "tts"), changes, blocked=False):
        updated = {**updated, "voice": voice}
        changed = True
    return with_channel(cfg, "discord", updated) if changed else cfg


def slack_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = channel_entry(cfg, "slack")
    if entry is None:
        return cfg
    prefix: Path = ("channels", "slack")
    updated, dm_changed = _dm_aliases(entry, prefix, changes)
    updated, streamed = _streaming_aliases(updated, prefix, changes, slack_mode(updated), native=slack_native(updated))
    changed = dm_changed or streamed

    def account(value: dict[str, Any], at: Path) -> tuple[dict[str, Any], bool]:
        moved, dm_changed = _dm_aliases(value, at, changes)
        moved, streamed = _streaming_aliases(moved, at, changes, slack_mode(moved), native=slack_native(moved))
        return moved, dm_changed or streamed

    updated, touched = each_account(updated, prefix, account)
    changed = changed or touched
    return with_channel(cfg, "slack", updated) if changed else cfg


def telegram_contract(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    entry = channel_entry(cfg, "telegram")
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
    updated, touched = each_account(updated, prefix, lambda value, at: _streaming_aliases(
        value, at, changes, telegram_mode(value), preview_chunk=True))
    changed = changed or touched
    if not changed and len(changes) == start:
        return cfg
    return with_channel(cfg, "telegram", updated)


