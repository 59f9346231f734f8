"""Running one command line both ways, the fast dispatch (`cli/dispatch.py`) and the Typer app, in
process, on pipes: what `tests/cli/common/test_fast_dispatch.py` and the devices tests compare."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable

from vora_cli.cli.dispatch import dispatch

Result = tuple[bytes, bytes, int]


def captured(call: Callable[[], int | None]) -> tuple[Result | None, bool]:
    """Run `call` with stdout and stderr on pipes (no terminal): (stdout, stderr, exit code)."""
    saved = sys.stdout, sys.stderr, sys.stdin
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    sys.stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    wrappers = sys.stdout, sys.stderr
    try:
        code = call()
        for wrapper in wrappers:
            wrapper.flush()
        result = None if code is None else (out.getvalue(), err.getvalue(), code)
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
        for wrapper in wrappers:
            wrapper.detach()  # closing a wrapper would close the buffer it wraps
    return result, code is not None


def typer_main(argv: list[str]) -> int:
    from vora_cli.cli.app import main

    return main(argv)


def run_both(argv: list[str], reset: Callable[[], None]) -> tuple[Result, Result, bool]:
    """(fast-or-Typer, Typer-only, whether the fast path answered)."""
    reset()
    fast, took = captured(lambda: dispatch(argv))
    if fast is None:
        reset()
        fast, _ = captured(lambda: typer_main(argv))
    reset()
    typer_result, _ = captured(lambda: typer_main(argv))
    assert fast is not None and typer_result is not None
    return fast, typer_result, took
