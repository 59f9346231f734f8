"""`vora --help`, `vora -h` and `vora` alone are answered by the fast dispatch from the page the
app generates (`ROOT_HELP` in `cli/dispatch_table.py`), where click would wrap the page to the same
width (80 columns or more, or not a terminal); on a narrower terminal the app writes it. Held to
the app's own answer byte for byte, exit code included: on pipes at several widths, on a closed
stdout and a full disk, and on a real pty.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pty_support import run_with_pty

from vora_cli.cli.dispatch import FORCE_TYPER, HELP_PAGE_COLUMNS, dispatch

REPO = Path(__file__).resolve().parents[3]
FORMS = (["--help"], ["-h"], [])


def _env(tmp_path: Path, columns: str | None, typer: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_") and k != "COLUMNS"}
    env.update({"PYTHONPATH": str(REPO), "HOME": str(tmp_path), "VORA_STATE_DIR": str(tmp_path / "state")})
    if columns is not None:
        env["COLUMNS"] = columns
    if typer:
        env[FORCE_TYPER] = "1"
    return env


def _run(argv: list[str], env: dict[str, str], stdout: int | None = subprocess.PIPE) -> tuple[bytes, bytes, int]:
    done = subprocess.run([sys.executable, "-m", "vora_cli", *argv], stdout=stdout, stderr=subprocess.PIPE,
                          env=env, check=False)
    return done.stdout or b"", done.stderr, done.returncode


@pytest.mark.parametrize("columns", [None, "80", "81", "200", "79", "60", "10", "0", "-5", "wide"])
@pytest.mark.parametrize("argv", FORMS, ids=["--help", "-h", "bare"])
def test_the_root_help_is_the_apps_at_every_width(argv: list[str], columns: str | None, tmp_path: Path) -> None:
    fast = _run(argv, _env(tmp_path, columns, typer=False))
    assert fast == _run(argv, _env(tmp_path, columns, typer=True))
    assert fast[2] == 0 and fast[0].startswith(b"Usage: vora [OPTIONS] COMMAND [ARGS]...")


@pytest.mark.parametrize("argv", [["--help"], []], ids=["--help", "bare"])
def test_a_failed_stdout_is_said_as_the_app_says_it(argv: list[str], tmp_path: Path) -> None:
    with open("/dev/full", "wb") as full:
        fast = _run(argv, _env(tmp_path, None, typer=False), stdout=full.fileno())
        assert fast == _run(argv, _env(tmp_path, None, typer=True), stdout=full.fileno())
    assert fast[2] != 0 and fast[1]
    closed = [sys.executable, "-c", "import os, runpy, sys; os.close(1); sys.argv = ['vora', *sys.argv[1:]]; "
              "runpy.run_module('vora_cli', run_name='__main__')", *argv]
    both = [subprocess.run(closed, capture_output=True, env=_env(tmp_path, None, typer=t), check=False)
            for t in (False, True)]
    assert (both[0].stderr, both[0].returncode) == (both[1].stderr, both[1].returncode)


def _on_pty(argv: list[str], env: dict[str, str], columns: int) -> tuple[str, int]:
    code, _piped, shown = run_with_pty([sys.executable, "-m", "vora_cli", *argv], env, columns=columns)
    return shown, code


@pytest.mark.parametrize("columns", [120, 80, 79, 52])
def test_on_a_terminal_too(columns: int, tmp_path: Path) -> None:
    fast = _on_pty(["--help"], _env(tmp_path, None, typer=False), columns)
    assert fast == _on_pty(["--help"], _env(tmp_path, None, typer=True), columns)
    assert fast[1] == 0 and "Commands:" in fast[0]


def test_the_fast_path_answers_only_where_click_would_wrap_alike(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(FORCE_TYPER, raising=False)
    for columns, answered in ((HELP_PAGE_COLUMNS, True), (300, True), (HELP_PAGE_COLUMNS - 1, False), (50, False)):
        monkeypatch.setenv("COLUMNS", str(columns))
        code = dispatch(["--help"])
        assert (code == 0) is answered and (code is None) is (not answered), columns
        out = capsys.readouterr().out
        assert out.startswith("Usage: vora") if answered else out == ""
    # other forms that ask for help are the app's: it knows which command's page they mean
    monkeypatch.setenv("COLUMNS", "100")
    for argv in (["--help", "--help"], ["config", "--help"], ["--json", "--help"], ["-hq"]):
        assert dispatch(argv) is None, argv


def test_the_fast_path_loads_neither_typer_nor_click(tmp_path: Path) -> None:
    script = ("import sys, runpy; sys.argv = ['vora', '--help']\n"
              "try:\n    runpy.run_module('vora_cli', run_name='__main__')\n"
              "except SystemExit as stop:\n    code = stop.code\n"
              "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich')), code,"
              " file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=_env(tmp_path, None, typer=False), check=False)
    assert done.stderr.strip() == "[] 0", done.stderr
    assert done.stdout.startswith("Usage: vora")
