"""`vora plugins update`: re-fetch npm installs, report the version change or drift."""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.config.loading import load_config
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import npm
from vora_cli.core.plugins.install import InstallOptions, Progress, install_plugin
from vora_cli.core.plugins.settings import plugins_settings
from vora_cli.core.records import dataclass, field
from vora_cli.core.wording import closest

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from vora_cli.core.install import Install
    from vora_cli.core.plugins.archive import ProgressCallback
    from vora_cli.core.plugins.install_scan import InstallScan

    RiskyCode = tuple[bool, Callable[[str, InstallScan], bool] | None]


@dataclass(frozen=True)
class UpdateItem:
    """The outcome of `vora plugins update` for one plugin."""
    plugin_id: str
    status: str  # updated, would-update, up-to-date, skipped, failed (--all: the others still run)
    old: str | None = None
    new: str | None = None
    reason: str | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.plugin_id, "status": self.status, "old": self.old, "new": self.new,
                "reason": self.reason, "warnings": list(self.warnings)}

    def __str__(self) -> str:
        if self.status in ("updated", "would-update"):
            verb = "" if self.status == "updated" else " (dry run)"
            return f"{self.plugin_id}: {self.old} -> {self.new}{verb}"
        if self.status == "up-to-date":
            return f"{self.plugin_id}: up to date ({self.old})"
        if self.status == "failed":
            return f"{self.plugin_id}: failed ({self.reason})"
        return f"{self.plugin_id}: skipped ({self.reason})"


_SKIP_REASONS = {
    "path": "installed from a local path; reinstall it with 'vora plugins install PATH --force' (a link needs nothing)",
    "archive": "installed from an archive; install the new archive with --force",
}


def update_plugins(install: Install, plugin_id: str | None, *, all_plugins: bool = False, dry_run: bool = False,
                   progress: Progress | None = None, on_extract: ProgressCallback | None = None,
                   risky: RiskyCode = (False, None)) -> tuple[UpdateItem, ...]:
    """Update one plugin or all npm installs; `risky`: what an install does on dangerous code patterns
    (`InstallOptions.allow_risky_code`, `.confirm_risky`)."""
    if (plugin_id is None) == (not all_plugins):
        raise VoraError("usage", "name one plugin or pass --all", "vora plugins update my-engine  |  vora plugins update --all")
    install.refuse_newer_line_write(f"updating {plugin_id or 'every plugin'}")  # a dry run too
    settings = plugins_settings(load_config(install.paths, install.env).value)
    if plugin_id is not None:
        if plugin_id not in settings.installs:
            suggestion = closest(plugin_id, settings.installs)
            raise VoraError("not_found", f"no install record for plugin {plugin_id}",
                            f"did you mean {suggestion!r}?" if suggestion else "run 'vora plugins list'")
        ids = [plugin_id]
    else:
        ids = list(settings.installs)
    items: list[UpdateItem] = []
    for pid in ids:
        record = settings.installs[pid]
        source = record.get("source")
        if source != "npm":
            reason = _SKIP_REASONS.get(str(source), f"unknown install source {source!r}")
            items.append(UpdateItem(pid, "skipped", reason=reason))
            continue
        spec = record.get("spec")
        if not isinstance(spec, str):
            items.append(UpdateItem(pid, "skipped", reason="the install record has no npm spec"))
            continue
        old = record.get("resolvedVersion") or record.get("version")
        try:
            items.append(_update_one(install, pid, record, spec, old, dry_run=dry_run, progress=progress,
                                     on_extract=on_extract, risky=risky))
        except VoraError as error:
            if plugin_id is not None:
                raise  # one plugin named: its error is the command's
            # --all: one plugin's npm failure does not hide what happened to the others
            items.append(UpdateItem(pid, "failed", old=None if old is None else str(old),
                                    reason=error.message + (f" ({error.hint})" if error.hint else "")))
    return tuple(items)


def _update_one(install: Install, pid: str, record: dict[str, Any], spec: str, old: Any, *, dry_run: bool,
                progress: Progress | None, on_extract: ProgressCallback | None, risky: RiskyCode) -> UpdateItem:
    """Fetch `spec` and install it when its version differs from the recorded one."""
    import tempfile

    from vora_cli.core import trees
    from vora_cli.core.writer import ensure_dir

    ensure_dir(install.paths.extensions_dir)
    holding = Path(tempfile.mkdtemp(prefix=".update-", dir=install.paths.extensions_dir))
    try:
        if progress:
            progress(f"Fetching {spec} with npm pack ...")
        pack = npm.npm_pack(spec, holding)
        if pack.version == old:
            warnings: list[str] = []
            old_integrity = record.get("integrity")
            if old_integrity and pack.integrity and old_integrity != pack.integrity:
                warnings.append(f"{pid} {old}: the registry's integrity {pack.integrity} differs from the "
                                f"recorded {old_integrity}; the installed copy was left as it is")
            return UpdateItem(pid, "up-to-date", old=str(old), new=pack.version, warnings=tuple(warnings))
        if not dry_run:
            install_plugin(install, spec, InstallOptions(force=True, prefetched=pack, command="plugins update",
                                                       refresh=True, progress=progress, on_extract=on_extract,
                                                       allow_risky_code=risky[0], confirm_risky=risky[1]))
        return UpdateItem(pid, "would-update" if dry_run else "updated", old=str(old), new=pack.version)
    finally:
        trees.remove(holding)
