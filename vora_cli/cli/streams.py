"""What `vora` says before the output layer is loaded: `--version`, the POSIX-only sentence and
an ASCII answer to a TAB press (`vora __complete`).

Both are plain ASCII, so they need none of `cli/output.py`'s care (encodings, colour, JSON), and
importing that layer would cost `vora --version` ≈ 5 ms (json, typing). Every other write goes
through `cli/output.py`; these two modules are the only ones that touch the streams. A write that
fails loads that layer then, to end as every failed write to stdout ends (`invocation.finish`).
"""

from __future__ import annotations

import sys


def early_stdout(text: str) -> int:
    """`text` on stdout: 0, or 1 once a failed write (a full disk, a closed stdout) is said as the
    boundary says it (a reader that left is not told)."""
    failure = _put(text)
    if failure is None:
        return 0
    from vora_cli.cli.invocation import say_stdout_failure
    from vora_cli.cli.output import Run, stdout_failed

    return say_stdout_failure(Run(sys.argv[1:]), stdout_failed(failure, sys.stdout))


def quiet_stdout(text: str) -> None:
    """`text` on stdout; a failed write is not said (a TAB press never shows an error) and leaves
    nothing for Python's flush at exit to fail on."""
    failure = _put(text)
    if failure is not None:
        from vora_cli.cli.output import stdout_failed

        stdout_failed(failure, sys.stdout)


def _put(text: str) -> BaseException | None:
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError) as error:  # AttributeError: stdout closed (None)
        return error
    return None


def early_stderr(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass  # nobody to tell
