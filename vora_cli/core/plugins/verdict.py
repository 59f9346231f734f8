"""A plugin's status as the gateway's load verdict: enabled, disabled with its reason, or error with its problem.

One rule for `plugins list`, `inspect` and doctor; install, `enable` and `use` plan with
`config_issues` so that they never write a config the gateway refuses (docs/plugins.md, "Status is the
gateway's load verdict").
"""

from __future__ import annotations

from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.gateway import GatewayIssue
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.activation import EnableDecision
    from vora_cli.core.plugins.bundled import BundledPlugin
    from vora_cli.core.plugins.discovery import DiscoveredPlugin
    from vora_cli.core.plugins.settings import PluginsSettings

ENABLED, DISABLED, ERROR = "enabled", "disabled", "error"
# A schema made only of these keys, with no `required`, accepts a missing (empty) config: no validator needed.
_PERMISSIVE_KEYS = frozenset(("type", "properties", "additionalProperties", "description", "title", "$schema",
                              "$id", "default", "examples", "patternProperties"))


@dataclass(frozen=True)
class LoadVerdict:
    """What the gateway makes of a plugin: `status` and the one line behind it."""
    status: str  # enabled | disabled | error
    reason: str  # the enable decision's reason
    problem: str | None = None  # with status error: what is wrong

    def to_dict(self) -> dict[str, Any]:
        return {"status": self.status, "reason": self.reason, "problem": self.problem}


def entry_problem(plugin: DiscoveredPlugin) -> str | None:
    """The entry files the plugin's package.json names and that are not there."""
    missing = plugin.source.missing_entries if plugin.source is not None else ()
    if not missing:
        return None
    return (f"entry file not found: {', '.join(e.spec for e in missing)}: the gateway does not find the plugin "
            "(not built yet?)")


def config_schema(plugin: DiscoveredPlugin) -> dict[str, Any] | None:
    if plugin.bundled is not None:
        from vora_cli.core.config.gateway import bundled_plugin_schemas

        return bundled_plugin_schemas().get(plugin.id)
    manifest = plugin.source.manifest if plugin.source is not None else None
    return manifest.config_schema if manifest is not None else None


def _accepts_nothing_set(schema: dict[str, Any]) -> bool:
    kind = schema.get("type", "object")
    # only a schema with nothing nested: one that nests a schema must compile first (a broken one stops the gateway)
    return (schema.keys() <= _PERMISSIVE_KEYS and kind in ("object", ["object"])
            and all(schema.get(key, {}) == {} for key in ("properties", "patternProperties"))
            and isinstance(schema.get("additionalProperties", True), bool))


def config_issues(plugin: DiscoveredPlugin, config: Any) -> list[GatewayIssue]:
    """What the gateway's validator refuses in `config` (the plugin's `plugins.entries.<id>.config`;
    None when unset) under the plugin's `configSchema`; paths are relative to the config."""
    if config is None and plugin.bundled is not None and not plugin.bundled.requires:
        return []  # nothing set and nothing required: the shipped schema need not even be read
    return schema_issues(plugin.id, config_schema(plugin), config, shipped=plugin.bundled is not None,
                         manifest_file=manifest_path(plugin))


def manifest_path(plugin: DiscoveredPlugin) -> str | None:
    """The manifest file `plugin`'s configSchema was read from (None for a bundled plugin)."""
    source = plugin.source
    if source is None or plugin.bundled is not None or source.manifest_file is None:
        return None
    return str(source.root / source.manifest_file)


def schema_problem(plugin: DiscoveredPlugin) -> str | None:
    """What is wrong with `plugin`'s own configSchema when it is not a JSON Schema (the gateway refuses
    to start while it loads the plugin), else None; a bundled plugin's ships with the gateway."""
    schema = config_schema(plugin) if plugin.bundled is None else None
    if schema is None:
        return None
    from vora_cli.core.config.gateway import InvalidSchema, check_schema

    try:
        check_schema(schema)
    except InvalidSchema as exc:
        return f"{exc.what}: not a valid JSON Schema"
    return None


def schema_issues(plugin_id: str, schema: dict[str, Any] | None, config: Any, *, shipped: bool = False,
                  manifest_file: str | None = None) -> list[GatewayIssue]:
    """`config_issues` for a plugin not found yet (the one an install plans): its id and schema
    (`shipped`: one of the gateway's own, whose schema ships with vora). A schema that is not a JSON
    Schema raises `InvalidSchema` naming the plugin and `manifest_file`."""
    if schema is None or (config is None and _accepts_nothing_set(schema)):
        return []
    from vora_cli.core.config.gateway import InvalidSchema, ajv_issues
    from vora_cli.core.records import replace

    prefix = ("plugins", "entries", plugin_id, "config")
    try:
        issues = ajv_issues(schema, {} if config is None else config, prefix, "plugin-schema",
                            "plugins" if shipped else None)
    except InvalidSchema as exc:
        raise exc.named(plugin_id, manifest_file) from None
    return [replace(issue, path=issue.path[len(prefix):]) for issue in issues]


