"""Slot verification as a chain that names its first broken link, shared by `vora plugins` and `vora doctor`;
and what an install does to the slots its plugin's kind fills (docs/plugins.md, "Slots").
"""

from __future__ import annotations

import re

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.discovery import Discovery
from vora_cli.core.plugins.manifest import PluginSource
from vora_cli.core.plugins.records import SlotChange, slot_edit
from vora_cli.core.plugins.settings import SLOT_DEFAULTS, SLOT_KEYS, PluginsSettings
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line, shell_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.plugins.discovery import DiscoveredPlugin

BUILT_IN = {"contextEngine": ("legacy",), "memory": ("memory-core",)}
# Possessive: the id never ends at a quote other than its own, so giving characters back is wasted work.
_REGISTER_RE = re.compile(r"""registerContextEngine\s*+\(\s*+(['"`])([^'"`]++)\1""")


@dataclass(frozen=True)
class SlotCheck:
    """A slot's value checked link by link: installed, valid, of the right kind, enabled."""
    slot: str
    value: str
    default: str
    built_in: bool
    ok: bool
    plugin_id: str | None
    broken: str | None  # the first link that fails: installed, valid, kind, enabled, entries, dependencies, registers
    message: str
    fix: str | None  # one command to type (never prose)
    action: str = ""  # what to do about it, in words
    alternatives: tuple[str, ...] = ()  # other commands that also mend it ("or: ...")

    def to_dict(self) -> dict[str, Any]:
        return {
            "slot": self.slot, "value": self.value, "default": self.default, "builtIn": self.built_in,
            "ok": self.ok, "plugin": self.plugin_id, "broken": self.broken, "message": self.message, "fix": self.fix,
            "action": self.action or None, "alternatives": list(self.alternatives),
        }


def slot_for_kind(kind: str) -> str:
    return next(slot for slot, slot_kind in SLOT_KEYS.items() if slot_kind == kind)


def registered_engine_ids(text: str) -> tuple[str, ...]:
    return tuple(match.group(2) for match in _REGISTER_RE.finditer(text))


def check_slot(slot: str, discovery: Discovery) -> SlotCheck:
    settings = discovery.settings
    assert settings is not None
    value = settings.slot_value(slot)
    default = SLOT_DEFAULTS[slot]
    reset = command_line("vora", "config", "set", f"plugins.slots.{slot}", default)
    built_in_name = f"the built-in {default}"

    def result(ok: bool, broken: str | None, message: str, fix: str | None, plugin: str | None = value, *,
               action: str = "", alternatives: tuple[str, ...] = ()) -> SlotCheck:
        built_in = plugin is None
        return SlotCheck(slot, value, default, built_in, ok, plugin, broken, message, fix, action, alternatives)

    if value in BUILT_IN[slot] or (slot == "memory" and value.lower() == "none"):
        what = "memory disabled" if value.lower() == "none" else "built in"
        return result(True, None, f"{slot}: {value} ({what})", None, plugin=None)
    plugin = discovery.find(value)
    if plugin is None:
        return result(False, "installed", f"{slot}: {value} is not installed",
                      command_line("vora", "plugins", "install") + " SOURCE",
                      action=f"install {value} (SOURCE: its folder, archive or npm spec), or select {built_in_name}",
                      alternatives=(reset,))
    if plugin.bundled is not None:  # the gateway's own: no files of it to check on vora's side
        return _settled(slot, value, plugin, settings, result, built_in_name, reset)
    if plugin.error is not None or plugin.source is None:
        if plugin.dangling:
            return result(False, "valid", f"{slot}: {value} cannot be loaded: {plugin.error}",
                          command_line("vora", "plugins", "uninstall", value),
                          action=f"point the link at the plugin's folder again, or remove {value}",
                          alternatives=(reset,))
        return result(False, "valid", f"{slot}: {value} cannot be loaded: {plugin.error}",
                      command_line("vora", "plugins", "inspect", value),
                      action=f"see what is wrong with {value}'s manifest, then fix it", alternatives=(reset,))
    settled = _settled(slot, value, plugin, settings, result, built_in_name, reset)
    if not settled.ok:
        return settled
    missing = plugin.source.missing_entries
    if missing:
        return result(False, "entries", f"{slot}: {value} entry file missing: {missing[0].spec}",
                      command_line("npm", "run", "build", "--prefix", str(plugin.source.root)),
                      action=f"build {value} (its entry file is not there yet)")
    from vora_cli.core.plugins.dependencies import missing_dependencies

    unresolved = missing_dependencies(plugin.source)
    if unresolved:
        root = plugin.target or plugin.source.root
        if plugin.origin == "linked":
            fix = command_line("npm", "install", "--omit=dev", "--prefix", str(root))
            alternatives: tuple[str, ...] = (command_line("vora", "plugins", "install", "-l", str(root), "--deps"),)
        else:
            spec = (plugin.install or {}).get("spec") or str(root)
            fix, alternatives = command_line("vora", "plugins", "install", str(spec), "--force"), ()
        return result(False, "dependencies", f"{slot}: {value} cannot load: its dependencies are not installed: "
                      f"{', '.join(unresolved)} (the gateway fails with Cannot find module '{unresolved[0]}')", fix,
                      action=f"install {value}'s dependencies", alternatives=alternatives)
    if slot == "contextEngine":
        registered: list[str] = []
        for entry in plugin.source.entries:
            try:
                code = read_bytes(entry.path)
            except VoraError:
                continue
            if code is not None:
                registered.extend(registered_engine_ids(code.decode("utf-8", "replace")))
        if value not in registered:
            found = ", ".join(repr(r) for r in registered) or "no registerContextEngine call"
            entry_file = plugin.source.entries[0].path if plugin.source.entries else plugin.source.root
            return result(False, "registers",
                          f"{slot}: {value} does not register a context engine {value!r} (found: {found})",
                          f"$EDITOR {shell_quote(entry_file)}",
                          action=f'call api.registerContextEngine("{value}", ...) in {entry_file}')
    return result(True, None, f"{slot}: {value} ({plugin.origin}, {plugin.decision.reason})", None)


