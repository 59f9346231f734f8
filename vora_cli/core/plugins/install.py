"""Installing a plugin: plan, stage, validate, install dependencies, move into place, record.

Spec plugins.md, "Install sources", "-l / --link" and "What install records". The staging
dir lives inside the extensions dir (so the final move is a rename on one filesystem). Any
failure leaves the extensions dir and `vora.json` exactly as they were: the staged copy is
deleted, a kept-aside old copy (`--force`) is put back, and the config is written last, once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from vora_cli.core.clock import iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import config_io, copying, slots
from vora_cli.core.plugins.config_io import ConfigEdit
from vora_cli.core.plugins.discovery import PluginsSettings, load_path, plugins_settings
from vora_cli.core.plugins.ids import folder_name_for_id
from vora_cli.core.plugins.install_rules import check_policy, check_source, may_replace, refuse_shadowed
from vora_cli.core.plugins.manifest import (
    PluginSource,
    read_plugin,
)
from vora_cli.core.plugins.records import (
    SlotChange,
    append_edit,
    set_enabled_edit,
)
from vora_cli.core.plugins.sources import (
    SOURCE_DIR,
    SOURCE_FILE,
    SOURCE_NPM,
    ResolvedSource,
    resolve_source,
)
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.plugins.archive import ProgressCallback
    from vora_cli.core.plugins.config_io import ConfigWrite
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
    """What `vora plugins install` did (or would do)."""
    plan: InstallPlan
    config: ConfigWrite
    dry_run: bool
    notes: tuple[str, ...] = field(default_factory=tuple)


def _now(install: Install) -> str:
    """ISO time of the run's "now" (`Install.now_ms`: `VORA_NOW_MS` pins it), as the gateway records
    `installedAt` (`new Date().toISOString()`: milliseconds, `Z`)."""
    return iso_utc(install.now_ms)


@dataclass(frozen=True)
class InstallOptions:
    """How to install: what `vora plugins install` was asked, and what `update` passes for a refresh.

    `link`: record a local folder (`-l`), copying nothing; `deps`: with `link`, install its
    production dependencies in place first (`npm install --omit=dev --ignore-scripts`);
    `stream_npm`: show npm's own progress (on stderr) while it works; `pin`: record an npm install's
    exact `<name>@<version>` as its spec; `refresh` (update): keep the enabled state and slots, and
    `prefetched` is the tarball `update` already fetched.
    """

    link: bool = False
    force: bool = False
    use: bool = False
    dry_run: bool = False
    pin: bool = False
    deps: bool = False
    stream_npm: bool = False
    progress: Progress | None = None
    on_extract: ProgressCallback | None = None
    cwd: Path | None = None
    command: str = "plugins install"
    link_flag: str = "--link"
    refresh: bool = False
    prefetched: PackResult | None = None
    gateway_version: str | None = None  # the gateway version `compat` is checked against (None: unknown)

    def say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)


def _record_edits(config: dict[str, Any], settings: PluginsSettings, plugin_id: str,
                  record: dict[str, Any]) -> list[ConfigEdit]:
    edits = [set_enabled_edit(plugin_id, True)]
    if settings.allow is not None and plugin_id not in settings.allow:
        edits.append(append_edit(("allow",), plugin_id))
    edits.append(ConfigEdit(("plugins", "installs", plugin_id), record))
    return edits


def _build_plan(*, installed_at: str, config: dict[str, Any], settings: PluginsSettings, source: PluginSource, resolved: ResolvedSource,
                record_source: str, install_path: Path, link: bool, replaces: bool, options: InstallOptions,
                extra_record: dict[str, Any], extra_edits: list[ConfigEdit]) -> InstallPlan:
    """The install record, in the gateway's field order (its `buildNpmInstallRecordFields`), and
    the config edits that write it. `--pin` records an npm install's exact `<name>@<version>`."""
    use, refresh = options.use, options.refresh
    spec = resolved.spec
    if options.pin and extra_record.get("resolvedSpec"):
        spec = extra_record["resolvedSpec"]
    record: dict[str, Any] = {"source": record_source, "spec": spec}
    if resolved.path is not None:
        record["sourcePath"] = str(resolved.path if not link else install_path)
    record["installPath"] = str(install_path)
    if source.version:
        record["version"] = source.version
    record.update(extra_record)
    record["installedAt"] = installed_at
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
        source_type=resolved.type, spec=spec, link=link, install_path=install_path, replaces=replaces,
        record=record, edits=tuple(edits), slot_changes=tuple(changes), slot_hints=tuple(hints),
        warnings=(*source.warnings, *slot_warnings), dependencies=deps,
    )


