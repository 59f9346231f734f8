"""What `vora` says before the output layer is loaded: `--version`, the POSIX-only sentence and
an ASCII answer to a TAB press (`vora __complete`).

Both are plain ASCII, so they need none of `cli/output.py`'s care (encodings, colour, JSON), and
importing that layer would cost `vora --version` ≈ 5 ms (json, typing). Every other write goes
through `cli/output.py`; these two modules are the only ones that touch the streams.
"""

from __future__ import annotations

import sys


def early_stdout(text: str) -> None:
    sys.stdout.write(text)


def early_stderr(text: str) -> None:
    sys.stderr.write(text)
    sys.stderr.flush()
