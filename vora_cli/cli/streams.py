"""The process's standard streams: what `vora` says before the output layer is loaded (plain ASCII), and
the guard every run puts under every writer of stdout (docs/exit-codes-and-json.md, "When the output
cannot be written"). With `cli/output.py`, the only module that touches the streams.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO


def early_stdout(text: str) -> StdoutFailed | None:
    """`text` on stdout; a failed write (a full disk, a closed stdout) comes back for the caller to
    say as the boundary says it (`invocation.say_stdout_failure`: a reader that left is not told)."""
    failure = _put(text)
    return None if failure is None else stdout_failed(failure, sys.stdout)


def quiet_stdout(text: str) -> None:
    """`text` on stdout; a failed write is not said (a TAB press never shows an error) and leaves
    nothing for Python's flush at exit to fail on."""
    failure = _put(text)
    if failure is not None:
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


def prepare_streams() -> None:
    """The run's streams: a closed one given a stand-in (`_fill_closed_streams`), stdout guarded
    (`StdoutGuard`: a failed write is the run's `StdoutFailed`), and a file name with a non-UTF-8 byte
    or a lone surrogate from a file reaching the output as an escape (\\udcff), never as a
    UnicodeEncodeError after the work is done."""
    if sys.stdin is None or sys.stdout is None or sys.stderr is None:
        _fill_closed_streams()
    if isinstance(sys.stdout, StdoutGuard):  # a run before this one in the same process (tests)
        sys.stdout = sys.stdout.stream
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass
    sys.stdout = StdoutGuard(sys.stdout)  # a TextIO to every writer (it is one, by its methods)


class StdoutFailed(Exception):
    """A write to stdout failed (a full disk, a closed stdout, a pipe whose reader left). Not an
    OSError, so no `except OSError` on the way up takes it for its own; the boundary reports it
    once when the run ends (`invocation.finish`). `cause` is the OSError.
    """

    def __init__(self, cause: OSError) -> None:
        super().__init__(str(cause))
        self.cause = cause

    @property
    def reader_left(self) -> bool:
        """A broken pipe (`vora ... | head`): the reader has what it wanted; nothing is said."""
        return isinstance(self.cause, BrokenPipeError)


class StdoutGuard:
    """`sys.stdout` during a run (`prepare_streams`), through which every writer of stdout goes:
    the first write or flush that fails becomes the run's `StdoutFailed`, and every later write
    raises it without touching the stream (no error document after half a list). It knows
    whether any data went out (`format_error`). `held`: while a view is rendered for the pager,
    writes wait there in order with stderr's (1: stdout, 2: stderr)."""

    __slots__ = ("__weakref__", "failure", "held", "stream", "wrote")  # click keeps a weak map of streams

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.failure: StdoutFailed | None = None
        self.wrote = False
        self.held: list[tuple[int, str]] | None = None

    def write(self, text: str) -> int:
        if self.held is not None:
            self.held.append((1, text))
            return len(text)
        if self.failure is None:
            try:
                if self.stream is None:
                    raise _closed()
                written = self.stream.write(text)
                if text:
                    self.wrote = True
                return written
            except UnicodeError:
                raise
            except (OSError, ValueError) as error:  # ValueError: the stream was closed
                self.failure = stdout_failed(error, self.stream)
        raise self.failure

    def flush(self) -> None:
        if self.failure is not None or self.stream is None:
            return  # nothing more goes out (Python's own flush at exit included)
        try:
            self.stream.flush()
        except (OSError, ValueError) as error:
            self.failure = stdout_failed(error, self.stream)
            raise self.failure from None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _closed() -> OSError:
    import errno

    return OSError(errno.EBADF, os.strerror(errno.EBADF))


def stdout_failed(error: BaseException, stream: TextIO | None) -> StdoutFailed:
    """`error`, raised by a write or flush of `stream` (stdout), as a `StdoutFailed`; the process's
    stdout is pointed at /dev/null, so what is still buffered goes nowhere at exit (no "Exception
    ignored ... BrokenPipeError" from Python, and not a byte after the failure)."""
    silence(stream)
    return StdoutFailed(error if isinstance(error, OSError) else _closed())


def silence(stream: TextIO | None) -> None:
    """Point `stream`'s descriptor at /dev/null: it failed, and its buffer must not fail again.
    Only the process's own stdout and stderr (a test's capture stays as it is)."""
    if stream is None or all(stream is not own for own in (sys.__stdout__, sys.__stderr__)):
        return
    try:
        fd = stream.fileno()
        null = os.open(os.devnull, os.O_WRONLY)
    except (OSError, ValueError):
        return
    try:
        os.dup2(null, fd)
    except (OSError, ValueError):
        pass
    finally:
        os.close(null)


def end_stdout() -> StdoutFailed | None:
    """The run's last step on stdout: what is buffered flushed; the run's failed write, if any."""
    guard = sys.stdout
    if not isinstance(guard, StdoutGuard):
        return None
    try:
        guard.flush()
    except StdoutFailed:
        pass
    return guard.failure


def release_stdout() -> None:
    """The run is over: stdout is the stream itself again (a test runs vora many times)."""
    if isinstance(sys.stdout, StdoutGuard):
        sys.stdout = sys.stdout.stream


def _fill_closed_streams() -> None:
    """A standard stream the caller closed (`>&-`, `2>&-`, `<&-`) gets /dev/null on its descriptor,
    so no file vora opens later takes that number (a child process, npm, the pager, would write
    into it). stdout stays closed to vora: its first write fails (`StdoutGuard`, "standard output is
    closed"); stderr is /dev/null (a closed stderr asks for silence); stdin reads as empty."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
            continue  # the number is taken already: leave it
        except OSError:
            pass
        null = os.open(os.devnull, os.O_RDWR)
        if null != fd:
            os.dup2(null, fd)
            os.close(null)
        if name == "stdin":
            sys.stdin = open(fd, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's stdin)
        elif name == "stderr":
            sys.stderr = open(fd, "w", encoding="utf-8", errors="backslashreplace", closefd=False)  # noqa: SIM115
