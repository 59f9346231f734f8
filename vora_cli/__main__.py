"""`vora` and `python -m vora_cli`."""

from __future__ import annotations

import signal
import sys


def _interrupted_before_main(signum: int, frame: object) -> None:
    raise SystemExit(130)


# The console script imports this module, then runs a line of its own, then calls `main`: a Ctrl-C
# in between has no `try` around it and would print a traceback. Until `main` starts, Ctrl-C is
# the quiet exit 130 directly. Only when run as a program: an import from
# Python code (tests, a library user) leaves the process's handler alone.
_PROGRAM = (sys.argv[0] if sys.argv else "").replace("\\", "/").rpartition("/")[2]
if _PROGRAM in ("vora", "vora.exe") and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted_before_main)


def main() -> None:
    try:
        # From here a Ctrl-C is a KeyboardInterrupt again: typer, the writer's clean-up and the
        # `except` below handle it as they always have.
        if signal.getsignal(signal.SIGINT) is _interrupted_before_main:
            signal.signal(signal.SIGINT, signal.default_int_handler)
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

        failure = early_stdout(f"vora {__version__}\n")
        if failure is not None:
            from vora_cli.cli.invocation import say_stdout_failure
            from vora_cli.cli.output import Run

            sys.exit(say_stdout_failure(Run(sys.argv[1:]), failure))
        return

    import gc

    # The cyclic collector, decided once for the run. A command allocates parsed JSON by the
    # hundred thousand (a session store, a transcript, a 1 MB config), which holds no reference
    # cycles: with the default pass every 700 allocations the collector walks every parsed object
    # again and again (docs/performance.md). The hot commands the fast dispatch answers are
    # short batch runs whose garbage is freed by reference counting: they run without it (what
    # a cycle would hold is returned at exit). Every other command keeps it, for the runs that
    # last (`vora logs --follow`), every 50,000 allocations, the modules imported so far frozen
    # out of its walks.
    gc.disable()
    # A well-formed hot command (`vora config get gateway.port`) is answered without typer or click
    # (`cli/dispatch.py`); everything else (help, usage errors, the other commands) by the app.
    from vora_cli.cli.dispatch import dispatch

    code = dispatch(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from vora_cli.cli.app import app

    gc.set_threshold(50_000, 20, 100)
    gc.freeze()
    gc.enable()
    app(prog_name="vora")


if __name__ == "__main__":
    main()