def install_plugin(install: Install, source: str, options: InstallOptions | None = None) -> InstallResult:
    """Install (or link) the plugin named by `source`, in one pass: stage it, then read, validate
    and plan once, then commit (move into place, one config write). See the module docstring."""
    options = options or InstallOptions()
    if options.link and options.force:
        raise VoraError("usage", f"--force cannot be used with {options.link_flag}",
                        "a link copies nothing, so there is nothing to replace; uninstall the old plugin first")
    if options.deps and not options.link:
        raise VoraError("usage", "--deps works with --link: a copy install always installs its dependencies",
                        f"vora plugins install {options.link_flag} DIR --deps")
    if not options.dry_run:
        install.refuse_newer_line_write(f"installing {source}", forced=options.force)
    resolved = resolve_source(source, options.cwd, install.paths.home)
    # One read: the plan is made on this snapshot; the write re-plans if the file changed meanwhile.
    snapshot = config_io.read_snapshot(install)
    settings = plugins_settings(snapshot.value)
    if options.link:
        return _link(install, snapshot, settings, resolved, options)
    return _install_copy(install, snapshot, settings, resolved, options)


def _link(install: Install, snapshot: config_io.ConfigSnapshot, settings: PluginsSettings, resolved: ResolvedSource,
          options: InstallOptions) -> InstallResult:
    paths = install.paths
    link_flag = options.link_flag
    config = snapshot.value
    if resolved.type not in (SOURCE_DIR, SOURCE_FILE) or resolved.path is None:
        raise VoraError("usage", f"{link_flag} needs a local folder or file, not {resolved.spec!r}",
                        f"install archives and npm packages without {link_flag}")
    source = read_plugin(resolved.path, require_entries=False)
    check_source(paths, settings, source, options.gateway_version)
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
    if options.deps and not options.dry_run and source.package and source.package.dependencies:
        from vora_cli.core.plugins import npm

        options.say(f"Installing {len(source.package.dependencies)} production dependencies with npm in {real} ...")
        npm.npm_install_production(real, stream=options.stream_npm, lockfile=True)
    plan = _build_plan(installed_at=_now(install), config=config, settings=settings, source=source, resolved=resolved, record_source="path",
                       install_path=real, link=True, replaces=False, options=options, extra_record={},
                       extra_edits=edits)
    write = config_io.write_config(install, plan.edits, command=options.command, dry_run=options.dry_run,
                                   snapshot=snapshot)
    return InstallResult(plan=plan, config=write, dry_run=options.dry_run, notes=tuple(notes))


@dataclass(frozen=True)
class _Staged:
    """A plugin put into the staging dir and read there, once."""

    root: Path  # the staged copy (a folder, or a single script file)
    source: PluginSource  # read from `root`
    record_source: str  # path, archive or npm
    extra: dict[str, Any]  # the npm fields of the record


