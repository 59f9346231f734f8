"""What `list` and `inspect` show, as data (the JSON shape is this shape)."""

from __future__ import annotations

from vora_cli.core.plugins.compat import CompatVerdict, check_compat
from vora_cli.core.plugins.dependencies import missing_dependencies
from vora_cli.core.plugins.discovery import DiscoveredPlugin, Discovery, require_plugin
from vora_cli.core.plugins.settings import plugins_settings
from vora_cli.core.plugins.slots import SlotCheck, check_slot, slot_for_kind
from vora_cli.core.plugins.verdict import ENABLED, LoadVerdict, load_verdict
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


def plugin_summary(plugin: DiscoveredPlugin, verdict: LoadVerdict) -> dict[str, Any]:
    """One plugin as a row of `list` (and the head of `inspect`): its status is the gateway's load
    verdict (`verdict.load_verdict`), the same rule doctor reports by."""
    source = plugin.source
    return {
        "id": plugin.id,
        "name": source.name if source else plugin.bundled.name if plugin.bundled else None,
        "kind": list(plugin.kind),
        "status": verdict.status,
        "enabled": verdict.status == ENABLED,
        "reason": verdict.reason,
        "origin": plugin.origin,
        "version": plugin.version,
        "path": str(plugin.path) if plugin.path else None,
        "target": str(plugin.target) if plugin.target else None,
        "dangling": plugin.dangling,
        "slots": list(plugin.slots),
        "problem": verdict.problem,  # not "error": a success document never has that key (docs/exit-codes-and-json.md)
        # which names it was read by: {"manifest": "openclaw.plugin.json", "package": "openclaw"} (None: unread)
        "names": source.names if source else None,
    }


@dataclass(frozen=True)
class PluginReport:
    """A discovered plugin with its slot checks, problems and compatibility."""
    plugin: DiscoveredPlugin
    verdict: LoadVerdict
    slot_checks: tuple[SlotCheck, ...]  # the slots this plugin owns or could fill
    problems: tuple[str, ...]
    missing_dependencies: tuple[str, ...] = ()
    compat: CompatVerdict = field(default_factory=lambda: CompatVerdict("none"))
    gateway_version: str | None = None

    def to_dict(self) -> dict[str, Any]:
        from vora_cli.core.secrets import redact  # by the JSON output only, not `plugins list`'s table

        plugin = self.plugin
        source = plugin.source
        manifest = source.manifest if source else None
        package = source.package if source else None
        return {
            **plugin_summary(plugin, self.verdict),
            "bundled": plugin.bundled.to_dict() if plugin.bundled else None,
            "manifest": manifest.raw if manifest else None,
            "idFrom": source.id_from if source else None,
            "package": {
                "name": package.name, "version": package.version, "dependencies": package.dependencies,
                "extensions": list(package.extensions), "compat": package.compat.to_dict(),
            } if package else None,
            "missingDependencies": list(self.missing_dependencies),
            "compat": {"status": self.compat.status, "message": self.compat.message,
                       "gatewayVersion": self.gateway_version},
            "entries": [{"spec": e.spec, "path": str(e.path), "exists": e.exists} for e in source.entries]
            if source else [],
            # the install record is config (`plugins.installs.<id>`): one secret rule for all of it
            "install": redact(plugin.install, ("plugins", "installs", plugin.id)),
            "decision": {"enabled": plugin.decision.enabled, "reason": plugin.decision.reason},
            "slotChecks": [c.to_dict() for c in self.slot_checks],
            "problems": list(self.problems),
        }


def list_plugins(install: Install) -> Discovery:
    """`vora plugins list`: every plugin the gateway would find with the effective config."""
    install.require_config()
    return install.plugins


def plugin_rows(discovery: Discovery, *, enabled_only: bool = False) -> list[dict[str, Any]]:
    """`plugins list`'s rows: the plugins found and the bundled ones the config names, each with the
    gateway's load verdict (`enabled_only`: those it loads)."""
    settings = discovery.settings or plugins_settings({})
    rows = [plugin_summary(plugin, load_verdict(plugin, settings)) for plugin in discovery.listed]
    return [row for row in rows if row["status"] == ENABLED] if enabled_only else rows


def shadowed_rows(discovery: Discovery) -> list[dict[str, Any]]:
    settings = discovery.settings or plugins_settings({})
    return [plugin_summary(plugin, load_verdict(plugin, settings)) for plugin in discovery.shadowed]


def inspect_plugin(install: Install, plugin_id: str, gateway_version: str | None = None) -> PluginReport:
    """`vora plugins inspect`: everything vora knows of one plugin; `gateway_version` is the one its
    `compat` is checked against (None: unknown)."""
    discovery = list_plugins(install)
    plugin = require_plugin(discovery, plugin_id)
    verdict = load_verdict(plugin, discovery.settings or plugins_settings({}))
    problems: list[str] = []
    if verdict.problem:
        problems.append(verdict.problem)
    missing: tuple[str, ...] = ()
    compat = CompatVerdict("none")
    if plugin.source is not None:
        # the missing entry file is the verdict's problem already
        problems.extend(w for w in plugin.source.warnings if verdict.problem is None or "entry file not found" not in w)
        missing = missing_dependencies(plugin.source)
        if missing:
            problems.append(f"dependencies not installed (they do not resolve from its entry files): {', '.join(missing)}")
        compat = check_compat(plugin.source, gateway_version)
        if compat.status in ("unknown", "out-of-range") and compat.message:
            problems.append(compat.message)
    if plugin.install is None and plugin.origin not in ("workspace", "bundled"):
        problems.append("no install record in plugins.installs (installed by hand?)")
    slots = {slot_for_kind(kind) for kind in plugin.kind} | set(plugin.slots)
    checks = tuple(check_slot(slot, discovery) for slot in sorted(slots))
    problems.extend(c.message for c in checks if not c.ok and c.value == plugin_id)
    return PluginReport(plugin=plugin, verdict=verdict, slot_checks=checks, problems=tuple(problems),
                        missing_dependencies=missing,
                        compat=compat, gateway_version=gateway_version)
