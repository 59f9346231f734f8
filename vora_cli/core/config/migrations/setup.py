"""The setup migrations the gateway's bundled plugins register (openclaw 2026.4.12's
`api.registerConfigMigration`), run in its second pass whatever the plugins' enabled state:
amazon-bedrock's `models.bedrockDiscovery`, elevenlabs' `talk.voiceId` & co., memory-wiki's
`readMemoryCore`, voice-call's `provider: "log"`, `twilio.from` and `streaming.stt*`."""

from __future__ import annotations

from vora_cli.core.config.migrations.base import (
    BLOCKED_KEYS,
    MISSING,
    Changes,
    clone,
    clone_record,
    ensure,
    is_number,
    js_json,
    merge_missing,
    record,
)
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def bedrock_discovery(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    models = record(cfg.get("models"))
    legacy = record(models.get("bedrockDiscovery")) if models is not None else None
    if legacy is None:
        return cfg
    root = clone_record(cfg)
    del root["models"]["bedrockDiscovery"]
    if not root["models"]:
        del root["models"]
    where = ("models", "bedrockDiscovery")
    target = "plugins.entries.amazon-bedrock.config.discovery"
    if not legacy:
        changes.append((where, "Removed empty models.bedrockDiscovery."))
        return root
    config = ensure(ensure(ensure(ensure(root, "plugins"), "entries"), "amazon-bedrock"), "config")
    existing = record(config.get("discovery"))
    if existing is None:
        config["discovery"] = dict(legacy)
        changes.append((where, f"Moved models.bedrockDiscovery → {target}."))
        return root
    merged = dict(existing)
    merge_missing(merged, legacy)
    config["discovery"] = merged
    if js_json(merged) != js_json(existing):
        changes.append((where, f"Merged models.bedrockDiscovery → {target} (filled missing fields from legacy; kept "
                        "explicit plugin config values)."))
    else:
        changes.append((where, f"Removed models.bedrockDiscovery ({target} already set)."))
    return root


TALK_LEGACY_KEYS = ("voiceId", "voiceAliases", "modelId", "outputFormat", "apiKey")


def elevenlabs_talk(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    talk = record(cfg.get("talk"))
    if talk is None or not any(k in talk for k in TALK_LEGACY_KEYS):
        return cfg
    explicit = js_trim(talk["provider"]) if isinstance(talk.get("provider"), str) else ""
    providers = record(talk.get("providers"))
    provider: str | None
    if explicit:
        provider = None if explicit in BLOCKED_KEYS else explicit
    elif providers is None:
        provider = "elevenlabs"
    else:
        ids = [k for k in providers if k not in BLOCKED_KEYS]
        provider = "elevenlabs" if not ids else ids[0] if len(ids) == 1 else None
    if provider is None:
        changes.append((("talk",), "Skipped talk legacy field migration because talk.providers defines multiple "
                        "providers and talk.provider is unset; move talk.voiceId/talk.voiceAliases/talk.modelId/"
                        "talk.outputFormat/talk.apiKey under the intended provider manually."))
        return cfg
    root = clone_record(cfg)
    new_talk = root["talk"]
    new_providers = ensure(new_talk, "providers")
    migrated = clone(record(new_providers.get(provider)) or {})
    legacy: dict[str, Any] = {}
    moved = []
    for key in TALK_LEGACY_KEYS:
        if key in new_talk:
            legacy[key] = new_talk.pop(key)
            moved.append(key)
    merge_missing(migrated, legacy)
    new_providers[provider] = migrated
    changes.append((("talk", moved[0]), f"Moved talk legacy fields ({', '.join(moved)}) → talk.providers.{provider} "
                    "(filled missing provider fields only)."))
    return root


def memory_wiki_bridge(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    plugins = record(cfg.get("plugins"))
    entries = record(plugins.get("entries")) if plugins is not None else None
    entry = record(entries.get("memory-wiki")) if entries is not None else None
    config = record(entry.get("config")) if entry is not None else None
    bridge = record(config.get("bridge")) if config is not None else None
    if bridge is None or "readMemoryCore" not in bridge:
        return cfg
    root = clone_record(cfg)
    new_bridge = root["plugins"]["entries"]["memory-wiki"]["config"]["bridge"]
    value = new_bridge.pop("readMemoryCore")
    where = ("plugins", "entries", "memory-wiki", "config", "bridge", "readMemoryCore")
    prefix = "plugins.entries.memory-wiki.config.bridge"
    if "readMemoryArtifacts" in new_bridge:
        changes.append((where, f"Removed legacy {prefix}.readMemoryCore; kept explicit {prefix}.readMemoryArtifacts."))
    else:
        new_bridge["readMemoryArtifacts"] = value
        changes.append((where, f"Moved {prefix}.readMemoryCore → {prefix}.readMemoryArtifacts."))
    return root


def _string_field(owner: dict[str, Any] | None, key: str) -> Any:
    value = owner.get(key) if owner is not None else None
    return value if isinstance(value, str) else MISSING


def voice_call(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """voice-call's `migrateVoiceCallLegacyConfigInput` on `plugins.entries.voice-call.config`."""
    plugins = record(cfg.get("plugins"))
    entries = record(plugins.get("entries")) if plugins is not None else None
    entry = entries.get("voice-call") if entries is not None else None
    raw = record(entry.get("config")) if isinstance(entry, dict) else None
    if raw is None:
        return cfg
    assert plugins is not None and entries is not None and isinstance(entry, dict)
    prefix = "plugins.entries.voice-call.config"
    base = ("plugins", "entries", "voice-call", "config")
    twilio = record(raw.get("twilio"))
    streaming = record(raw.get("streaming"))
    found: Changes = []
    if raw.get("provider") == "log":
        found.append(((*base, "provider"), f'Moved {prefix}.provider "log" → "mock".'))
    if twilio is not None and isinstance(twilio.get("from"), str) and not isinstance(raw.get("fromNumber"), str):
        found.append(((*base, "twilio", "from"), f"Moved {prefix}.twilio.from → {prefix}.fromNumber."))
    for key, number, target in (("sttProvider", False, "streaming.provider"),
                                ("openaiApiKey", False, "streaming.providers.openai.apiKey"),
                                ("sttModel", False, "streaming.providers.openai.model"),
                                ("silenceDurationMs", True, "streaming.providers.openai.silenceDurationMs"),
                                ("vadThreshold", True, "streaming.providers.openai.vadThreshold")):
        value = streaming.get(key) if streaming is not None else None
        if is_number(value) if number else isinstance(value, str):
            found.append(((*base, "streaming", key), f"Moved {prefix}.streaming.{key} → {prefix}.{target}."))
    if not found:
        return cfg
    compat: dict[str, Any] = {}
    for key, name in (("openaiApiKey", "apiKey"), ("sttModel", "model")):
        value = _string_field(streaming, key)
        if value is not MISSING and value:
            compat[name] = value
    for key in ("silenceDurationMs", "vadThreshold"):
        value = streaming.get(key) if streaming is not None else None
        if is_number(value):
            compat[key] = value
    new_streaming: Any = MISSING
    if streaming is not None:
        provider = _string_field(streaming, "provider")
        if provider is MISSING:
            provider = _string_field(streaming, "sttProvider")
        providers: Any = record(streaming.get("providers"))
        if compat:
            providers = providers or {}
            providers = {**providers, "openai": {**(record(providers.get("openai")) or {}), **compat}}
        new_streaming = {**streaming, "provider": provider, "providers": MISSING if providers is None else providers}
        for key in ("sttProvider", "openaiApiKey", "sttModel", "silenceDurationMs", "vadThreshold"):
            new_streaming.pop(key, None)
        new_streaming = {k: v for k, v in new_streaming.items() if v is not MISSING}
    from_number = raw.get("fromNumber", MISSING)
    if from_number is MISSING or from_number is None:
        from_number = twilio["from"] if twilio is not None and isinstance(twilio.get("from"), str) else MISSING
    config = {**raw, "provider": "mock" if raw.get("provider") == "log" else raw.get("provider", MISSING),
              "fromNumber": from_number,
              "twilio": MISSING if twilio is None else {k: v for k, v in twilio.items() if k != "from"},
              "streaming": new_streaming}
    config = {k: v for k, v in config.items() if v is not MISSING}
    changes.extend(found)
    new_entries = {**clone(entries), "voice-call": {**entry, "config": config}}
    return {**cfg, "plugins": {**clone(plugins), "entries": new_entries}}


SETUP_MIGRATIONS = {"amazon-bedrock": bedrock_discovery, "elevenlabs": elevenlabs_talk,
                    "memory-wiki": memory_wiki_bridge, "voice-call": voice_call}