def _stage(install: Install, settings: PluginsSettings, resolved: ResolvedSource, staging: Path,
           options: InstallOptions) -> _Staged:
    """Put the plugin into `staging` and read it there once. A folder or a file is read (and
    judged) at its source first, so a broken or denied plugin stops before anything is copied."""
    from vora_cli.core.plugins import archive, npm

    paths = install.paths
    if resolved.type in (SOURCE_DIR, SOURCE_FILE):
        assert resolved.path is not None
        source = read_plugin(resolved.path)
        check_source(paths, settings, source, options.gateway_version)
        if resolved.type == SOURCE_DIR:
            options.say(f"Copying {resolved.path} ...")
            staged = staging / "package"
            copying.copy_tree(resolved.path, staged)
        else:
            (staging / "file").mkdir()
            staged = staging / "file" / resolved.path.name
            copying.copy_file(resolved.path, staged)
        return _Staged(staged, source.moved_to(staged), "path", {})
    archive_path = resolved.path
    record_source = "archive"
    extra: dict[str, Any] = {}
    if resolved.type == SOURCE_NPM:
        assert resolved.npm is not None
        pack = options.prefetched
        if pack is None:
            options.say(f"Fetching {resolved.spec} with npm pack ...")
            (staging / "pack").mkdir()
            pack = npm.npm_pack(resolved.spec, staging / "pack")
        npm.verify_tarball(pack)
        archive_path = pack.tarball
        record_source = "npm"
        extra = npm.record_fields(pack, _now(install))
    assert archive_path is not None
    options.say(f"Extracting {archive_path.name} ...")
    extracted = staging / "extract"
    extracted.mkdir()
    archive.extract_archive(archive_path, extracted, options.on_extract)
    root = archive.find_package_root(extracted)
    inner = root.relative_to(extracted).as_posix()
    name = resolved.spec if resolved.type == SOURCE_NPM else archive_path.name
    source = read_plugin(root, shown_as=f"{name}:{inner}" if inner != "." else name)
    check_source(paths, settings, source, options.gateway_version)
    return _Staged(root, source, record_source, extra)


def _install_copy(install: Install, snapshot: config_io.ConfigSnapshot, settings: PluginsSettings,
                  resolved: ResolvedSource, options: InstallOptions) -> InstallResult:
    import tempfile

    from vora_cli.core.plugins import npm
    from vora_cli.core.plugins.dependencies import missing_dependencies
    from vora_cli.core.writer import ensure_dir

    paths = install.paths
    config = snapshot.value
    check_policy(settings, "", paths.config_path)  # plugins.enabled = false stops before any work
    extensions = paths.extensions_dir
    made_extensions = not os.path.lexists(extensions)  # removed again unless an install lands in it
    ensure_dir(extensions)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=extensions))
    aside: Path | None = None
    target: Path | None = None
    moved = False
    landed = False
    try:
        staged = _stage(install, settings, resolved, staging, options)
        source = staged.source
        name = folder_name_for_id(source.id) + (staged.root.suffix if source.is_file else "")
        target = extensions / name
        if not options.refresh:
            refuse_shadowed(paths, config, source.id)
        replaces = target.exists() or target.is_symlink()
        if replaces:
            may_replace(paths, settings, source.id, target, resolved.spec, options.force, options.use)
        # The plan, once: the record names the final place, which is known before the move.
        plan = _build_plan(installed_at=_now(install), config=config, settings=settings, source=source, resolved=resolved,
                           record_source=staged.record_source, install_path=target, link=False, replaces=replaces,
                           options=options, extra_record=staged.extra, extra_edits=[])
        if options.dry_run:
            write = config_io.write_config(install, plan.edits, command=options.command, dry_run=True, snapshot=snapshot)
            return InstallResult(plan=plan, config=write, dry_run=True)
        notes: list[str] = []
        if source.package and source.package.dependencies:
            options.say(f"Installing {len(source.package.dependencies)} production dependencies with npm ...")
            npm.npm_install_production(staged.root, _shown(resolved))
            missing = missing_dependencies(staged.source)
            if missing:
                notes.append(f"{source.id}: after npm install these dependencies still do not resolve from its entry "
                             f"files: {', '.join(missing)}; the gateway will fail to load it")
        copying.settle_modes(staged.root)
        if replaces:
            aside = extensions / f".old-{name}-{staging.name[len('.staging-'):]}"
            os.rename(target, aside)
        os.rename(staged.root, target)
        moved = True
        write = config_io.write_config(install, plan.edits, command=options.command, dry_run=False, snapshot=snapshot)
        landed = True
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
        if made_extensions and not landed:
            _remove_if_empty(extensions)
    return InstallResult(plan=plan, config=write, dry_run=False, notes=tuple(notes))


def _shown(resolved: ResolvedSource) -> str:
    return resolved.spec if resolved.type == SOURCE_NPM or resolved.path is None else str(resolved.path)


def _remove_if_empty(folder: Path) -> None:
    """A failed (or dry-run) install leaves no new, empty extensions dir behind (issue 19)."""
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty, or already gone: nothing of ours to take away
