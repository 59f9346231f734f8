"""Issue 12 point 11, other moments of start-up (acceptance audit): the console script imports
`vora_cli.__main__`, runs lines of its own, then calls `main()`. A Ctrl-C in between is the same
quiet exit 130 as later — no traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

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
