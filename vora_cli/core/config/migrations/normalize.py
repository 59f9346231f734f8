"""The gateway's second pass (openclaw 2026.4.12 `normalizeCompatibilityConfigValues`): shapes it
rewrites as it reads a config, legacy ones (a browser profile's `extension` driver, a skill that
became a model, `talk.voiceId`) and a few of current keys (single-account values of a
multi-account channel, Mistral's `maxTokens`), with its words for each change."""

from __future__ import annotations

from vora_cli.core.config.migrations.base import (
    MISSING,
    Changes,
    clone,
    deep_equal,
    is_bool,
    is_number,
    js_string,
    optional_lower,
    optional_string,
    record,
)
from vora_cli.core.config.migrations.facts import channel_setup
from vora_cli.core.config.migrations.setup import TALK_LEGACY_KEYS
from vora_cli.core.secrets import SECRET_REF_SOURCES
from vora_cli.core.strict_json import is_finite, js_number
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# src/channels/plugins/setup-promotion-helpers.ts
_COMMON_SINGLE_ACCOUNT_KEYS = frozenset((
    "name", "token", "tokenFile", "botToken", "appToken", "account", "signalNumber", "authDir", "cliPath", "dbPath",
    "httpUrl", "httpHost", "httpPort", "webhookPath", "webhookUrl", "webhookSecret", "service", "region", "homeserver",
    "userId", "accessToken", "password", "deviceName", "url", "code", "dmPolicy", "allowFrom", "groupPolicy",
    "groupAllowFrom", "defaultTo"))


def _keys_to_move(channel_id: str, channel: dict[str, Any]) -> list[str]:
    setup = channel_setup(channel_id)
    single = set(setup.get("singleAccountKeysToMove") or ())
    named = setup.get("namedAccountPromotionKeys")
    accounts = channel.get("accounts")
    has_named = isinstance(accounts, dict) and any(accounts)
    out = []
    for key in channel:
        if key in ("accounts", "enabled"):
            continue
        if key not in _COMMON_SINGLE_ACCOUNT_KEYS and key not in single:
            continue
        if has_named and named is not None and key not in named:
            continue
        out.append(key)
    return out


