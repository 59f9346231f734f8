"""Install, step 3: plan, once, everything the install writes: the record, the config edits, the slots.

The plan is judged as the gateway would judge the config it leaves; a plugin missing required settings
is installed disabled (docs/plugins.md, "Settings the gateway requires").
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.plugins.records import SlotChange, append_edit, applied, set_enabled_edit
from vora_cli.core.plugins.sources import SOURCE_DIR
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.install import Install
    from vora_cli.core.plugins.install import InstallOptions
    from vora_cli.core.plugins.install_rules import Judged
    from vora_cli.core.plugins.install_scan import InstallScan
    from vora_cli.core.plugins.staging import Staged


@dataclass(frozen=True)
class InstallPlan:
    """Everything an install does, computed before anything is moved into place."""

    plugin_id: str
    name: str | None
    version: str | None
    kind: tuple[str, ...]
    spec: str
    link: bool
    install_path: Path
    replaces: bool
    record: dict[str, Any]
    edits: tuple[ConfigEdit, ...]
    slot_changes: tuple[SlotChange, ...]
    slot_hints: tuple[str, ...]
    warnings: tuple[str, ...]
    dependencies: tuple[str, ...]
    package_name: str | None = None
    needs_settings: tuple[str, ...] = ()  # required settings it is installed disabled for
    notes: tuple[str, ...] = ()
    scan: InstallScan | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.plugin_id, "name": self.name, "version": self.version, "kind": list(self.kind),
            "source": self.record["source"], "spec": self.spec, "link": self.link,
            "installPath": str(self.install_path), "replaces": self.replaces, "record": self.record,
            "slotChanges": [c.to_dict() for c in self.slot_changes], "slotHints": list(self.slot_hints),
            "warnings": list(self.warnings), "dependencies": list(self.dependencies),
            "packageName": self.package_name, "needsSettings": list(self.needs_settings), "notes": list(self.notes),
            "scan": self.scan.to_dict() if self.scan is not None else None,
        }


def plan_install(install: Install, config: dict[str, Any], staged: Staged, judged: Judged,
                 options: InstallOptions) -> InstallPlan:
    """The record and the edits that write it, judged as the gateway would judge the config they leave."""
    from vora_cli.core.clock import iso_utc
    from vora_cli.core.plugins import slots
    from vora_cli.core.plugins.verdict import describe, missing_keys, planned_issues, settings_commands
    from vora_cli.core.shell import command_line

    source, settings, resolved = staged.source, staged.settings, staged.resolved
    spec = str(staged.extra.get("resolvedSpec") or resolved.spec) if options.pin else resolved.spec
    record: dict[str, Any] = {"source": staged.record_source, "spec": spec}
    if resolved.path is not None:
        record["sourcePath"] = str(judged.target if options.link else resolved.path)
    record["installPath"] = str(judged.target)
    if source.version:
        record["version"] = source.version
    record.update(staged.extra)
    record["installedAt"] = iso_utc(install.now_ms)
    warnings: list[str] = [*source.warnings, *judged.warnings]
    notes = list(judged.notes)
    changes: list[SlotChange] = []
    hints: list[str] = []
    schema = source.manifest.config_schema if source.manifest else None
    if schema is not None:  # one the gateway cannot compile stops it whenever the plugin loads: never installed
        from vora_cli.core.config.gateway import InvalidSchema, check_schema

        try:
            check_schema(schema)
        except InvalidSchema as exc:
            shown = source.manifest_file  # in the folder given, else as the package or archive names it
            if shown and resolved.type == SOURCE_DIR and resolved.path is not None:
                shown = str(resolved.path / shown)
            raise exc.named(source.id, shown) from None
    origin = "linked" if options.link else "installed"
    if options.refresh:  # `update`: only the install record changes; enabled state and slots are kept
        edits: list[ConfigEdit] = [_edit(("plugins", "installs", source.id), record)]
        _decision, issues = planned_issues(source.id, origin, source.kind, schema, applied(config, edits))
        if issues:
            from vora_cli.core.plugins.verdict import refuse_unset_settings

            raise refuse_unset_settings(source.id, issues, command_line("vora", "plugins", "update", source.id))
    else:
        edits = []
        if options.link and not judged.linked_already:
            edits.append(append_edit(("load", "paths"), str(judged.target)))
        edits.append(set_enabled_edit(source.id, True))
        if settings.allow is not None and source.id not in settings.allow:
            edits.append(append_edit(("allow",), source.id))
        edits.append(_edit(("plugins", "installs", source.id), record))
        slot_edits, changes, hints, slot_warnings = slots.plan_slot_selection(config, source, settings, options.use)
        warnings.extend(slot_warnings)
        _decision, issues = planned_issues(source.id, origin, source.kind, schema, applied(config, [*edits, *slot_edits]))
        if issues:  # installed disabled: the gateway would not start with it on and these settings missing
            edits = [set_enabled_edit(source.id, False) if e == set_enabled_edit(source.id, True) else e for e in edits]
            then = command_line("vora", "plugins", "use" if changes else "enable", source.id)
            warnings.append(f"{source.id} is installed disabled: the gateway would refuse to start with it on "
                            f"({describe(issues)}); set them: {settings_commands(source.id, issues)}, then: {then}")
            changes, hints = [], []
        else:
            edits.extend(slot_edits)
    package_name = source.package.name if source.package else None
    if package_name and package_name != source.id and not any("npm package name" in w for w in warnings):
        notes.append(f"its plugin id is {source.id} (the npm package is {package_name}): the config and "
                     "vora plugins name it by the id")
    deps = tuple(f"{k}@{v}" for k, v in (source.package.dependencies if source.package else {}).items())
    return InstallPlan(
        plugin_id=source.id, name=source.name, version=source.version, kind=source.kind,
        spec=spec, link=options.link, install_path=judged.target, replaces=judged.replaces, record=record,
        edits=tuple(edits), slot_changes=tuple(changes), slot_hints=tuple(hints), warnings=tuple(warnings),
        dependencies=deps, package_name=package_name, needs_settings=missing_keys(issues) if issues else (),
        notes=tuple(notes), scan=judged.scan)


def _edit(path: tuple[str, ...], value: Any) -> ConfigEdit:
    from vora_cli.core.config.planning import ConfigEdit

    return ConfigEdit(path, value)
