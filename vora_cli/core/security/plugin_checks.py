"""Plugins an attacker could use, from vora's plugin discovery and each plugin's folder as published
(docs/security.md, "Plugins").
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.paths import is_within
from vora_cli.core.plugins.discovery import ORIGIN_INSTALLED, DiscoveredPlugin
from vora_cli.core.plugins.settings import listed_ids
from vora_cli.core.security.channel_plugin_checks import native_skill_channels
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.shell import command_line
from vora_cli.core.text import js_trim
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

BUILT_IN = ("legacy", "memory-core")
# The gateway's `isPinnedRegistrySpec`: name@x.y.z, an exact semver.
_PINNED = re.compile(r"v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?")
RESTRICTIVE_PROFILES = ("minimal", "coding", "messaging")


def _folder(plugin: DiscoveredPlugin) -> Path:
    where = plugin.where
    assert where is not None  # found on disk (bundled plugins are not among `plugins`)
    return where


def package_json(root: Path) -> dict[str, Any]:
    """The plugin's package.json, or nothing when it is missing, unreadable (the plugin-code check
    says so) or not a JSON object."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    try:
        raw = read_bytes(root / "package.json", 1024 * 1024)
        data = nesting.loads(raw) if raw is not None else None
    except (VoraError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def declared_entries(root: Path) -> tuple[str, ...]:
    """package.json `vora.extensions`, else `openclaw.extensions` (the vora name wins)."""
    package = package_json(root)
    for key in ("vora", "openclaw"):
        section = package.get(key)
        entries = section.get("extensions") if isinstance(section, dict) else None
        if isinstance(entries, list):
            return tuple(e for e in entries if isinstance(e, str) and e.strip())
    return ()


def check_plugins_allowlist(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("plugins-allowlist")
    discovery = install.plugins
    settings = discovery.settings
    found: list[Finding] = []
    installed = [p for p in discovery.plugins if p.origin == ORIGIN_INSTALLED]
    if installed and not (settings and settings.allow):
        names = ", ".join(p.id for p in installed[:5]) + (" …" if len(installed) > 5 else "")
        chats = native_skill_channels(install)
        found.append(finding(CRITICAL if chats else WARN, "installed plugins load without an allow list",
                             f"{plural(len(installed), 'plugin')} in {install.paths.extensions_dir} ({names}) and no "
                             "plugins.allow: any plugin dropped into that folder loads"
                             + (f", and skills are chat commands on {', '.join(chats)}" if chats else ""),
                             command_line("vora", "config", "set", "plugins.allow", json.dumps([p.id for p in installed])),
                             **at(install, "plugins"), gateway=("plugins.extensions_no_allowlist",)))
    known = discovery.present_ids() | set(BUILT_IN)
    allow = settings.raw.get("allow") if settings else None
    allow = allow if isinstance(allow, list) else []
    gone = [i for i, plugin_id in enumerate(allow) if isinstance(plugin_id, str) and js_trim(plugin_id)
            and not discovery.names_present(plugin_id, known)]
    # removing every name would leave no allow list (every plugin loads): never the advice
    emptied = bool(gone) and not listed_ids([v for i, v in enumerate(allow) if i not in gone])
    for i in gone:
        step = (f"name the plugins to allow instead (removing every name would let every plugin load): "
                f"{command_line('vora', 'config', 'edit')}" if emptied
                else f"remove it: vora config unset 'plugins.allow[{i}]'")
        found.append(finding(WARN, "plugins.allow names a plugin that is not installed",
                             f'"{allow[i]}": a plugin that takes this id later is trusted without a review',
                             step, **at(install, "plugins", "allow", i)))
    return check_result("plugins-allowlist", found, "plugins load only from an allow list, or none is installed")


def check_plugin_installs(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("plugin-installs")
    settings = install.plugins.settings
    found: list[Finding] = []
    for plugin_id, record in (settings.installs.items() if settings else ()):
        if record.get("source") != "npm":
            continue
        where = at(install, "plugins", "installs", plugin_id)
        spec = record.get("spec")
        if isinstance(spec, str) and not pinned_spec(spec):
            found.append(finding(WARN, "an npm plugin install is not pinned",
                                 f"{plugin_id}: {spec!r} can resolve to a newer, different package",
                                 f"reinstall an exact version: vora plugins install {spec.rsplit('@', 1)[0]}@<x.y.z>",
                                 **where, gateway=("plugins.installs_unpinned_npm_specs",)))
        integrity = record.get("integrity")
        if not isinstance(integrity, str) or not integrity.strip():
            found.append(finding(WARN, "an npm plugin install has no integrity",
                                 f"{plugin_id}: no integrity hash recorded, so a swapped package goes unnoticed",
                                 command_line("vora", "plugins", "update", plugin_id), **where,
                                 gateway=("plugins.installs_missing_integrity",)))
        recorded = record.get("resolvedVersion") or record.get("version")
        path = record.get("installPath")
        folder = Path(path) if isinstance(path, str) else install.paths.extensions_dir / plugin_id
        actual = package_json(folder).get("version")
        if isinstance(recorded, str) and isinstance(actual, str) and actual != recorded:
            found.append(finding(WARN, "an installed plugin is not the version recorded",
                                 f"{plugin_id}: recorded {recorded}, installed {actual} (changed outside vora)",
                                 command_line("vora", "plugins", "update", plugin_id) + ", or reinstall it", **where,
                                 gateway=("plugins.installs_version_drift",)))
    return check_result("plugin-installs", found, "npm installs are pinned, hashed and as recorded")


def pinned_spec(spec: str) -> bool:
    at = spec.rfind("@")
    return 0 < at < len(spec) - 1 and _PINNED.fullmatch(spec[at + 1:].strip()) is not None


def check_plugin_entries(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("plugin-entries")
    found: list[Finding] = []
    for plugin in install.plugins.plugins:
        root = _folder(plugin)
        if not root.is_dir():
            continue
        real_root = os.path.realpath(root)
        for entry in declared_entries(root):
            target = os.path.realpath(root / entry)
            package = root / "package.json"
            if os.path.isabs(entry) or not is_within(target, real_root):
                found.append(finding(CRITICAL, "a plugin entry escapes its folder",
                                     f"{plugin.id}: {entry!r} resolves to {target}, outside {root}: the gateway would "
                                     "load code nobody reviewed with the plugin", "fix the plugin's package.json, or "
                                     f"remove the plugin: vora plugins uninstall {plugin.id}", file=package,
                                     gateway=("plugins.code_safety.entry_escape",)))
            elif any(part == "node_modules" or (part.startswith(".") and part not in (".", ".."))
                     for part in entry.replace("\\", "/").split("/")):
                found.append(finding(WARN, "a plugin entry hides in node_modules or a dot folder",
                                     f"{plugin.id}: {entry!r}; code scans (the gateway's and vora's) skip such folders",
                                     "review that file by hand", file=package,
                                     gateway=("plugins.code_safety.entry_path",)))
    return check_result("plugin-entries", found, "every plugin entry stays inside its plugin folder")


def check_plugin_code(install: Install) -> CheckResult:
    """One finding per plugin whose code matches a risky pattern: the gateway's scan
    (`core/plugins/code_safety.py`; critical when it says critical) and vora's two own looks, over
    the same files."""
    if install.config is None:
        return skipped("plugin-code")
    from vora_cli.core.gateway.shown import Masker
    from vora_cli.core.plugins.code_safety import plugin_files, scan_files
    from vora_cli.core.security.code_scan import scan_plugin
    from vora_cli.core.security.model import unreadable

    found: list[Finding] = []
    files = 0
    masker = Masker()  # the member rule and the gateway's own patterns, as every printer hides secrets
    for plugin in install.plugins.plugins:
        root = _folder(plugin)
        if not root.exists():
            continue
        folder, read = plugin_files(root, declared_entries(root) if root.is_dir() else ())
        gateway = scan_files(folder, read)
        own = scan_plugin(folder, read)
        files += max(gateway.scanned_files, own.files)
        # the line itself, with any secret-shaped value in it hidden (a plugin can embed a key)
        lines = [f"[{f.rule}] {f.message} ({f.file}:{f.line}: `{masker.code(f.evidence)}`)" for f in gateway.findings]
        lines += [f"[{h.rule}] {h.message} ({h.file}:{h.line})" for h in own.hits]
        found += [unreadable(folder, f"plugin {plugin.id}: {why}") for why in dict.fromkeys(own.unreadable)]
        if not lines:
            continue
        verdict = gateway.verdict
        first = gateway.findings[0] if gateway.findings else None
        place = (gateway.path(first), first.line, None) if first is not None else (
            folder / own.hits[0].file, own.hits[0].line, own.hits[0].col)
        critical = verdict == CRITICAL
        suspicious = len(gateway.warnings) + len(own.hits)
        counts = f"{len(gateway.critical)} critical, {plural(suspicious, 'suspicious pattern')}"
        found.append(finding(
            CRITICAL if critical else WARN,
            f"plugin {plugin.id} has {'dangerous' if critical else 'suspicious'} code",
            f"{counts} in {plural(max(gateway.scanned_files, own.files), 'file')}: " + "; ".join(lines[:12])
            + (f"; and {len(lines) - 12} more" if len(lines) > 12 else ""),
            f"read the code there; if you do not trust it: vora plugins uninstall {plugin.id}",
            file=place[0], line=place[1], col=place[2], gateway=("plugins.code_safety",) if verdict else ()))
    return check_result("plugin-code", found, f"nothing risky in {plural(files, 'plugin file')}")


def _permissive(tools: dict[str, Any], global_tools: dict[str, Any], plugin_ids: set[str]) -> bool:
    """Whether a plugin's tool is reachable in a context: the gateway's probe of its tool policy."""
    profile = tools.get("profile") or global_tools.get("profile")
    if profile in RESTRICTIVE_PROFILES:
        return False
    for policy in (global_tools, tools):
        allow = [*(policy.get("allow") or []), *(policy.get("alsoAllow") or [])]
        deny = policy.get("deny") or []
        if "*" in deny:
            return False
        if allow and not ({"*", "group:plugins"} & set(allow) or plugin_ids & set(allow)):
            return False
    return True


def check_plugin_tools(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("plugin-tools")
    enabled = {p.id for p in install.plugins.plugins if p.origin == ORIGIN_INSTALLED and p.decision.enabled}
    found: list[Finding] = []
    if enabled:
        config = install.runtime
        global_tools = as_dict(config.get("tools"))
        agents = as_dict(config.get("agents"))
        contexts: list[tuple[str, dict[str, Any]]] = [("default", {})]
        for agent in agents.get("list") or []:
            if isinstance(agent, dict) and isinstance(agent.get("id"), str):
                tools = agent.get("tools")
                contexts.append((f"agents.list.{agent['id']}", tools if isinstance(tools, dict) else {}))
        open_ = [name for name, tools in contexts if _permissive(tools, global_tools, enabled)]
        if open_:
            found.append(finding(WARN, "installed plugins' tools are open to every agent",
                                 f"plugins {', '.join(sorted(enabled))} and no restrictive tool policy in: "
                                 f"{', '.join(open_)}", "use tools.profile minimal or coding, or a tools.allow "
                                 "without the plugins' tools, for agents that read untrusted input",
                                 **at(install, "tools"), gateway=("plugins.tools_reachable_permissive_policy",)))
    return check_result("plugin-tools", found, "no installed plugin's tools are reachable under a permissive policy")
