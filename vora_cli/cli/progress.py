"""Progress for long work, on stderr and only when stderr is a terminal: a log file holds no carriage
returns (docs/terminal.md, "Progress").
"""

from __future__ import annotations

import sys
import threading
import time

from vora_cli.cli.output import Run, fit_to_stream, stream_is_terminal, write_stderr
from vora_cli.core.text import one_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.plugins.archive import ExtractProgress

_INTERVAL = 0.1  # the counter line: at most ten redraws a second
_TICK = 1.0  # a running step's elapsed seconds


def size_text(count: int) -> str:
    """Bytes as a person reads them: 812 B, 14.2 KiB, 3.1 MiB (`core/wording.size_text`, the one
    size formatter)."""
    from vora_cli.core.wording import size_text as shown

    return shown(count)


def bytes_text(label: str, done: int, total: int) -> str:
    """`Writing the archive: 312.4 MiB of 1.0 GiB (30%)`: a long job's bytes, done of all."""
    percent = 100 if total <= 0 else min(99 if done < total else 100, done * 100 // total)
    return f"{label}: {size_text(done)} of {size_text(total)} ({percent}%)"


def extract_text(p: ExtractProgress) -> str:
    return (f"Extracting {p.archive}: {p.files_done}/{p.files_total} files, "
            f"{size_text(p.bytes_done)}/{size_text(p.bytes_total)}")


class TerminalProgress:
    """Step lines and one live counter line on a terminal's stderr. A step stays the live line,
    its elapsed seconds ticking, while its work runs (npm gives no counts); the next step, the
    extraction counter or `close()` (the command's, when done) ends it with a newline.
    """

    def __init__(self, run: Run) -> None:
        self._run = run  # hints in a step quote the global options the operator typed
        self._lock = threading.Lock()
        self._live = False  # the cursor is on a line that has no newline yet
        self._counting = False  # the live line is the extraction counter
        self._shown_at = 0.0
        self._ticker: threading.Thread | None = None
        self._stop = threading.Event()

    def _end_line(self) -> None:
        if self._live:
            write_stderr("\n")
            self._live = False

    def _stop_ticker(self) -> None:
        if self._ticker is not None:
            self._stop.set()
            self._ticker.join()
            self._ticker = None

    def step(self, message: str) -> None:
        self._stop_ticker()
        text = fit_to_stream(one_line(self._run.with_global_args(message)), sys.stderr)
        with self._lock:
            self._end_line()
            write_stderr(text)
            self._live = True
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick, args=(text, time.monotonic(), self._stop), daemon=True)
        self._ticker.start()

    def _tick(self, text: str, started: float, stop: threading.Event) -> None:
        while not stop.wait(_TICK):
            with self._lock:
                if stop.is_set():
                    return
                write_stderr(f"\r\x1b[K{text} {int(time.monotonic() - started)}s")

    def extract(self, progress: ExtractProgress) -> None:
        self.counter(extract_text(progress), progress.finished)

    def bytes(self, label: str, done: int, total: int) -> None:
        """A long job's bytes done of all, with a percentage (`backup create`, `restore`)."""
        self.counter(bytes_text(label, done, total), False)

    def counter(self, text: str, finished: bool) -> None:
        now = time.monotonic()
        if not finished and self._counting and now - self._shown_at < _INTERVAL:
            return
        self._stop_ticker()
        with self._lock:
            if not self._counting:
                self._end_line()  # the step line above ("Extracting x.tgz ...") stays as it was
                self._counting = True
            write_stderr("\r\x1b[K" + fit_to_stream(one_line(text), sys.stderr))
            self._live = True
            self._shown_at = now
            if finished:
                self._end_line()
                self._counting = False

    def close(self) -> None:
        """End the live line, so what follows (a result, an error) starts on a fresh one."""
        self._stop_ticker()
        with self._lock:
            self._end_line()


def terminal_progress(run: Run, json_mode: bool) -> TerminalProgress | None:
    """A progress reporter when stderr is a terminal (and not in --json mode), else None."""
    return TerminalProgress(run) if stream_is_terminal(sys.stderr) and not json_mode else None
