"""One run's reads of plugin files: each file's bytes read once, each text parsed once.

vora's reader and the gateway registry's each open a file by their own rules; its bytes are read the
first time it is met (keyed by device, inode, size, mtime). Parsed values are shared: read, never changed.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_Identity = tuple[int, int, int, int, int]


class PluginReads:
    """The bytes of the files one run has read, and the values of the texts it has parsed."""

    def __init__(self) -> None:
        self._bytes: dict[_Identity, bytes] = {}
        self._json5: dict[str, Any] = {}
        self._json: dict[str, tuple[Any, str | None]] = {}

    def open_read(self, path: str, *, max_bytes: int | None = None) -> tuple[os.stat_result, bytes | None]:
        """Open `path` read-only, and its stat with its bytes, or with None when it is larger than
        `max_bytes` (not read). OSError as `os.open`/`read` raise it."""
        fd = os.open(path, os.O_RDONLY)
        try:
            return self.read_fd(fd, max_bytes=max_bytes)
        finally:
            os.close(fd)

    def read_fd(self, fd: int, *, max_bytes: int | None = None) -> tuple[os.stat_result, bytes | None]:
        """The open file's stat and bytes (None when larger than `max_bytes`), read once per identity."""
        info = os.fstat(fd)
        if max_bytes is not None and info.st_size > max_bytes:
            return info, None
        # ctime too: a rewrite that puts the old mtime back (`cp -p`, `rsync -t`, `touch -r`) cannot
        # put back the ctime, so it is never taken for the file read before
        identity = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        data = self._bytes.get(identity)
        if data is None:
            chunks = []
            while chunk := os.read(fd, max(info.st_size, 65536)):
                chunks.append(chunk)
            data = b"".join(chunks)
            self._bytes[identity] = data
        return info, data

    def json5(self, text: str, filename: str) -> Any:
        """`json5.parser.loads(text, filename=filename)`, once per text: a syntax error (which names
        `filename`) is raised again on each call, as the parser raises it."""
        if text in self._json5:
            return self._json5[text]
        from vora_cli.core.json5.parser import loads

        value = loads(text, filename=filename)
        self._json5[text] = value
        return value

    def json(self, text: str, *, finite: bool = False) -> Any:
        """`nesting.loads(text)`, once per text; `finite`: NaN and ±Infinity are a ValueError (the
        gateway's reading of a package.json) where the plain reading takes them as floats."""
        hit = self._json.get(text)
        if hit is None:
            from vora_cli.core import nesting

            constants: list[str] = []

            def constant(name: str) -> float:
                constants.append(name)
                return float(name)

            hit = (nesting.loads(text, parse_constant=constant), constants[0] if constants else None)
            self._json[text] = hit
        value, non_finite = hit
        if finite and non_finite is not None:
            from vora_cli.core.strict_json import refuse_non_finite

            refuse_non_finite(non_finite)  # the one wording of the rule
        return value