def planned_issues(plugin_id: str, origin: str, kind: tuple[str, ...], schema: dict[str, Any] | None,
                   config: Any, *, bundled: BundledPlugin | None = None,
                   manifest_file: str | None = None) -> tuple[EnableDecision, list[GatewayIssue]]:
    """The gateway's verdict on `plugin_id` in `config` (the whole tree a write would leave): whether
    it would load it and, if so, what its validator would refuse in the plugin's settings (a config
    it refuses, the gateway does not start on)."""
    from vora_cli.core.plugins.activation import decide_enabled
    from vora_cli.core.plugins.settings import plugins_settings

    settings = plugins_settings(config)
    decision = decide_enabled(plugin_id, origin, settings, kind=kind, bundled=bundled)
    if not decision.enabled:
        return decision, []
    entry_config = settings.entries.get(plugin_id, {}).get("config")
    return decision, schema_issues(plugin_id, schema, entry_config, shipped=bundled is not None,
                                   manifest_file=manifest_file)


def settings_commands(plugin_id: str, issues: list[GatewayIssue]) -> str:
    """The command that sets what `issues` say is missing: one key (through stdin when it is a
    secret), or the whole settings object through stdin; `vora config edit` for anything else."""
    from vora_cli.core.secrets import is_secret_path
    from vora_cli.core.shell import command_line

    keys = missing_keys(issues)
    base = f"plugins.entries.{plugin_id}.config"
    if len(keys) == 1 and len(issues) == 1:
        path = f"{base}.{keys[0]}"
        secret = is_secret_path(("plugins", "entries", plugin_id, "config", *keys[0].split(".")))
        return command_line("vora", "config", "set", path) + (" --stdin" if secret else " VALUE")
    if keys and len(keys) == len(issues):
        shown = ", ".join(f'"{key}": …' for key in keys)
        return command_line("vora", "config", "set", base, "--stdin") + f" (the object {{{shown}}})"
    return command_line("vora", "config", "edit")


def missing_keys(issues: list[GatewayIssue]) -> tuple[str, ...]:
    """The dotted paths of the required keys the issues say are missing (`apiKey`, `embedding.model`)."""
    return tuple(".".join(str(p) for p in issue.path) for issue in issues
                 if issue.message.startswith("invalid config: must have required property"))


def describe(issues: list[GatewayIssue]) -> str:
    """The issues as the gateway's loader says them: `invalid config: apiKey: must have required property 'apiKey'`."""
    parts = [f"{'.'.join(str(p) for p in issue.path) or '<root>'}: {issue.message.removeprefix('invalid config: ')}"
             for issue in issues]
    return "invalid config: " + ", ".join(parts)


def refuse_unset_settings(plugin_id: str, issues: list[GatewayIssue], then: str) -> VoraError:
    """The one refusal of a write that would leave the gateway a plugin it loads with settings its
    validator refuses (it would not start): what is missing, the command that sets it, then `then`."""
    from vora_cli.core.errors import VoraError

    return VoraError("refused", f"{plugin_id} needs settings the gateway would refuse to start without "
                     f"({describe(issues)}); nothing was changed",
                     f"set them first: {settings_commands(plugin_id, issues)}, then: {then}")


def load_verdict(plugin: DiscoveredPlugin, settings: PluginsSettings) -> LoadVerdict:
    """The gateway's verdict on `plugin` with the config `settings` come from."""
    reason = plugin.decision.reason
    problem = plugin.error or entry_problem(plugin)
    if problem is not None:
        return LoadVerdict(ERROR, reason, problem)
    if not plugin.decision.enabled:
        return LoadVerdict(DISABLED, reason)
    from vora_cli.core.config.gateway import InvalidSchema

    try:
        issues = config_issues(plugin, settings.entries.get(plugin.id, {}).get("config"))
    except InvalidSchema as exc:  # the gateway would not start: its one line, the plugin's row says it
        return LoadVerdict(ERROR, reason, f"{exc.what}: not a valid JSON Schema ({manifest_path(plugin)})")
    if issues:
        return LoadVerdict(ERROR, reason, describe(issues))
    return LoadVerdict(ENABLED, reason)
