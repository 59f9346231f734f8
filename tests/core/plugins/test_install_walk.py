"""`plugins install` in one pass: stage, then read, judge and plan once, then commit (docs/architecture.md).

The walk is what `core/plugins/install.py` hands the work to: every call made from its own code into
another module of vora, in order (consecutive calls into one module are one stop). Each step's module is
entered once, in the documented order, for every kind of source, a link and a dry run alike.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from install_support import make_install
from plugins_support import make_plugin, tar_of, write_config

from vora_cli.core.plugins.install import InstallOptions, install_plugin

ORCHESTRATOR = "vora_cli.core.plugins.install"
WALK = ["plugins.sources", "config.loading", "plugins.staging", "plugins.install_rules", "plugins.install_plan",
        "plugins.install_commit"]


def walk_of(run: Callable[[], Any]) -> list[str]:
    stops: list[str] = []

    def profile(frame: FrameType, event: str, _arg: object) -> None:
        if event != "call" or frame.f_code.co_name == "<module>":
            return
        caller = frame.f_back
        module = frame.f_globals.get("__name__", "")
        if caller is None or caller.f_globals.get("__name__") != ORCHESTRATOR or module == ORCHESTRATOR:
            return
        if module == "vora_cli.core.records":  # making a record (records' shared `__init__`): data, no step
            return
        if module.startswith("vora_cli.") and (not stops or stops[-1] != module):
            stops.append(module)

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return [stop.removeprefix("vora_cli.core.") for stop in stops]


@pytest.mark.parametrize("kind", ["folder", "archive", "file", "link", "dry-run"])
def test_each_step_is_entered_once_in_order(kind: str, tmp_path: Path, state_dir: Path) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "my-engine")
    source = {"archive": lambda: str(tar_of(plugin, tmp_path / "my-engine.tgz")),
              "file": lambda: str(plugin / "dist" / "index.js")}.get(kind, lambda: str(plugin))()
    options = InstallOptions(link=kind == "link", dry_run=kind == "dry-run")
    install = make_install(state_dir)
    assert install.paths.state_dir == state_dir  # resolved before the walk: the install value's, not the walk's
    # an install (a dry run too) first asks the install value whether it may write (a newer gateway line)
    assert walk_of(lambda: install_plugin(install, source, options)) == ["install", *WALK]


def test_a_step_that_stops_the_install_ends_the_walk_there(tmp_path: Path, state_dir: Path) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "my-engine")
    (plugin / "dist" / "index.js").write_text("export default { register() { eval('1') } };\n")
    install = make_install(state_dir)
    assert install.paths.state_dir == state_dir
    stops: list[list[str]] = []

    def run() -> None:
        try:
            install_plugin(install, str(plugin))
        except Exception as error:  # the scan's refusal
            stops.append([type(error).__name__])

    assert walk_of(run) == ["install", *WALK[:4], "plugins.staging"]  # judged, then only the staging folder removed
    assert stops == [["VoraError"]]
    assert not (state_dir / "extensions").exists()
