"""Issue 12 point 11, other moments of start-up (acceptance audit): the console script imports
`vora_cli.__main__`, runs lines of its own, then calls `main()`. A Ctrl-C in between is the same
quiet exit 130 as later — no traceback.

The cyclic garbage collector, decided once for the run (`vora_cli/__main__.py`, issue 24):
off for the short batch commands the fast dispatch answers, on (every 50,000 allocations) for
every other command. Observed in real processes, at exit.

vora is POSIX-only (docs/dependencies.md, "Platforms"): elsewhere it says so in one sentence.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vora_cli.core.writer import POSIX_ONLY

REPO = Path(__file__).resolve().parents[3]

# The pause stands for the wrapper's own lines; "ready" says the import is done.
WRAPPERS = {
    "pip": "import re\nimport sys\nfrom vora_cli.__main__ import main\nimport time\n"
           "sys.stderr.write('ready\\n'); sys.stderr.flush(); time.sleep(30)\n"
           "sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\nsys.exit(main())\n",
    "plain": "import sys, time\nfrom vora_cli.__main__ import main\n"
             "sys.stderr.write('ready\\n'); sys.stderr.flush()\n"
             "for _ in range(300):\n    time.sleep(0.1)\nmain()\n",
}


@pytest.mark.parametrize("wrapper", WRAPPERS.values(), ids=WRAPPERS.keys())
def test_ctrl_c_between_the_import_and_main_exits_130_quietly(tmp_path: Path, wrapper: str) -> None:
    script = tmp_path / "vora"  # named as installed: the handler is only for the program
    script.write_text(wrapper)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, str(script), "config", "get"], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    assert process.stderr.readline() == "ready\n"
    process.send_signal(signal.SIGINT)
    rest = process.stderr.read()
    process.wait(timeout=60)
    assert process.returncode == 130
    assert rest == ""


def test_importing_the_module_from_python_leaves_ctrl_c_alone(tmp_path: Path) -> None:
    code = ("import signal, vora_cli.__main__; "
            "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "True"


EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "vora"
PROBE = ("import atexit, gc, sys\n"
         "atexit.register(lambda: print('gc', gc.isenabled(), gc.get_threshold()[0], file=sys.stderr))\n"
         "sys.argv = ['vora', *sys.argv[1:]]\n"
         "from vora_cli.__main__ import main\n"
         "main()\n")


def _gc_at_exit(tmp_path: Path, *args: str) -> str:
    env = {**os.environ, "HOME": str(tmp_path), "VORA_HOME": str(tmp_path), "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-c", PROBE, "--state-dir", str(EXAMPLE), *args], env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    return [line for line in done.stderr.splitlines() if line.startswith("gc ")][-1]


@pytest.mark.parametrize("args", [("config", "get", "gateway.port"), ("sessions", "list"), ("context", "list"),
                                  ("doctor",)])
def test_the_hot_commands_run_without_the_cycle_collector(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert _gc_at_exit(tmp_path, *args).startswith("gc False")


@pytest.mark.parametrize("args", [("settings", "path"), ("config", "get", "--help"), ("sessions", "list", "--bogus")])
def test_every_other_command_keeps_it(tmp_path: Path, args: tuple[str, ...]) -> None:
    assert _gc_at_exit(tmp_path, *args) == "gc True 50000"




@pytest.mark.parametrize("args", [["config", "file"], ["--help"], ["doctor", "--json"]])
def test_vora_on_windows_says_posix_only(args: list[str]) -> None:
    # The stdlib modules vora's message needs are imported first: faking win32 before that would
    # make the stdlib itself reach for Windows-only modules (shutil -> _winapi on 3.12+).
    code = "import sys, tempfile, hashlib; from vora_cli.__main__ import main; " \
           "sys.platform = 'win32'; sys.argv = ['vora', *sys.argv[1:]]; main()"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == f"error: {POSIX_ONLY}"
    assert "Traceback" not in result.stderr
