"""`vora` and `python -m vora_cli`."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        _start()
    except KeyboardInterrupt:
        # Ctrl-C during start-up (importing typer, building the app), before the boundary in
        # `VoraGroup.main` is in place: the same quiet exit 130 as later (typer turns a later
        # Ctrl-C into exit 130 without a word; the shell has echoed ^C), no traceback.
        sys.exit(130)


def _start() -> None:
    if sys.platform == "win32":  # POSIX-only (pyproject classifiers): one sentence, no traceback
        from vora_cli.cli.streams import early_stderr
        from vora_cli.core.writer import POSIX_ONLY, POSIX_ONLY_HINT

        early_stderr(f"error: {POSIX_ONLY}\nhint: {POSIX_ONLY_HINT}\n")
        sys.exit(1)
    # A TAB press (`vora __complete KIND PREFIX`) is answered before typer is even imported.
    if "__complete" in sys.argv[1:]:
        from vora_cli.complete import run

        code = run(sys.argv[1:])
        if code is not None:
            sys.exit(code)

    # `vora --version` alone (scripts probe it) needs nothing but the version string.
    if sys.argv[1:] in (["--version"], ["-V"]):
        from vora_cli import __version__
        from vora_cli.cli.streams import early_stdout

        early_stdout(f"vora {__version__}\n")
        return

    from vora_cli.cli.app import app

    app(prog_name="vora")


if __name__ == "__main__":
    main()
