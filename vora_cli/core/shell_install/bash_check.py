"""Does the operator's bash load the completion vora installed? Ask a real one: the interactive, non-login
bash a new terminal starts (docs/settings.md, "bash: does your shell load it?").
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from vora_cli.core.records import dataclass
from vora_cli.core.shell import shell_quote

# Where the bash-completion package puts its main script (Debian/Ubuntu/Fedora, Homebrew on
# Intel and Apple silicon, FreeBSD ports).
BASH_COMPLETION_SCRIPTS = (
    "/usr/share/bash-completion/bash_completion",
    "/usr/local/share/bash-completion/bash_completion",
    "/opt/homebrew/share/bash-completion/bash_completion",
    "/etc/bash_completion",
)
CHECK_TIMEOUT_S = 10.0  # a `.bashrc` that waits for something (tmux attach, a prompt) is not waited for
_MARK = "vora-loads:"
# What TAB runs first: a completion already defined for `vora`, else bash-completion's loader
# (`_comp_load` since 2.12, `__load_completion` before); then print what `vora` completes with.
_PROGRAM = (
    "complete -p vora >/dev/null 2>&1 || { if declare -F _comp_load >/dev/null; then _comp_load vora; "
    "elif declare -F __load_completion >/dev/null; then __load_completion vora; fi; } >/dev/null 2>&1; "
    f"printf '{_MARK}%s\\n' \"$(complete -p vora 2>/dev/null)\""
)
EXPECTED = "complete -F _vora vora"


@dataclass(frozen=True)
class BashLoading:
    """What a new interactive bash does with the installed script."""

    loads: bool | None  # None: the check could not run (no bash, a .bashrc that hangs)
    reason: str
    add_line: str | None = None  # the one line to add to ~/.bashrc when it does not load it

    def to_dict(self) -> dict[str, object]:
        return {"loads": self.loads, "reason": self.reason, "addLine": self.add_line}


def installed_bash_completion(candidates: Sequence[str] = BASH_COMPLETION_SCRIPTS) -> str | None:
    return next((path for path in candidates if os.path.isfile(path)), None)


def bash_loads(script: Path, env: Mapping[str, str], *, bash: str = "bash",
               candidates: Sequence[str] = BASH_COMPLETION_SCRIPTS, timeout: float = CHECK_TIMEOUT_S) -> BashLoading:
    """Whether a new non-login interactive bash completes `vora` with the script at `script`."""
    framework = installed_bash_completion(candidates)
    if framework is not None:
        add = f"[[ -r {shell_quote(framework)} ]] && . {shell_quote(framework)}"
        missing = f"this bash does not load bash-completion ({framework} is installed but ~/.bashrc does not source it)"
    else:
        add = f". {shell_quote(str(script))}"
        missing = "bash-completion is not installed, so nothing loads the script on TAB"
    try:
        status, stdout = _run_shell([bash, "-i", "-c", _PROGRAM], env, timeout)
    except subprocess.TimeoutExpired:
        return BashLoading(None, f"could not check: a new interactive bash did not finish within {timeout:g} s", add)
    except OSError as exc:
        return BashLoading(None, f"could not check: cannot run {bash}: {exc.strerror or exc}", add)
    found = [line[len(_MARK):] for line in stdout.decode("utf-8", "replace").splitlines() if line.startswith(_MARK)]
    if not found:
        return BashLoading(None, f"could not check: a new interactive bash exited with status {status}", add)
    if found[-1].strip() == EXPECTED:
        return BashLoading(True, "a new interactive bash loads it on the first 'vora <TAB>'")
    if found[-1].strip():
        return BashLoading(False, f"your bash already defines another completion for vora ({found[-1].strip()}), "
                                  "which wins over the installed file", None)
    return BashLoading(False, missing, add)


def _run_shell(argv: list[str], env: Mapping[str, str], timeout: float) -> tuple[int, bytes]:
    """Run `argv` in a session of its own; on timeout the whole session goes (a `.bashrc` may
    start an agent or a `sleep` that would hold the output pipe open long after bash is killed)."""
    import signal

    process = subprocess.Popen(argv, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        stdout, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except OSError:
            pass
        process.wait()
        if process.stdout is not None:
            process.stdout.close()  # not read to the end: a daemon the .bashrc started may hold it open
        raise
    return process.returncode, stdout
