"""What an install judges before it changes anything: the policy, the id, `compat`, the target.

Split from `install.py` (the one-pass flow); each rule is asked once per install
(docs/plugins.md, "Install, step by step").
"""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.plugins.discovery import PluginsSettings
from vora_cli.core.plugins.ids import require_installable_id
from vora_cli.core.plugins.manifest import MANIFEST_FILE, PACKAGE_FILE, PluginSource
from vora_cli.core.plugins.records import vora_installed_path
from vora_cli.core.shell import command_line, shell_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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


def check_source(paths: VoraPaths, settings: PluginsSettings, source: PluginSource, gateway_version: str | None) -> None:
    """Everything judged from the plugin itself, once: an id that can be recorded, the policy, and
    its `compat` against the gateway version vora knows."""
    from vora_cli.core.plugins.compat import require_compatible

    check_installable(source)
    check_policy(settings, source.id, paths.config_path)
    require_compatible(source, gateway_version)


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
