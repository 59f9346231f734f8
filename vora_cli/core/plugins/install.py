"""Installing a plugin, in one pass: stage it, then read, judge and plan once, then commit.

Spec plugins.md, "Install sources", "-l / --link" and "What install records". Each step is one module,
entered once, in order (docs/architecture.md, "The walk of plugins install"):

1. `sources.resolve_source`: what SOURCE names; `config.loading.load_config`: the config, read once;
2. `staging.stage`: the plugin copied, extracted or fetched into a staging folder inside the
   extensions dir (a link: its own folder), and read there once (`manifest.read_plugin`);
3. `install_rules.judge`: its id, the policy, `compat`, the target, the gateway's code scan;
4. `install_plan.plan_install`: the record and the config edits, judged as the gateway would judge the
   config they leave (a plugin missing required settings is installed disabled);
5. `install_commit.commit`: dependencies, the move into place, one config write; undone on failure.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from vora_cli.core.config.loading import load_config
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import install_commit, install_plan, install_rules, staging
from vora_cli.core.plugins.install_commit import InstallResult
from vora_cli.core.plugins.install_plan import InstallPlan
from vora_cli.core.plugins.sources import resolve_source
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install
    from vora_cli.core.plugins.archive import ProgressCallback
    from vora_cli.core.plugins.install_scan import InstallScan
    from vora_cli.core.plugins.npm import PackResult

__all__ = ["InstallOptions", "InstallPlan", "InstallResult", "Progress", "install_plugin"]

Progress = Callable[[str], None]


@dataclass(frozen=True)
class InstallOptions:
    """How to install: what `vora plugins install` was asked, and what `update` passes.

    `link`: record a local folder (`-l`), copying nothing; `deps`: with `link`, install its
    production dependencies first; `stream_npm`: show npm's progress on stderr; `pin`: record
    the exact `<name>@<version>`; `refresh` (update): keep enabled state and slots;
    `prefetched`: the tarball `update` already fetched.
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
    allow_risky_code: bool = False  # install despite `critical` code patterns (the gateway's forced install)
    # Asked (with the plugin id and the scan) when the scan finds `critical` patterns: True installs anyway.
    confirm_risky: Callable[[str, InstallScan], bool] | None = None

    def say(self, message: str) -> None:
        if self.progress is not None:
            self.progress(message)


    def check(self) -> None:
        """The option combinations that make no sense (usage errors, before any work)."""
        if self.link and self.force:
            raise VoraError("usage", f"--force cannot be used with {self.link_flag}",
                            "a link copies nothing, so there is nothing to replace; uninstall the old plugin first")
        if self.deps and not self.link:
            raise VoraError("usage", "--deps works with --link: a copy install always installs its dependencies",
                            f"vora plugins install {self.link_flag} DIR --deps")


def install_plugin(install: Install, source: str, options: InstallOptions | None = None) -> InstallResult:
    """Install (or link) the plugin named by `source`, in one pass (the module docstring)."""
    options = options or InstallOptions()
    options.check()
    # a dry run too: it stages in <state>/extensions, and says what the real run would
    install.refuse_newer_line_write(f"installing {source}", forced=options.force)
    resolved = resolve_source(source, options.cwd, install.paths.home)
    # One read: the plan is made on this snapshot; the write re-plans if the file changed meanwhile.
    snapshot = load_config(install.paths, install.env)
    staged = staging.stage(install, resolved, snapshot.value, options)
    try:
        judged = install_rules.judge(install, snapshot.value, staged, options)
        plan = install_plan.plan_install(install, snapshot.value, staged, judged, options)
    except BaseException:
        staged.discard()
        raise
    return install_commit.commit(install, snapshot, staged, plan, options)
