"""Shared fixtures: every test runs isolated from the real home and the real environment."""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import settings as hypothesis_settings

# No per-example deadline for property tests: on a loaded 2-core machine one example can take
# longer than hypothesis's 200 ms default, which fails a correct test as flaky. Work is bounded by
# max_examples; no test bounds wall-clock time (tests/test_no_wall_clock_bounds.py). The examples
# are the same on every run (`derandomize`): a run that passed passes again, and a new edge case is
# looked for on purpose (HYPOTHESIS_PROFILE=explore), not met by chance in CI.
hypothesis_settings.register_profile("vora", deadline=None, derandomize=True)
hypothesis_settings.register_profile("explore", deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "vora"))

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

# A suite started where Ctrl-C is ignored (a script's background job, `… &`) would hand that on to
# every vora it runs, and the tests of what Ctrl-C does would hang or pass for nothing: a terminal's
# Ctrl-C is what they are about. (Python keeps an inherited SIG_IGN; a handler does not survive exec.)
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# An unmarked test over the CPU bar fails the run (tests/support/slow_check.py, docs/testing.md).
pytest_plugins = ["slow_check"]


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package's bytecode once, before any worker starts: the suite runs the real `vora`
    in thousands of processes, and where PYTHONDONTWRITEBYTECODE is set (CI images set it) each of
    them would otherwise compile every module it imports from source again. Python reads bytecode
    whatever that variable says; it is checked against the source, so a stale file is never used."""
    if not hasattr(config, "workerinput"):  # the xdist controller, or a serial run
        import compileall

        compileall.compile_dir(REPO / "vora_cli", quiet=1)


@pytest.fixture(autouse=True)
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh home per test; no inherited VORA_* variable; plain, fixed-width output."""
    for name in list(os.environ):
        # XDG_*: vora's own files (settings, cache, completion scripts) resolve under the test's home
        if name.startswith(("VORA_", "XDG_", "BASH_COMPLETION_")) or name in ("ZDOTDIR", "PAGER", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR"):
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("VORA_HOME", str(home))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "120")
    # Temp files (config edit copies kept after a failed edit, npm packs) stay in the test's dir.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp))
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    return home


@pytest.fixture
def home(isolated_env: Path) -> Path:
    return isolated_env


@pytest.fixture
def state_dir(home: Path) -> Path:
    """The default state dir of the isolated home (`~/.vora`), created 0700."""
    path = home / ".vora"
    path.mkdir(mode=0o700)
    return path


@pytest.fixture
def settings_path(home: Path) -> Path:
    """Where vora reads its settings in the isolated home (`~/.config/vora/settings.toml`); nothing made."""
    return home / ".config" / "vora" / "settings.toml"


@pytest.fixture
def settings_file(settings_path: Path) -> Path:
    """The settings file's path with its folder made, for a test that writes the file itself."""
    settings_path.parent.mkdir(parents=True, exist_ok=True)
    return settings_path


@pytest.fixture
def pinned_clock(monkeypatch: pytest.MonkeyPatch) -> int:
    """The run's clock pinned at `devices_support.NOW` (VORA_NOW_MS): ages and stamps come out the same
    every run. A file whose every test needs it says `pytestmark = pytest.mark.usefixtures("pinned_clock")`."""
    from devices_support import NOW

    monkeypatch.setenv("VORA_NOW_MS", str(NOW))
    return NOW


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> Any:
        return json.loads(self.stdout)


@functools.cache
def vora_command() -> click.Command:
    """The click command typer builds from the app, built once per process: typer's test runner
    rebuilds it on every invocation (6 ms of the 7 an in-process `vora config file` costs, 15 s
    of CPU over the suite). The commands it runs are the same function objects either way."""
    from vora_cli.cli.app import root_command

    return root_command()


@pytest.fixture
def vora() -> Callable[..., Run]:
    """Run the real `vora` app in-process: vora("config", "file", "--json")."""
    runner = CliRunner(mix_stderr=False)
    command = vora_command()

    def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Run:
        result = runner.invoke(command, list(args), input=input, env=env, catch_exceptions=False)
        return Run(result.exit_code, result.stdout, result.stderr)

    return run


@pytest.fixture
def vora_process() -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run `python -m vora_cli` as a real process (for the few tests that need one)."""

    def run(*args: str, env: dict[str, str] | None = None, input: str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
        full_env = {**os.environ, **(env or {})}
        full_env["PYTHONPATH"] = str(REPO) + os.pathsep + full_env.get("PYTHONPATH", "")
        return subprocess.run(
            [sys.executable, "-m", "vora_cli", *args],
            env=full_env, input=input, capture_output=True, text=True, timeout=timeout, check=False,
        )

    return run


@pytest.fixture
def deep_tree(tmp_path: Path) -> Iterator[Callable[[Path], Path]]:
    """Make `top/d/.../d/f`, `plugins_support.DEEP` folders deep, a level at a time (no recursion, no chdir); the test's
    whole tmp_path is removed after it without recursion, since pytest's own cleanup would crash on it."""
    from plugins_support import DEEP

    def make(top: Path) -> Path:
        here = top
        here.mkdir(parents=True, exist_ok=True)
        for _ in range(DEEP):
            here = here / "d"
            os.mkdir(here)
        (here / "f").write_text("1")
        return top

    yield make
    from vora_cli.core import trees

    trees.remove(tmp_path)
