"""A hang guard for CPU-bound work: a test fails, instead of hanging the suite, when the code under
test burns far more CPU than it can need (a backtracking regex on a 2 MiB line runs for hours).

It counts the test process's CPU time (`ITIMER_PROF`: user + system, every thread), not wall time,
so a loaded machine does not set it off. The bound is generous on purpose: it catches a hang, not
a slowdown; tests bound work by counting (docs/testing.md, "No wall-clock bounds").
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

GENEROUS_CPU_SECONDS = 30.0


def cpu_hang_guard(what: str, seconds: float = GENEROUS_CPU_SECONDS) -> contextlib.AbstractContextManager[None]:
    """Fail with "<what> did not finish within N s of CPU" if the block burns that much CPU.

    Python's regex engine checks for signals while it backtracks, so even one runaway `re` call
    is interrupted. Main thread only (where pytest runs tests, also under xdist)."""
    return _alarm(signal.ITIMER_PROF, signal.SIGPROF, seconds,
                  f"{what} did not finish within {seconds:g} s of CPU time: it hangs (superlinear work on a big input?)")


BLOCKED_SECONDS = 60.0


def blocking_hang_guard(what: str, seconds: float = BLOCKED_SECONDS) -> contextlib.AbstractContextManager[None]:
    """Fail with "<what> was still waiting after N s" if the block waits that long: a blocked system
    call (an `open()` of a FIFO with no writer) burns no CPU, so `cpu_hang_guard` never fires on it.
    Real time, so the bound is far above anything the block can need on a loaded machine; the alarm
    interrupts the waiting call. Main thread only."""
    return _alarm(signal.ITIMER_REAL, signal.SIGALRM, seconds,
                  f"{what} was still waiting after {seconds:g} s: it blocks (a FIFO opened?)")


@contextlib.contextmanager
def _alarm(timer: int, signum: int, seconds: float, message: str) -> Iterator[None]:
    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise AssertionError(message)

    previous = signal.signal(signum, on_alarm)
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(signum, previous)
