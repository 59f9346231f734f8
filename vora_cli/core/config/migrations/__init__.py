"""The gateway's own migrations of legacy config keys, applied before it validates (openclaw 2026.4.12):
vora judges the migrated tree and reports each change; the file is never rewritten here
(docs/config.md, "Legacy keys the gateway migrates").
"""

from __future__ import annotations

from vora_cli.core.config.migrations import channel_access, channels, normalize, runtime, setup
from vora_cli.core.config.migrations.base import Changes, Path, clone, dotted, record
from vora_cli.core.records import dataclass, field
from vora_cli.core.text import utf16_sort_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class LegacyKey:
    """One migration the gateway makes as it reads the config: the legacy key (where it is in the
    effective config) and the gateway's own words for the change."""

    path: Path
    message: str


@dataclass(frozen=True)
class Migrated:
    """The config as the gateway validates it, the config it was made from (`source`: what a check
    compares it with) and the migrations that made it (none: `tree` is `source` itself)."""

    tree: Any
    source: Any = field(repr=False, compare=False)
    changes: tuple[LegacyKey, ...] = ()


def _channel_ids(tree: dict[str, Any]) -> list[str]:
    found = record(tree.get("channels"))
    return sorted((k for k in found if k != "defaults"), key=utf16_sort_key) if found is not None else []


