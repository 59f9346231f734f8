"""Removing a plugin: every config reference in one write, then its installed folder, only when vora
installed it (`records.vora_installed_path`).
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.config.loading import load_config
from vora_cli.core.config.planning import ConfigEdit
from vora_cli.core.config.writing import apply_config_edits
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import is_within
from vora_cli.core.plugins.bundled import canonical_id
from vora_cli.core.plugins.discovery import ORIGIN_LINKED, discover_plugins, load_path
from vora_cli.core.plugins.records import P, SlotChange, list_at, remove_edits, slot_edit, vora_installed_path
from vora_cli.core.plugins.settings import SLOT_DEFAULTS, listed_ids
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line
from vora_cli.core.wording import closest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.loading import LoadedConfig
    from vora_cli.core.config.writing import ConfigWriteResult
    from vora_cli.core.install import Install


@dataclass(frozen=True)
class UninstallPlan:
    """What `vora plugins uninstall` removes and keeps."""
    plugin_id: str
    references: tuple[str, ...]  # config paths removed, human-readable
    slot_changes: tuple[SlotChange, ...]
    delete_path: Path | None  # the installed folder or file that goes
    kept_paths: tuple[Path, ...]  # what is left alone (a link's source, --keep-files)
    edits: tuple[ConfigEdit, ...]
    notes: tuple[str, ...] = field(default_factory=tuple)
    snapshot: LoadedConfig | None = field(default=None, repr=False, compare=False)  # what was read

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.plugin_id, "references": list(self.references),
            "slotChanges": [c.to_dict() for c in self.slot_changes],
            "delete": str(self.delete_path) if self.delete_path else None,
            "keep": [str(p) for p in self.kept_paths], "notes": list(self.notes),
        }


@dataclass(frozen=True)
class UninstallResult:
    """What `vora plugins uninstall` did (or would do)."""
    plan: UninstallPlan
    config: ConfigWriteResult
    deleted: bool
    dry_run: bool


def _inside(path: Path, folder: Path) -> bool:
    return is_within(os.path.realpath(path), os.path.realpath(folder), strict=True)


def plan_uninstall(install: Install, plugin_id: str, *, keep_files: bool = False) -> UninstallPlan:
    paths = install.paths
    snapshot = load_config(paths, install.env)  # one read: the plan and the write use it
    config = snapshot.value
    discovery = discover_plugins(paths, config)
    settings = discovery.settings
    assert settings is not None
    plugin = discovery.find(plugin_id)
    if plugin is not None and plugin.bundled is not None:
        if plugin_id not in settings.installs:
            raise VoraError("refused", f"{plugin_id} is bundled with the gateway: there is nothing of it to uninstall",
                            f"to turn it off: {command_line('vora', 'plugins', 'disable', plugin_id)}")
        plugin = next((p for p in discovery.plugins if p.id == plugin_id), None)  # a copy vora may have installed
    if plugin is not None:
        plugin_id = plugin.id  # the name as the gateway reads it (`Lobster` is `lobster`)
    known = plugin is not None or plugin_id in settings.installs or plugin_id in settings.entries
    if not known:
        pool = sorted({*discovery.ids, *settings.installs, *settings.entries})
        suggestion = closest(plugin_id, pool)
        raise VoraError("not_found", f"plugin not installed: {plugin_id}",
                        f"did you mean {suggestion!r}?" if suggestion else "run 'vora plugins list'")
    edits: list[ConfigEdit] = []
    refs: list[str] = []
    notes: list[str] = []
    for key in settings.entry_keys(plugin_id):
        edits.append(ConfigEdit((P, "entries", key), delete=True))
        refs.append(f'plugins.entries["{key}"]')
    record = settings.installs.get(plugin_id)
    if record is not None:
        edits.append(ConfigEdit((P, "installs", plugin_id), delete=True))
        refs.append(f'plugins.installs["{plugin_id}"]')

    def names_it(value: object) -> bool:
        return isinstance(value, str) and canonical_id(value) == plugin_id

    for key in ("allow", "deny"):
        current = list_at(config, key) or []
        if key == "allow" and settings.allow and not listed_ids([v for v in current if not names_it(v)]):
            if any(names_it(v) for v in current):
                notes.append(f"plugins.allow still names {plugin_id}: it is the only plugin allowed, and an empty "
                             "allow list lets every plugin load; name the plugins to allow instead "
                             f"({command_line('vora', 'config', 'edit')})")
            continue
        removed = remove_edits(config, (key,), names_it)
        edits.extend(removed)
        if removed:
            refs.append(f"plugins.{key}: {plugin_id}")
    # The link's load path: the configured path of the discovered link, or the recorded install path.
    link_targets: set[str] = set()
    if plugin is not None and plugin.origin == ORIGIN_LINKED and plugin.path is not None:
        link_targets.add(os.path.realpath(plugin.path))
    if record is not None and isinstance(record.get("installPath"), str) and not _inside(
            Path(record["installPath"]), paths.extensions_dir):
        link_targets.add(os.path.realpath(record["installPath"]))
    removed_links = [spec for spec in settings.load_paths if os.path.realpath(load_path(paths, spec)) in link_targets]
    edits.extend(remove_edits(config, ("load", "paths"),
                              lambda value: isinstance(value, str) and value in removed_links))
    refs.extend(f"plugins.load.paths: {spec}" for spec in removed_links)
    changes: list[SlotChange] = []
    for slot in settings.slots_of(plugin_id):
        default = SLOT_DEFAULTS[slot]
        edits.append(slot_edit(config, slot, default))
        changes.append(SlotChange(slot, plugin_id, default))
    # Only the folder vora itself installed goes (its install record says so): never a link's
    # source, a workspace plugin, or a folder someone put into the extensions dir by hand.
    owned = vora_installed_path(paths, plugin_id, settings)
    delete_path: Path | None = None
    if owned is not None and not keep_files and (owned.exists() or owned.is_symlink()):
        delete_path = owned
    kept: list[Path] = []
    candidates: list[Path] = []
    if plugin is not None:
        candidates.extend(other.path for other in (plugin, *discovery.shadowed)
                          if other.id == plugin_id and other.path is not None)
    if record is not None and isinstance(record.get("installPath"), str):
        candidates.append(Path(record["installPath"]))
    for candidate in candidates:
        if candidate == delete_path or candidate in kept or not (candidate.exists() or candidate.is_symlink()):
            continue
        kept.append(candidate)
        if _inside(candidate, paths.extensions_dir) and candidate != owned:
            notes.append(f"{candidate} was not installed by vora (a link's source, or put there by hand), so it "
                         "stays; the gateway still finds it in the extensions dir: move it elsewhere to stop loading it")
    if plugin is not None and plugin.origin == "workspace":
        notes.append(f"{plugin.path} is part of the workspace; vora leaves it in place")
    return UninstallPlan(plugin_id, tuple(refs), tuple(changes), delete_path, tuple(kept), tuple(edits), tuple(notes),
                         snapshot)


def uninstall_plugin(install: Install, plugin_id: str, *, keep_files: bool = False,
                     dry_run: bool = False) -> UninstallResult:
    """Remove every reference in one write, then delete the installed copy (kept aside until then)."""
    import tempfile

    from vora_cli.core import trees

    paths = install.paths
    plan = plan_uninstall(install, plugin_id, keep_files=keep_files)
    install.refuse_newer_line_write(f"uninstalling {plugin_id}")  # a dry run too, as every check of the real run
    if dry_run or plan.delete_path is None:
        write = apply_config_edits(install, plan.edits, command="plugins uninstall", dry_run=dry_run,
                                   snapshot=plan.snapshot)
        return UninstallResult(plan, write, deleted=False, dry_run=dry_run)
    target = plan.delete_path
    holding = Path(tempfile.mkdtemp(prefix=".uninstall-", dir=paths.extensions_dir))
    aside = holding / target.name
    try:
        os.rename(target, aside)  # out of the gateway's sight, and restorable if the write fails
    except OSError as exc:
        os.rmdir(holding)  # nothing half-done stays: the empty holding dir goes, the plugin is where it was
        raise VoraError("io_error", f"cannot move {target} out of the way: {exc.strerror}",
                        "nothing was changed; check the folder's owner and mode, then run the uninstall again") from exc
    try:
        write = apply_config_edits(install, plan.edits, command="plugins uninstall", dry_run=False,
                                   snapshot=plan.snapshot)
    except BaseException:
        os.rename(aside, target)
        trees.remove(holding)
        raise
    trees.remove(holding)
    return UninstallResult(plan, write, deleted=True, dry_run=False)
