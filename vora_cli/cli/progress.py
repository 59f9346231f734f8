"""Progress for long work, on stderr and only when stderr is a terminal (docs/terminal.md).

Steps ("Fetching my-engine with npm pack ...") are lines; counts (an archive's files and bytes)
rewrite one line in place, at most ten times a second, and end with a newline when finished.
Piped or redirected, nothing is printed: a log file holds no carriage returns.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from vora_cli.cli.output import fit_to_stream, safe_text, stream_is_terminal, with_global_args, write_stderr

if TYPE_CHECKING:
    from vora_cli.core.plugins.archive import ExtractProgress

_INTERVAL = 0.1


def size_text(count: int) -> str:
    """Bytes as a person reads them: 812 B, 14.2 KiB, 3.1 MiB."""
    value = float(count)
    for unit in ("B", "KiB", "MiB"):
        if value < 1024 or unit == "MiB":
            return f"{int(value)} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"  # pragma: no cover - the loop returns at MiB


def extract_text(p: ExtractProgress) -> str:
    return (f"Extracting {p.archive}: {p.files_done}/{p.files_total} files, "
            f"{size_text(p.bytes_done)}/{size_text(p.bytes_total)}")


class TerminalProgress:
    """Step lines and one live counter line on a terminal's stderr."""

    def __init__(self) -> None:
        self._live = False
        self._shown_at = 0.0

    def _clear(self) -> None:
        if self._live:
            write_stderr("\r\x1b[K")
            self._live = False

    def step(self, message: str) -> None:
        self._clear()
        write_stderr(fit_to_stream(safe_text(with_global_args(message)), sys.stderr) + "\n")

    def extract(self, progress: ExtractProgress) -> None:
        now = time.monotonic()
        if not progress.finished and self._live and now - self._shown_at < _INTERVAL:
            return
        self._shown_at = now
        write_stderr("\r\x1b[K" + fit_to_stream(safe_text(extract_text(progress)), sys.stderr)
                     + ("\n" if progress.finished else ""))
        self._live = not progress.finished


def terminal_progress(json_mode: bool) -> TerminalProgress | None:
    """A progress reporter when stderr is a terminal (and not in --json mode), else None."""
    return TerminalProgress() if stream_is_terminal(sys.stderr) and not json_mode else None