def _first_pass(tree: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """`applyLegacyDoctorMigrations`: the legacy migrations, then the channel plugins' contracts."""
    for step in (channels.thread_bindings, channels.streaming_keys, channels.allow_aliases,
                 channels.googlechat_stream_mode, *runtime.AFTER_CHANNELS):
        tree = step(tree, changes)
    configured = set(_channel_ids(tree))
    for plugin, contract in channel_access.PLUGIN_CONTRACTS.items():  # in the registry's (plugin id) order
        if plugin in configured:
            tree = contract(tree, changes)
    return tree


def _second_pass(tree: dict[str, Any], changes: Changes) -> dict[str, Any]:
    """`normalizeCompatibilityConfigValues`."""
    tree = normalize.seed_default_accounts(tree, changes)
    tree = normalize.browser(tree, changes)
    for migrate in setup.SETUP_MIGRATIONS.values():
        tree = migrate(tree, changes)
    for step in (runtime.web_search_config, runtime.web_fetch_config, runtime.x_search, normalize.nano_banana_skill,
                 normalize.talk, normalize.cross_context, normalize.media_provider_options,
                 normalize.mistral_max_tokens):
        tree = step(tree, changes)
    for channel_id in _channel_ids(tree):
        doctor = channel_access.CHANNEL_DOCTORS.get(channel_id)
        if doctor is not None:
            tree = doctor(tree, changes)
    return tree


def doctor_fixed(done: Migrated) -> Any:
    """The config as the gateway's own `doctor --fix` writes it (`loadAndMaybeMigrateDoctorConfig`):
    one read's migrations and normalisations, then the normalisations once more. Never a second
    read's migrations (`bind: "0.0.0.0"` becomes "lan", whose origins seed is that later read's),
    and no write for the origins' seed alone (each start seeds them from its own port). `done` is
    the config's `migrate_legacy`; the config itself when there is nothing to rewrite."""
    tree, migrated = done.source, done.tree
    if migrated is tree or not isinstance(migrated, dict) or \
            all(change.message.startswith(_SEEDED) for change in done.changes):
        return tree
    changes: Changes = []
    again = _second_pass(_working_copy(migrated), changes)
    return again if changes and not _skipped_only(changes) else migrated


_SEEDED = "Seeded gateway.controlUi.allowedOrigins "


def _skipped_only(changes: Changes) -> bool:
    # The gateway compares the result with the config (`isDeepStrictEqual`): only its two
    # "Skipped …" notes leave a config as it was, so that is what is asked, not a deep compare.
    return all(message.startswith("Skipped ") for _path, message in changes)


def migrate_legacy(tree: Any) -> Migrated:
    """The config as the gateway validates it, and each migration it made (in its order)."""
    if not isinstance(tree, dict) or not tree:
        return Migrated(tree, tree)
    changes: Changes = []
    migrated = _second_pass(_first_pass(_working_copy(tree), changes), changes)
    if not changes or _skipped_only(changes):
        return Migrated(tree, tree)
    return Migrated(migrated, tree, tuple(LegacyKey(path, message) for path, message in changes))


# The top-level members the migrations read: every other one (the bindings, keys the gateway does
# not know) is shared with the config, never changed. A test holds this to the names their code spells.
_ROOTS = frozenset(("agents", "audio", "browser", "channels", "cli", "discovery", "env", "gateway", "heartbeat",
                    "media", "memorySearch", "messages", "models", "plugins", "session", "skills", "talk", "tools",
                    "web"))
# Plugin entries a migration changes in place (voice-call's TTS, the web search and fetch plugins);
# the others, the agents without a legacy sandbox key and the install records are shared with the
# config, never changed: most of a large config, not copied.
_ENTRIES_CHANGED_IN_PLACE = frozenset(("voice-call", "brave", "firecrawl", "xai"))


def _working_copy(tree: dict[str, Any]) -> dict[str, Any]:
    """What the migrations may change in place: a copy of the config but for what none of them
    changes in place (see above)."""
    from vora_cli.core.config.migrations.facts import web_search

    touched = _ENTRIES_CHANGED_IN_PLACE | frozenset(web_search()["owners"].values())
    work = dict(tree)  # in the config's order; what no migration reads stays the config's own
    for key in [k for k in _ROOTS if k in tree]:
        value = tree[key]
        if key == "agents" and isinstance(value, dict):
            agents = {k: (clone(v) if k != "list" else v) for k, v in value.items()}
            if isinstance(value.get("list"), list):
                agents["list"] = [clone(a) if isinstance(a, dict) and isinstance(a.get("sandbox"), dict)
                                  and "perSession" in a["sandbox"] else a for a in value["list"]]
            work[key] = agents
        elif key == "plugins" and isinstance(value, dict):
            plugins = {k: (clone(v) if k not in ("entries", "installs") else v) for k, v in value.items()}
            if isinstance(value.get("entries"), dict):
                plugins["entries"] = {k: (clone(v) if k in touched else v) for k, v in value["entries"].items()}
            work[key] = plugins
        else:
            work[key] = clone(value)
    return work


# -- what stays legacy after the migrations: refused with the gateway's message -------------------------

_MEMORY_SEARCH = ('top-level memorySearch was moved; use agents.defaults.memorySearch instead. Run "openclaw doctor '
                  '--fix".')
_HEARTBEAT = ("top-level heartbeat is not a valid config path; use agents.defaults.heartbeat (cadence/target/model "
              "settings) or channels.defaults.heartbeat (showOk/showAlerts/useIndicator).")
_TTS = ("{where}.<provider> keys (openai/elevenlabs/microsoft/edge) are legacy; use {where}.providers.<provider>. "
        'Run "openclaw doctor --fix".')
_TTS_KEYS = ("openai", "elevenlabs", "microsoft", "edge")


def _has_tts_keys(value: Any) -> bool:
    return isinstance(value, dict) and any(k in value for k in _TTS_KEYS)


def _per_session(value: Any) -> bool:
    return isinstance(value, dict) and "perSession" in value


def legacy_issues(tree: dict[str, Any]) -> list[tuple[Path, str]]:
    """The legacy rules (`findLegacyConfigIssues`) a migrated config can still break, in the
    gateway's order: (the path it names, its message). Any of them refuses the config before its
    schema is looked at."""
    found: list[tuple[Path, str]] = []
    agents = record(tree.get("agents"))
    defaults = record(agents.get("defaults")) if agents is not None else None
    if defaults is not None and _per_session(defaults.get("sandbox")):
        found.append((("agents", "defaults", "sandbox"), "agents.defaults.sandbox.perSession is legacy; use "
                      'agents.defaults.sandbox.scope instead. Run "openclaw doctor --fix".'))
    agent_list = agents.get("list") if agents is not None else None
    if isinstance(agent_list, list) and any(isinstance(a, dict) and _per_session(a.get("sandbox")) for a in agent_list):
        found.append((("agents", "list"), "agents.list[].sandbox.perSession is legacy; use agents.list[].sandbox.scope "
                      'instead. Run "openclaw doctor --fix".'))
    if "memorySearch" in tree:
        found.append((("memorySearch",), _MEMORY_SEARCH))
    if "heartbeat" in tree:
        found.append((("heartbeat",), _HEARTBEAT))
    messages = record(tree.get("messages"))
    if messages is not None and _has_tts_keys(messages.get("tts")):
        found.append((("messages", "tts"), _TTS.format(where="messages.tts")))
    plugins = record(tree.get("plugins"))
    entries = record(plugins.get("entries")) if plugins is not None else None
    voice = record(entries.get("voice-call")) if entries is not None else None
    config = record(voice.get("config")) if voice is not None else None
    if config is not None and _has_tts_keys(config.get("tts")):
        found.append((("plugins", "entries"), _TTS.format(where="plugins.entries.voice-call.config.tts")))
    channel_map = record(tree.get("channels")) or {}
    rules: list[tuple[Path, str]] = []
    discord = record(channel_map.get("discord"))
    if discord is not None:
        voice_tts = record(discord.get("voice"))
        if voice_tts is not None and _has_tts_keys(voice_tts.get("tts")):
            rules.append((("channels", "discord", "voice", "tts"), _TTS.format(where="channels.discord.voice.tts")))
        accounts = record(discord.get("accounts")) or {}
        if any(isinstance(a, dict) and isinstance(a.get("voice"), dict) and _has_tts_keys(a["voice"].get("tts"))
               for a in accounts.values()):
            rules.append((("channels", "discord", "accounts"), _TTS.format(where="channels.discord.accounts.<id>.voice.tts")))
    telegram = record(channel_map.get("telegram"))
    if telegram is not None and "groupMentionsOnly" in telegram:
        rules.append((("channels", "telegram", "groupMentionsOnly"), 'channels.telegram.groupMentionsOnly was removed; '
                      'use channels.telegram.groups."*".requireMention instead. Run "openclaw doctor --fix".'))
    # A configured channel's rules come twice: its plugin's own list, then again among the plugins'
    # rules for the config's ids (`findLegacyConfigIssues`'s extra rules), so each is said twice.
    found.extend(rules)
    found.extend(rules)
    return found


__all__ = ["LegacyKey", "Migrated", "doctor_fixed", "dotted", "legacy_issues", "migrate_legacy"]
