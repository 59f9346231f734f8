"""Install, step 2: judge the staged plugin before anything lands: its id, the policy, `compat`, the
target, and the gateway's code scan (docs/plugins.md, "Install, step by step").
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.plugins.ids import folder_name_for_id, require_installable_id
from vora_cli.core.plugins.manifest import MANIFEST_FILE, PACKAGE_FILE, PluginSource
from vora_cli.core.plugins.records import vora_installed_path
from vora_cli.core.plugins.settings import PluginsSettings
from vora_cli.core.records import dataclass
from vora_cli.core.shell import command_line, shell_quote
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.plugins.install import InstallOptions
    from vora_cli.core.plugins.install_scan import InstallScan
    from vora_cli.core.plugins.staging import Staged


@dataclass(frozen=True)
class Judged:
    """What the checks decided: where the plugin lands, whether it replaces a copy, what the scan found,
    and what the operator is told."""
    target: Path  # the folder (or file) in the extensions dir; a link's real folder
    replaces: bool
    scan: InstallScan
    linked_already: bool = False  # a link whose folder `plugins.load.paths` already names
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


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


def judge(install: Install, config: dict[str, Any], staged: Staged, options: InstallOptions) -> Judged:
    """Every check of the staged plugin, once, in order; raises what stops the install."""
    from vora_cli.core.plugins.compat import require_compatible

    paths, source, settings = install.paths, staged.source, staged.settings
    check_installable(source)
    check_policy(settings, source.id, paths.config_path)
    require_compatible(source, options.gateway_version)
    notes: list[str] = []
    linked_already = False
    if options.link:
        target = Path(os.path.realpath(staged.root))
        linked_already = _check_link(paths, settings, source, target)
        copy = paths.extensions_dir / folder_name_for_id(source.id)
        if copy.exists() and os.path.realpath(copy) != str(target):
            notes.append(f"an installed copy of {source.id} is in {copy}; the link takes precedence over it")
        replaces = False
    else:
        target = paths.extensions_dir / (folder_name_for_id(source.id) + (staged.root.suffix if source.is_file else ""))
        if not options.refresh:
            refuse_shadowed(paths, config, source.id)
        replaces = target.exists() or target.is_symlink()
        if replaces:
            may_replace(paths, settings, source.id, target, staged.resolved.spec, options.force, options.use)
    scan, warnings = _scanned(staged, options)
    return Judged(target, replaces, scan, linked_already, tuple(warnings), tuple(notes))


def _check_link(paths: VoraPaths, settings: PluginsSettings, source: PluginSource, real: Path) -> bool:
    """Whether `plugins.load.paths` already names `real`; refuses a second folder linked under the same id."""
    from vora_cli.core.plugins.discovery import load_path
    from vora_cli.core.plugins.manifest import read_plugin

    if any(os.path.realpath(load_path(paths, spec)) == str(real) for spec in settings.load_paths):
        return True
    for spec in settings.load_paths:
        other = load_path(paths, spec)
        try:
            other_id = read_plugin(other, require_entries=False).id if other.exists() else None
        except VoraError:
            other_id = None
        if other_id == source.id:
            raise VoraError("exists", f"plugin {source.id} is already linked from {other}",
                            f"{command_line('vora', 'plugins', 'uninstall', source.id)}, then link again")
    return False


def _scanned(staged: Staged, options: InstallOptions) -> tuple[InstallScan, list[str]]:
    """The gateway's install-time code scan of the staged plugin, and what it means for this install."""
    from vora_cli.core.plugins.install_scan import scan_package

    source = staged.source
    scan = scan_package(staged.root, source.package.extensions if source.package else (), dependencies=not options.link)
    warnings: list[str] = []
    if scan.blocked_dependencies:
        raise refuse_blocked(source.id, scan.blocked_dependencies)
    if scan.critical:
        found = "; ".join(map(str, scan.critical))
        if options.link:
            warnings.append(f"{source.id}: dangerous code patterns: {found}; linked anyway (a link is your own "
                            "folder: an install would stop here)")
        elif options.allow_risky_code or (options.confirm_risky is not None and options.confirm_risky(source.id, scan)):
            warnings.append(f"{source.id}: dangerous code patterns: {found}; installed because you allowed it")
        else:
            again = command_line("vora", "plugins", "install", staged.resolved.spec, "--allow-risky-code")
            raise VoraError("refused", f"{source.id}: dangerous code patterns: {found}; nothing was installed",
                            f"read the code at those lines; to install it anyway: {again}")
    if scan.warnings:
        warnings.append(f"{source.id}: {plural(len(scan.warnings), 'suspicious code pattern')}: "
                        + "; ".join(map(str, scan.warnings)))
    return scan, warnings


def refuse_blocked(plugin_id: str, reasons: tuple[str, ...]) -> VoraError:
    """A dependency the gateway's installer never installs, even when forced."""
    return VoraError("refused", f"{plugin_id}: a dependency the gateway never installs: {'; '.join(reasons)}; "
                     "nothing was installed", "no option installs it: the package pulls in a known malicious dependency")


def may_replace(paths: VoraPaths, settings: PluginsSettings, plugin_id: str, target: Path, spec: str,
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


def refuse_shadowed(paths: VoraPaths, config: dict[str, Any], plugin_id: str) -> None:
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
