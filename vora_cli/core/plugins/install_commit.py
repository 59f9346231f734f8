"""Install, step 4: commit the plan: dependencies, then the move into place, then one config write.

Any failure leaves the extensions dir and `vora.json` exactly as they were (docs/plugins.md,
"Install, step by step").
"""

from __future__ import annotations

import os

from vora_cli.core import trees
from vora_cli.core.config.writing import apply_config_edits
from vora_cli.core.plugins import copying
from vora_cli.core.records import dataclass, field
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

    from vora_cli.core.config.loading import LoadedConfig
    from vora_cli.core.config.writing import ConfigWriteResult
    from vora_cli.core.install import Install
    from vora_cli.core.plugins.install import InstallOptions
    from vora_cli.core.plugins.install_plan import InstallPlan
    from vora_cli.core.plugins.staging import Staged


@dataclass(frozen=True)
class InstallResult:
    """What `vora plugins install` did (or would do)."""
    plan: InstallPlan
    config: ConfigWriteResult
    dry_run: bool
    notes: tuple[str, ...] = field(default_factory=tuple)


def commit(install: Install, snapshot: LoadedConfig, staged: Staged, plan: InstallPlan,
           options: InstallOptions) -> InstallResult:
    """Carry out `plan`; the staging folder is removed whatever happens."""
    landed = False
    try:
        if options.dry_run:
            write = apply_config_edits(install, plan.edits, command=options.command, dry_run=True,
                                       snapshot=snapshot)
            return InstallResult(plan=plan, config=write, dry_run=True)
        notes = _dependencies(staged, plan, options)
        if plan.link:
            write = apply_config_edits(install, plan.edits, command=options.command, dry_run=False,
                                       snapshot=snapshot)
        else:
            write, left = _move_and_write(install, snapshot, staged, plan, options)
            notes.extend(left)
        landed = True
        return InstallResult(plan=plan, config=write, dry_run=False, notes=tuple(notes))
    finally:
        staged.discard(landed)


def _dependencies(staged: Staged, plan: InstallPlan, options: InstallOptions) -> list[str]:
    """Install the production dependencies (a copy always; a link with `--deps`), then judge what npm brought."""
    source = staged.source
    wanted = source.package.dependencies if source.package else {}
    if not wanted or (plan.link and not options.deps):
        return []
    from vora_cli.core.plugins import npm

    options.say(f"Installing {plural(len(wanted), 'production dependency')} with npm"
                + (f" in {staged.root} ..." if plan.link else " ..."))
    if plan.link:
        npm.npm_install_production(staged.root, stream=options.stream_npm, lockfile=True)
        return []
    npm.npm_install_production(staged.root, staged.shown)
    from vora_cli.core.plugins.dependencies import missing_dependencies
    from vora_cli.core.plugins.install_rules import refuse_blocked
    from vora_cli.core.plugins.install_scan import blocked_dependencies

    blocked = blocked_dependencies(staged.root)
    if blocked:
        raise refuse_blocked(source.id, blocked)
    missing = missing_dependencies(source)
    if missing:
        return [f"{source.id}: after npm install these dependencies still do not resolve from its entry files: "
                f"{', '.join(missing)}; the gateway will fail to load it"]
    return []


def _move_and_write(install: Install, snapshot: LoadedConfig, staged: Staged, plan: InstallPlan,
                    options: InstallOptions) -> tuple[ConfigWriteResult, list[str]]:
    """Settle modes, keep an old copy aside, rename the staged copy into place, write the config; undo on failure.
    Also a warning when the old copy could not all be removed: the install itself is done."""
    from vora_cli.core.writer import new_owner

    target = plan.install_path
    copying.settle_modes(staged.root, new_owner(target.parent))  # as root: the extensions dir's owner
    aside: Path | None = None
    moved = False
    try:
        if plan.replaces:
            assert staged.area is not None
            aside = target.parent / f".old-{target.name}-{staged.area.name[len('.staging-'):]}"
            os.rename(target, aside)
        os.rename(staged.root, target)
        moved = True
        write = apply_config_edits(install, plan.edits, command=options.command, dry_run=False, snapshot=snapshot)
    except BaseException:
        if moved:
            trees.remove(target)
        if aside is not None:
            os.rename(aside, target)
            aside = None
        raise
    finally:
        if aside is not None and not trees.remove(aside):
            left = [f"{plan.install_path.name}: the old copy could not all be removed; delete {aside} by hand"]
        else:
            left = []
    return write, left
