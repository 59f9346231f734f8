"""Install, step 1: stage the plugin where it can be read, and read it there once.

Everything after reads the staged copy, which is what lands (docs/plugins.md, "Install, step by step").
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core import trees
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import copying
from vora_cli.core.plugins.manifest import PluginSource, read_plugin
from vora_cli.core.plugins.settings import PluginsSettings, plugins_settings
from vora_cli.core.plugins.sources import SOURCE_DIR, SOURCE_FILE, SOURCE_NPM, ResolvedSource
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.plugins.install import InstallOptions


@dataclass(frozen=True)
class Staged:
    """A plugin put where it can be read, read there once, and the config's plugin settings it meets."""

    root: Path  # the staged copy (a folder, or a single script file), or a link's own folder
    source: PluginSource  # read from `root`
    record_source: str  # path, archive or npm: what the install record says
    extra: dict[str, Any]  # the npm fields of the record
    resolved: ResolvedSource
    settings: PluginsSettings  # the config's `plugins`, typed, from the snapshot the install plans on
    area: Path | None = None  # the staging folder (None for a link), removed when the install ends
    made_extensions: bool = False  # the extensions dir did not exist before: removed again unless one lands

    @property
    def shown(self) -> str:
        """What errors call the source: the spec, or the path the operator gave."""
        resolved = self.resolved
        return resolved.spec if resolved.type == SOURCE_NPM or resolved.path is None else str(resolved.path)

    def discard(self, landed: bool = False) -> None:
        """Remove the staging folder, and an extensions dir this install made when nothing landed in it."""
        if self.area is not None:
            _clear(self.area, self.made_extensions and not landed)


def _clear(area: Path, extensions_too: bool) -> None:
    trees.remove(area)
    if extensions_too:  # a failed (or dry-run) install leaves no new, empty extensions dir behind
        try:
            area.parent.rmdir()
        except OSError:
            pass  # not empty, or already gone: nothing of ours to take away


def stage(install: Install, resolved: ResolvedSource, config: dict[str, Any], options: InstallOptions) -> Staged:
    """Stage the plugin `resolved` names and read it once (a link: read it where it is)."""
    from vora_cli.core.plugins.install_rules import check_policy

    settings = plugins_settings(config)
    if options.link:
        if resolved.type not in (SOURCE_DIR, SOURCE_FILE) or resolved.path is None:
            raise VoraError("usage", f"{options.link_flag} needs a local folder or file, not {resolved.spec!r}",
                            f"install archives and npm packages without {options.link_flag}")
        source = read_plugin(resolved.path, require_entries=False)
        return Staged(resolved.path, source, "path", {}, resolved, settings)
    check_policy(settings, "", install.paths.config_path)  # plugins.enabled = false stops before any work
    if resolved.type == SOURCE_DIR and resolved.path is not None:
        _refuse_holding_state(resolved.path, install)
    import tempfile

    from vora_cli.core.writer import ensure_dir

    extensions = install.paths.extensions_dir
    made = not os.path.lexists(extensions)
    ensure_dir(extensions)
    area = Path(tempfile.mkdtemp(prefix=".staging-", dir=extensions))
    try:
        root, record_source, extra, shown_as = _put(install, resolved, area, options)
        source = read_plugin(root, shown_as=shown_as)
    except BaseException:
        _clear(area, made)
        raise
    return Staged(root, source, record_source, extra, resolved, settings, area, made)


def _refuse_holding_state(source: Path, install: Install) -> None:
    """A folder holding the state dir would be copied into its own staging folder, again and again (and
    would carry the config and credentials into a plugin): refused before anything is copied."""
    held = os.path.realpath(source)
    for what, folder in (("extensions dir", install.paths.extensions_dir), ("state dir", install.paths.state_dir)):
        real = os.path.realpath(folder)
        if os.path.commonpath([held, real]) == held:
            raise VoraError("refused", f"the source folder {source} contains vora's {what} {folder}: a plugin folder "
                            "cannot hold the state dir", "give the plugin's own folder (the one with its "
                            "vora.plugin.json)")


def _put(install: Install, resolved: ResolvedSource, area: Path,
         options: InstallOptions) -> tuple[Path, str, dict[str, Any], str]:
    """Copy, extract or fetch into `area`: the package root, the record's source, its npm fields, and
    what errors call the plugin (never the staging path)."""
    if resolved.type in (SOURCE_DIR, SOURCE_FILE):
        assert resolved.path is not None
        options.say(f"Copying {resolved.path} ...")
        if resolved.type == SOURCE_DIR:
            copying.copy_tree(resolved.path, area / "package")
            return area / "package", "path", {}, str(resolved.path)
        (area / "file").mkdir()
        copying.copy_file(resolved.path, area / "file" / resolved.path.name)
        return area / "file" / resolved.path.name, "path", {}, str(resolved.path)
    from vora_cli.core.clock import iso_utc
    from vora_cli.core.plugins import archive, npm

    archive_path = resolved.path
    record_source, extra = "archive", {}
    if resolved.type == SOURCE_NPM:
        pack = options.prefetched
        if pack is None:
            options.say(f"Fetching {resolved.spec} with npm pack ...")
            (area / "pack").mkdir()
            pack = npm.npm_pack(resolved.spec, area / "pack")
        npm.verify_tarball(pack)
        archive_path, record_source, extra = pack.tarball, "npm", npm.record_fields(pack, iso_utc(install.now_ms))
    assert archive_path is not None
    options.say(f"Extracting {archive_path.name} ...")
    extracted = area / "extract"
    extracted.mkdir()
    archive.extract_archive(archive_path, extracted, options.on_extract)
    root = archive.find_package_root(extracted)
    inner = root.relative_to(extracted).as_posix()
    name = resolved.spec if resolved.type == SOURCE_NPM else archive_path.name
    return root, record_source, extra, f"{name}:{inner}" if inner != "." else name