def _settled(slot: str, value: str, plugin: DiscoveredPlugin, settings: PluginsSettings,
             result: Callable[..., SlotCheck], built_in_name: str, reset: str) -> SlotCheck:
    """The links every plugin has, bundled or not: its kind, the enable decision, its config."""
    from vora_cli.core.plugins.verdict import config_issues, describe, missing_keys

    kind = SLOT_KEYS[slot]
    if kind not in plugin.kind:
        found = ", ".join(plugin.kind) or "no kind"
        if plugin.source is None:
            return result(False, "kind", f"{slot}: {value} is not a {kind} plugin (its kind: {found})", reset,
                          action=f"select {built_in_name}, or a {kind} plugin")
        manifest = plugin.source.root / (plugin.source.manifest_file or "vora.plugin.json")
        return result(False, "kind", f'{slot}: {value} is not a {kind} plugin (its kind: {found})',
                      f"$EDITOR {shell_quote(manifest)}",
                      action=f'add "kind": "{kind}" to {manifest}, or select {built_in_name}', alternatives=(reset,))
    if not plugin.decision.enabled:
        return result(False, "enabled", f"{slot}: {value} is disabled ({plugin.decision.reason})",
                      command_line("vora", "plugins", "enable", value), action=f"enable {value}")
    issues = config_issues(plugin, settings.entries.get(value, {}).get("config"))
    if issues:
        keys = missing_keys(issues)
        fix = (command_line("vora", "config", "set", f"plugins.entries.{value}.config.{keys[0]}") + " VALUE" if keys
               else command_line("vora", "config", "edit"))
        return result(False, "config", f"{slot}: {value} cannot load: its {describe(issues)}", fix,
                      action=f"set {value}'s settings ({', '.join(keys)})" if keys else f"mend {value}'s settings")
    origin = "bundled with the gateway" if plugin.bundled is not None else plugin.origin
    return result(True, None, f"{slot}: {value} ({origin}, {plugin.decision.reason})", None)


_REGISTERS = r"registerContextEngine\s*+\("


def looks_like_engine(source: PluginSource) -> bool:
    """Whether the plugin's code registers a context engine (the static check of the `registers`
    link): its name proves nothing (`context-compactor` is a command plugin)."""
    for entry in source.entries:
        try:
            code = read_bytes(entry.path) if entry.exists else None
        except VoraError:
            continue
        if code is not None and re.search(_REGISTERS, code.decode("utf-8", "replace")):
            return True
    return False


def plan_slot_selection(config: dict[str, Any], source: PluginSource, settings: PluginsSettings, use: bool) -> tuple[
        list[ConfigEdit], list[SlotChange], list[str], list[str]]:
    """What an install does to the slots its kind fills: select it (`--use`), else hint how."""
    edits: list[ConfigEdit] = []
    changes: list[SlotChange] = []
    hints: list[str] = []
    warnings: list[str] = []
    slots = [slot for slot, kind in SLOT_KEYS.items() if kind in source.kind]
    if not slots:
        if use:
            raise VoraError("refused", f"cannot select {source.id} for a slot: its vora.plugin.json has no \"kind\"",
                            'add "kind": "context-engine" (or "memory") to the manifest')
        if looks_like_engine(source):
            warnings.append(f'{source.id} registers a context engine, but its {source.manifest_file or "manifest"} has '
                            'no "kind": the slot cannot be set automatically')
        return edits, changes, hints, warnings
    for slot in slots:
        current = settings.slot_value(slot)
        if current == source.id:
            continue
        if use:
            edits.append(slot_edit(config, slot, source.id))
            changes.append(SlotChange(slot, current, source.id))
        else:
            command = command_line("vora", "plugins", "use", source.id, *(("--slot", slot) if len(slots) > 1 else ()))
            hints.append(f"plugins.slots.{slot} is {current}; to select {source.id}: {command}")
    return edits, changes, hints, warnings