def seed_default_accounts(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """A multi-account channel with single-account values at its top and no `default` account: the
    gateway reads them as `accounts.default`."""
    channels = record(cfg.get("channels"))
    if channels is None:
        return cfg
    new_channels = dict(channels)
    changed = False
    for channel_id, channel in channels.items():
        accounts = record(channel.get("accounts")) if isinstance(channel, dict) else None
        if not accounts or any(optional_lower(k) == "default" for k in accounts):
            continue
        assert isinstance(channel, dict)
        moving = _keys_to_move(channel_id, channel)
        if not moving:
            continue
        default = {k: clone(channel[k]) for k in moving}
        new_channel = {k: v for k, v in channel.items() if k not in moving}
        new_channel["accounts"] = {**accounts, "default": default}
        new_channels[channel_id] = new_channel
        changed = True
        changes.append((("channels", channel_id), f"Moved channels.{channel_id} single-account top-level values into "
                        f"channels.{channel_id}.accounts.default."))
    return {**cfg, "channels": new_channels} if changed else cfg


def browser(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    raw = record(cfg.get("browser"))
    if raw is None:
        return cfg
    new = clone(raw)
    changed = False
    if "relayBindHost" in new:
        del new["relayBindHost"]
        changed = True
        changes.append((("browser", "relayBindHost"), "Removed browser.relayBindHost (legacy Chrome extension relay "
                        "setting; host-local Chrome now uses Chrome MCP existing-session attach)."))
    profiles = record(new.get("profiles"))
    if profiles is not None:
        moved = dict(profiles)
        for name, profile in profiles.items():
            if not isinstance(profile, dict) or (optional_string(profile.get("driver")) or "") != "extension":
                continue
            moved[name] = {**profile, "driver": "existing-session"}
            new["profiles"] = moved
            changed = True
            changes.append((("browser", "profiles", name, "driver"), f'Moved browser.profiles.{name}.driver "extension" '
                            '→ "existing-session" (Chrome MCP attach).'))
    policy = record(new.get("ssrfPolicy"))
    if policy is not None and "allowPrivateNetwork" in policy:
        legacy = policy["allowPrivateNetwork"]
        current = policy.get("dangerouslyAllowPrivateNetwork", MISSING)
        resolved = current
        if is_bool(legacy) or is_bool(current):
            resolved = legacy is True or current is True
        elif current is MISSING:
            resolved = legacy
        new_policy = {k: v for k, v in policy.items() if k != "allowPrivateNetwork"}
        if resolved is not MISSING:
            new_policy["dangerouslyAllowPrivateNetwork"] = resolved
        new["ssrfPolicy"] = new_policy
        changed = True
        changes.append((("browser", "ssrfPolicy", "allowPrivateNetwork"), "Moved browser.ssrfPolicy.allowPrivateNetwork → "
                        f"browser.ssrfPolicy.dangerouslyAllowPrivateNetwork ({js_string(resolved)})."))
    return {**cfg, "browser": new} if changed else cfg


# -- the rest of the second pass -----------------------------------------------------------------------

_NANO_BANANA = "nano-banana-pro"
_NANO_BANANA_MODEL = "google/gemini-3-pro-image-preview"
DEFAULT_GOOGLE_API_BASE_URL = "https://generativelanguage.googleapis.com/v1beta"


def nano_banana_skill(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    raw = record(cfg.get("skills"))
    if raw is None:
        return cfg
    nxt = cfg
    changed = False
    skills = clone(raw)
    allow = skills.get("allowBundled")
    if isinstance(allow, list):
        kept = [v for v in allow if not isinstance(v, str) or js_trim(v) != _NANO_BANANA]
        if len(kept) != len(allow):
            if not kept:
                del skills["allowBundled"]
                changes.append((("skills", "allowBundled"), f"Removed skills.allowBundled entry for {_NANO_BANANA}."))
            else:
                skills["allowBundled"] = kept
                changes.append((("skills", "allowBundled"), f"Removed {_NANO_BANANA} from skills.allowBundled."))
            changed = True
    entries = record(skills.get("entries"))
    legacy = record(entries.get(_NANO_BANANA)) if entries is not None else None
    if legacy is None:
        return {**cfg, "skills": skills} if changed else cfg
    where = ("skills", "entries", _NANO_BANANA)
    agents = record(nxt.get("agents"))
    defaults = record(agents.get("defaults")) if agents is not None else None
    if defaults is None or "imageGenerationModel" not in defaults:
        nxt = {**nxt, "agents": {**(agents or {}), "defaults": {**(defaults or {}),
                                                                 "imageGenerationModel": {"primary": _NANO_BANANA_MODEL}}}}
        changes.append((where, f"Moved skills.entries.{_NANO_BANANA} → agents.defaults.imageGenerationModel.primary "
                        f"({_NANO_BANANA_MODEL})."))
    env = record(legacy.get("env"))
    env_key = optional_string(env.get("GEMINI_API_KEY")) if env is not None else None
    api_key: Any = env_key or ""
    if not api_key:
        given = legacy.get("apiKey")
        api_key = optional_string(given) if isinstance(given, str) else clone(given) if isinstance(given, dict) else None
    models = clone(nxt["models"]) if isinstance(nxt.get("models"), dict) else {}
    providers = dict(models["providers"]) if isinstance(models.get("providers"), dict) else {}
    google = dict(providers["google"]) if isinstance(providers.get("google"), dict) else {}
    if "apiKey" not in google and api_key:
        google["apiKey"] = api_key
        if not google.get("baseUrl"):
            google["baseUrl"] = DEFAULT_GOOGLE_API_BASE_URL
        if not isinstance(google.get("models"), list):
            google["models"] = []
        providers["google"] = google
        models["providers"] = providers
        nxt = {**nxt, "models": models}
        source = "env.GEMINI_API_KEY" if env_key else "apiKey"
        changes.append(((*where, *source.split(".")), f"Moved skills.entries.{_NANO_BANANA}.{source} → "
                        "models.providers.google.apiKey."))
    rest = {k: v for k, v in entries.items() if k != _NANO_BANANA} if entries is not None else {}
    if rest:
        skills["entries"] = rest
    else:
        skills.pop("entries", None)
    changes.append((where, f"Removed legacy skills.entries.{_NANO_BANANA}."))
    if not skills:
        return {k: v for k, v in nxt.items() if k != "skills"}
    return {**nxt, "skills": skills}


def _secret_ref(value: Any) -> Any:
    """`coerceSecretRef` without defaults: a ref object, a ref without provider, or `${VAR}`."""
    import re

    if isinstance(value, dict):
        source = value.get("source")
        ident = value.get("id")
        if len(value) == 3 and source in SECRET_REF_SOURCES and isinstance(value.get("provider"), str) and \
                js_trim(value["provider"]) and isinstance(ident, str) and js_trim(ident):
            return value
        if source in SECRET_REF_SOURCES and isinstance(ident, str) and js_trim(ident) and "provider" not in value:
            return {"source": source, "provider": "default", "id": ident}
        return None
    if isinstance(value, str):
        match = re.fullmatch(r"\$\{([A-Z][A-Z0-9_]{0,127})\}", js_trim(value))
        if match:
            return {"source": "env", "provider": "default", "id": match.group(1)}
    return None


def _talk_secret(value: Any) -> Any:
    if isinstance(value, str):
        trimmed = js_trim(value)
        return trimmed or MISSING
    found = _secret_ref(value)
    return MISSING if found is None else found


def _talk_section(talk: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if is_bool(talk.get("interruptOnSpeech")):
        out["interruptOnSpeech"] = talk["interruptOnSpeech"]
    silence = talk.get("silenceTimeoutMs")
    if is_number(silence) and is_finite(silence) and float(silence).is_integer() and silence > 0:
        out["silenceTimeoutMs"] = silence
    providers: dict[str, Any] = {}
    raw_providers = record(talk.get("providers"))
    for raw_id, config in (raw_providers or {}).items():
        provider_id = optional_string(raw_id)
        if not provider_id or not isinstance(config, dict):
            continue
        normal: dict[str, Any] = {}
        for key, value in config.items():
            if key == "apiKey":
                secret = _talk_secret(value)
                if secret is not MISSING:
                    normal["apiKey"] = secret
                continue
            normal[key] = value
        if normal:
            providers[provider_id] = {**providers.get(provider_id, {}), **normal}
    provider = optional_string(talk.get("provider"))
    if providers:
        out["providers"] = providers
    if provider:
        out["provider"] = provider
    return out


def talk(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    raw = record(cfg.get("talk"))
    if raw is None:
        return cfg
    normal = _talk_section(raw)
    compat = {k: raw[k] for k in TALK_LEGACY_KEYS if k in raw}
    if compat:
        providers = normal.get("providers", {})
        normal["providers"] = {**providers, "elevenlabs": {**compat, **providers.get("elevenlabs", {})}}
    if not normal or deep_equal(normal, raw):
        return cfg
    changes.append((("talk",), "Normalized talk.provider/providers shape (trimmed provider ids and merged missing "
                    "compatibility fields)."))
    return {**cfg, "talk": normal}


def cross_context(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    tools = record(cfg.get("tools"))
    message = record(tools.get("message")) if tools is not None else None
    if message is None or not is_bool(message.get("allowCrossContextSend")):
        return cfg
    assert tools is not None
    allow = message["allowCrossContextSend"]
    new = {k: v for k, v in message.items() if k != "allowCrossContextSend"}
    where = ("tools", "message", "allowCrossContextSend")
    if allow:
        cross = clone(new["crossContext"]) if isinstance(new.get("crossContext"), dict) else {}
        cross["allowWithinProvider"] = True
        cross["allowAcrossProviders"] = True
        new["crossContext"] = cross
        changes.append((where, "Moved tools.message.allowCrossContextSend → tools.message.crossContext."
                        "allowWithinProvider/allowAcrossProviders (true)."))
    else:
        changes.append((where, "Removed tools.message.allowCrossContextSend=false (default cross-context policy already "
                        "matches canonical settings)."))
    return {**cfg, "tools": {**tools, "message": new}}


def _deepgram(owner: dict[str, Any], prefix: str, path: tuple[str | int, ...], changes: Changes) -> bool:
    compat = clone(owner["deepgram"]) if isinstance(owner.get("deepgram"), dict) else None
    if compat is None:
        return False
    options = {name: compat[key] for key, name in (("detectLanguage", "detect_language"), ("punctuate", "punctuate"),
                                                   ("smartFormat", "smart_format")) if is_bool(compat.get(key))}
    current = clone(owner["providerOptions"]) if isinstance(owner.get("providerOptions"), dict) else {}
    canonical = clone(current["deepgram"]) if isinstance(current.get("deepgram"), dict) else {}
    del owner["deepgram"]
    current["deepgram"] = {**options, **canonical}
    owner["providerOptions"] = current
    if canonical:
        changes.append(((*path, "deepgram"), f"Merged {prefix}.deepgram → {prefix}.providerOptions.deepgram (filled "
                        "missing canonical fields from legacy)."))
    else:
        changes.append(((*path, "deepgram"), f"Moved {prefix}.deepgram → {prefix}.providerOptions.deepgram."))
    return True


def media_provider_options(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    tools = record(cfg.get("tools"))
    media = record(tools.get("media")) if tools is not None else None
    if media is None:
        return cfg
    assert tools is not None
    new = clone(media)
    changed = False

    def models(value: Any, prefix: str, path: tuple[str | int, ...]) -> bool:
        if not isinstance(value, list):
            return False
        moved = False
        for i, entry in enumerate(value):
            if isinstance(entry, dict) and _deepgram(entry, f"{prefix}[{i}]", (*path, i), changes):
                moved = True
        return moved

    for capability in ("audio", "image", "video"):
        config = clone(new[capability]) if isinstance(new.get(capability), dict) else None
        if config is None:
            continue
        path = ("tools", "media", capability)
        moved = _deepgram(config, f"tools.media.{capability}", path, changes)
        moved = models(config.get("models"), f"tools.media.{capability}.models", (*path, "models")) or moved
        if moved:
            new[capability] = config
            changed = True
    if models(new.get("models"), "tools.media.models", ("tools", "media", "models")):
        changed = True
    return {**cfg, "tools": {**tools, "media": new}} if changed else cfg


_MISTRAL_SAFE_MAX_TOKENS = {"devstral-medium-latest": 32768, "magistral-small": 40000, "mistral-large-latest": 16384,
                            "mistral-medium-2508": 8192, "mistral-small-latest": 16384, "pixtral-large-latest": 32768}
_PROVIDER_ALIASES = {"modelstudio": "qwen", "qwencloud": "qwen", "z.ai": "zai", "z-ai": "zai",
                     "opencode-zen": "opencode", "opencode-go-auth": "opencode-go", "kimi": "kimi", "kimi-code": "kimi",
                     "kimi-coding": "kimi", "bedrock": "amazon-bedrock", "aws-bedrock": "amazon-bedrock",
                     "bytedance": "volcengine", "doubao": "volcengine"}


def provider_id(value: str) -> str:
    """`normalizeProviderId`: trimmed, lower case, the gateway's aliases folded."""
    lowered = optional_lower(value) or ""
    return _PROVIDER_ALIASES.get(lowered, lowered)


def mistral_max_tokens(cfg: dict[str, Any], changes: Changes) -> dict[str, Any]:
    models = record(cfg.get("models"))
    providers = record(models.get("providers")) if models is not None else None
    if providers is None:
        return cfg
    assert models is not None
    new_providers = dict(providers)
    changed = False
    for pid, provider in providers.items():
        if provider_id(pid) != "mistral" or not isinstance(provider, dict) or not isinstance(provider.get("models"), list):
            continue
        touched = False
        new_models = []
        for i, model in enumerate(provider["models"]):
            if not isinstance(model, dict):
                new_models.append(model)
                continue
            model_id = optional_string(model.get("id")) or ""
            window = model.get("contextWindow")
            tokens = model.get("maxTokens")
            if not model_id or not (is_number(window) and is_finite(window)) or not (is_number(tokens) and is_finite(tokens)):
                new_models.append(model)
                continue
            clamped = min(tokens, window)
            normal = clamped if clamped < window else min(_MISTRAL_SAFE_MAX_TOKENS.get(model_id, 8192), window)
            if normal == tokens:
                new_models.append(model)
                continue
            touched = True
            changes.append((("models", "providers", pid, "models", i, "maxTokens"), f"Normalized models.providers.{pid}."
                            f"models[{i}].maxTokens ({js_number(tokens)} → {js_number(normal)}) to avoid Mistral "
                            "context-window rejects."))
            new_models.append({**model, "maxTokens": normal})
        if touched:
            new_providers[pid] = {**provider, "models": new_models}
            changed = True
    return {**cfg, "models": {**models, "providers": new_providers}} if changed else cfg
