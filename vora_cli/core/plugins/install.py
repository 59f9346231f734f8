"""Installing a plugin: plan, stage, validate, install dependencies, move into place, record.

Spec plugins.md, "Install sources", "-l / --link" and "What install records". The staging
dir lives inside the extensions dir (so the final move is a rename on one filesystem). Any
failure leaves the extensions dir and `vora.json` exactly as they were: the staged copy is
deleted, a kept-aside old copy (`--force`) is put back, and the config is written last, once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.plugins import config_io, copying, slots
from vora_cli.core.plugins.config_io import ConfigEdit, ConfigWrite
from vora_cli.core.plugins.discovery import PluginsSettings, load_path, plugins_settings
from vora_cli.core.plugins.ids import folder_name_for_id, require_installable_id
from vora_cli.core.plugins.manifest import (
    MANIFEST_FILE,
    PACKAGE_FILE,
    PluginSource,
    read_plugin,
)
from vora_cli.core.plugins.records import (
    SlotChange,
    append_edit,
    set_enabled_edit,
    vora_installed_path,
)
from vora_cli.core.plugins.sources import (
    SOURCE_DIR,
    SOURCE_FILE,
    SOURCE_NPM,
    ResolvedSource,
    resolve_source,
)
from vora_cli.core.shell import command_line, shell_quote

if TYPE_CHECKING:
    from vora_cli.core.plugins.archive import ProgressCallback
    from vora_cli.core.plugins.npm import PackResult

# archive and npm are imported where used: `install -l` needs neither (start-up budget).

Progress = Callable[[str], None]

@dataclass(frozen=True)
class InstallPlan:
    """Everything an install does, computed before anything is moved into place."""

    plugin_id: str
    name: str | None
    version: str | None
    kind: tuple[str, ...]
    source_type: str
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.plugin_id, "name": self.name, "version": self.version, "kind": list(self.kind),
            "source": self.record["source"], "spec": self.spec, "link": self.link,
            "installPath": str(self.install_path), "replaces": self.replaces, "record": self.record,
            "slotChanges": [c.to_dict() for c in self.slot_changes], "slotHints": list(self.slot_hints),
            "warnings": list(self.warnings), "dependencies": list(self.dependencies),
        }


@dataclass(frozen=True)
class InstallResult:
    plan: InstallPlan
    config: ConfigWrite
    dry_run: bool
    notes: tuple[str, ...] = field(default_factory=tuple)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def check_policy(settings: PluginsSettings, plugin_id: str, config_path: Path) -> None:
    """Refuse before anything is copied when the config forbids the plugin."""
    if not settings.enabled:
        raise VoraError("refused", f"plugins are disabled in {config_path} (plugins.enabled is false)",
                        "enable plugins first: vora config set plugins.enabled true")
    if plugin_id in settings.deny:
        raise VoraError("refused", f"plugin {plugin_id} is listed in plugins.deny in {config_path}",
                        "remove it from plugins.deny first (vora config edit), then install again")


def check_installable(source: PluginSource) -> None:
    """Refuse an id that would be recorded and then lost (`ids.install_id_problem`), naming where it came from."""
    where = {"manifest": source.manifest_file or MANIFEST_FILE, "package.json": PACKAGE_FILE}.get(
        source.id_from, source.root.name)
    require_installable_id(source.id, where)


def _record_edits(config: dict[str, Any], settings: PluginsSettings, plugin_id: str,
                  record: dict[str, Any]) -> list[ConfigEdit]:
    edits = [set_enabled_edit(plugin_id, True)]
    if settings.allow is not None and plugin_id not in settings.allow:
        edits.append(append_edit(("allow",), plugin_id))
    edits.append(ConfigEdit(("plugins", "installs", plugin_id), record))
    return edits


def _build_plan(*, config: dict[str, Any], settings: PluginsSettings, source: PluginSource, resolved: ResolvedSource,
                record_source: str, install_path: Path, link: bool, replaces: bool, use: bool,
                extra_record: dict[str, Any], extra_edits: list[ConfigEdit], refresh: bool = False) -> InstallPlan:
    record: dict[str, Any] = {"source": record_source, "spec": resolved.spec}
    if resolved.path is not None:
        record["sourcePath"] = str(resolved.path if not link else install_path)
    record["installPath"] = str(install_path)
    if source.version:
        record["version"] = source.version
    record.update(extra_record)
    record["installedAt"] = _now()
    changes: list[SlotChange] = []
    hints: list[str] = []
    slot_warnings: list[str] = []
    if refresh:  # `update`: only the install record changes; enabled state and slots stay as they are
        edits = [ConfigEdit(("plugins", "installs", source.id), record)]
    else:
        slot_edits, changes, hints, slot_warnings = slots.plan_slot_selection(config, source, settings, use)
        edits = [*extra_edits, *_record_edits(config, settings, source.id, record), *slot_edits]
    deps = tuple(f"{k}@{v}" for k, v in (source.package.dependencies if source.package else {}).items())
    return InstallPlan(
        plugin_id=source.id, name=source.name, version=source.version, kind=source.kind,
        source_type=resolved.type, spec=resolved.spec, link=link, install_path=install_path, replaces=replaces,
        record=record, edits=tuple(edits), slot_changes=tuple(changes), slot_hints=tuple(hints),
        warnings=(*source.warnings, *slot_warnings), dependencies=deps,
    )


def install_plugin(
    paths: VoraPaths,
    source: str,
    *,
    link: bool = False,
    force: bool = False,
    use: bool = False,
    dry_run: bool = False,
    progress: Progress | None = None,
    on_extract: ProgressCallback | None = None,
    cwd: Path | None = None,
    prefetched: PackResult | None = None,
    command: str = "plugins install",
    refresh: bool = False,
    link_flag: str = "--link",
) -> InstallResult:
    """Install (or link) the plugin named by `source`. See the module docstring.

    `link_flag` is how the caller spelled the link option (`-l` or `--link`), for the errors.
    """
    if link and force:
        raise VoraError("usage", f"--force cannot be used with {link_flag}",
                        "a link copies nothing, so there is nothing to replace; uninstall the old plugin first")
    say = progress or (lambda _message: None)
    resolved = resolve_source(source, cwd, paths.home)
    # One read: the plan is made on this snapshot; the write re-plans if the file changed meanwhile.
    snapshot = config_io.read_snapshot(paths)
    config = snapshot.value
    settings = plugins_settings(config)
    if link:
        return _link(paths, config, settings, resolved, use=use, dry_run=dry_run, command=command,
                     snapshot=snapshot, link_flag=link_flag)
    return _install_copy(paths, config, settings, resolved, force=force, use=use, dry_run=dry_run, say=say,
                         on_extract=on_extract, prefetched=prefetched, command=command, refresh=refresh, snapshot=snapshot)


def _link(paths: VoraPaths, config: dict[str, Any], settings: PluginsSettings, resolved: ResolvedSource, *,
          use: bool, dry_run: bool, command: str, snapshot: config_io.ConfigSnapshot,
          link_flag: str = "--link") -> InstallResult:
    if resolved.type not in (SOURCE_DIR, SOURCE_FILE) or resolved.path is None:
        raise VoraError("usage", f"{link_flag} needs a local folder or file, not {resolved.spec!r}",
                        f"install archives and npm packages without {link_flag}")
    source = read_plugin(resolved.path, require_entries=False)
    check_installable(source)
    check_policy(settings, source.id, paths.config_path)
    real = Path(os.path.realpath(resolved.path))
    edits: list[ConfigEdit] = []
    already = [spec for spec in settings.load_paths if os.path.realpath(load_path(paths, spec)) == str(real)]
    if not already:
        for spec in settings.load_paths:
            other = load_path(paths, spec)
            try:
                other_id = read_plugin(other, require_entries=False).id if other.exists() else None
            except VoraError:
                other_id = None
            if other_id == source.id:
                raise VoraError("exists", f"plugin {source.id} is already linked from {other}",
                                f"{command_line('vora', 'plugins', 'uninstall', source.id)}, then link again")
        edits.append(append_edit(("load", "paths"), str(real)))
    notes: list[str] = []
    copy = paths.extensions_dir / folder_name_for_id(source.id)
    if copy.exists() and os.path.realpath(copy) != str(real):
        notes.append(f"an installed copy of {source.id} is in {copy}; the link takes precedence over it")
    plan = _build_plan(config=config, settings=settings, source=source, resolved=resolved, record_source="path",
                       install_path=real, link=True, replaces=False, use=use, extra_record={}, extra_edits=edits)
    write = config_io.write_config(paths, plan.edits, command=command, dry_run=dry_run, snapshot=snapshot)
    return InstallResult(plan=plan, config=write, dry_run=dry_run, notes=tuple(notes))


def _precheck(settings: PluginsSettings, source: PluginSource, paths: VoraPaths) -> None:
    check_installable(source)
    check_policy(settings, source.id, paths.config_path)


def _may_replace(paths: VoraPaths, settings: PluginsSettings, plugin_id: str, target: Path, spec: str,
                 force: bool, use: bool) -> None:
    """Replace only what vora itself installed (its install record says so), and only with --force."""
    owned = vora_installed_path(paths, plugin_id, settings)
    if owned is None or os.path.realpath(owned) != os.path.realpath(target):
        raise VoraError("exists", f"plugin already exists: {target}, and vora did not install it (a link's source, "
                        "or put there by hand), so it is never replaced",
                        "move it out of the extensions dir (or uninstall its link), then install again")
    if not force:
        raise VoraError("exists", f"plugin already exists: {target}",
                        f"add --force to replace it "
                        f"({command_line('vora', 'plugins', 'install', spec, *(['--use'] if use else []), '--force')})")


def _refuse_shadowed(paths: VoraPaths, config: dict[str, Any], plugin_id: str) -> None:
    """A copy in the extensions dir that a link or a workspace plugin of the same id hides would be
    recorded and never loaded (spec plugins.md, "Where plugins are found": first seen wins)."""
    from vora_cli.core.plugins.discovery import ORIGIN_LINKED, ORIGIN_WORKSPACE, discover_plugins

    first = discover_plugins(paths, config).find(plugin_id)
    if first is None or first.origin not in (ORIGIN_LINKED, ORIGIN_WORKSPACE):
        return
    where = first.target or first.path
    if first.origin == ORIGIN_LINKED:
        raise VoraError("exists", f"plugin {plugin_id} is linked from {where}; the gateway finds the link first, "
                        "so an installed copy would never load",
                        f"vora plugins uninstall {shell_quote(plugin_id)}, then install again")
    raise VoraError("exists", f"plugin {plugin_id} is in the workspace at {where}; the gateway finds it first, "
                    "so an installed copy would never load",
                    "remove or rename the workspace copy, then install again")


def _stage(paths: VoraPaths, resolved: ResolvedSource, staging: Path, settings: PluginsSettings, say: Progress,
           prefetched: PackResult | None, on_extract: ProgressCallback | None) -> tuple[Path, str, dict[str, Any], str]:
    """Put the plugin into `staging`; return (staged root, record source, extra record fields,
    what errors call the staged root: the source folder, or `archive.tgz:package`)."""
    from vora_cli.core.plugins import archive, npm

    extra: dict[str, Any] = {}
    if resolved.type == SOURCE_DIR:
        assert resolved.path is not None
        # Validate the source before copying anything: a broken plugin or a denied id stops here.
        _precheck(settings, read_plugin(resolved.path), paths)
        say(f"Copying {resolved.path} ...")
        staged = staging / "package"
        copying.copy_tree(resolved.path, staged)
        return staged, "path", extra, str(resolved.path)
    if resolved.type == SOURCE_FILE:
        assert resolved.path is not None
        _precheck(settings, read_plugin(resolved.path), paths)
        (staging / "file").mkdir()
        staged = staging / "file" / resolved.path.name
        copying.copy_file(resolved.path, staged)
        return staged, "path", extra, str(resolved.path)
    archive_path = resolved.path
    record_source = "archive"
    if resolved.type == SOURCE_NPM:
        assert resolved.npm is not None
        pack = prefetched
        if pack is None:
            say(f"Fetching {resolved.spec} with npm pack ...")
            (staging / "pack").mkdir()
            pack = npm.npm_pack(resolved.spec, staging / "pack")
        archive_path = pack.tarball
        record_source = "npm"
        extra = {"resolvedName": pack.name, "resolvedVersion": pack.version}
        if pack.integrity:
            extra["integrity"] = pack.integrity
        if pack.shasum:
            extra["shasum"] = pack.shasum
    assert archive_path is not None
    say(f"Extracting {archive_path.name} ...")
    extracted = staging / "extract"
    extracted.mkdir()
    archive.extract_archive(archive_path, extracted, on_extract)
    root = archive.find_package_root(extracted)
    inner = root.relative_to(extracted).as_posix()
    name = resolved.spec if resolved.type == SOURCE_NPM else archive_path.name
    return root, record_source, extra, f"{name}:{inner}" if inner != "." else name


def _install_copy(paths: VoraPaths, config: dict[str, Any], settings: PluginsSettings, resolved: ResolvedSource, *,
                  force: bool, use: bool, dry_run: bool, say: Progress, on_extract: ProgressCallback | None,
                  prefetched: PackResult | None,
                  command: str, refresh: bool, snapshot: config_io.ConfigSnapshot) -> InstallResult:
    import tempfile

    from vora_cli.core.plugins import npm
    from vora_cli.core.writer import ensure_dir

    check_policy(settings, "", paths.config_path)  # plugins.enabled = false stops before any work
    extensions = paths.extensions_dir
    ensure_dir(extensions)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=extensions))
    aside: Path | None = None
    target: Path | None = None
    moved = False
    try:
        staged, record_source, extra, shown = _stage(paths, resolved, staging, settings, say, prefetched,
                                                     on_extract)
        source = read_plugin(staged, shown_as=shown)
        _precheck(settings, source, paths)
        name = folder_name_for_id(source.id) + (staged.suffix if source.is_file else "")
        target = extensions / name
        if not refresh:
            _refuse_shadowed(paths, config, source.id)
        replaces = target.exists() or target.is_symlink()
        if replaces:
            _may_replace(paths, settings, source.id, target, resolved.spec, force, use)
        plan = _build_plan(config=config, settings=settings, source=source, resolved=resolved,
                           record_source=record_source, install_path=target, link=False, replaces=replaces, use=use,
                           extra_record=extra, extra_edits=[], refresh=refresh)
        if dry_run:
            write = config_io.write_config(paths, plan.edits, command=command, dry_run=True, snapshot=snapshot)
            return InstallResult(plan=plan, config=write, dry_run=True)
        if source.package and source.package.dependencies:
            say(f"Installing {len(source.package.dependencies)} production dependencies with npm ...")
            npm.npm_install_production(staged, shown)
        copying.settle_modes(staged)
        if replaces:
            aside = extensions / f".old-{name}-{staging.name[len('.staging-'):]}"
            os.rename(target, aside)
        os.rename(staged, target)
        moved = True
        # Re-read from the final place so the paths in the result are the installed ones.
        plan = _build_plan(config=config, settings=settings, source=read_plugin(target), resolved=resolved,
                           record_source=record_source, install_path=target, link=False, replaces=replaces,
                           use=use, extra_record=extra, extra_edits=[], refresh=refresh)
        write = config_io.write_config(paths, plan.edits, command=command, dry_run=False, snapshot=snapshot)
    except BaseException:
        if moved and target is not None:
            copying.remove_path(target)
        if aside is not None and target is not None:
            os.rename(aside, target)
            aside = None
        raise
    finally:
        copying.remove_path(staging)
        if aside is not None:
            copying.remove_path(aside)
    return InstallResult(plan=plan, config=write, dry_run=False)
