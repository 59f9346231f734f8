"""How an archive is read: in CHUNK pieces, each hashed on the way (`hash_stream`, the one read loop of
verify, restore and the plan), held to the archive-bomb limits (docs/backup.md, "What verify checks").
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import IO

CHUNK = 1024 * 1024  # what one read of an archive or a file asks for

MAX_ENTRIES = 1_000_000  # entries of one archive (and file records of its manifest): a backup is
# bigger than a plugin; the limit still stops an archive bomb of empty entries
MAX_UNPACKED = 1024**4  # 1 TiB: far above any install, below what a bomb claims
MAX_RATIO = 256  # unpacked bytes per packed byte, past the allowance
RATIO_ALLOWANCE = 64 * 1024 * 1024  # a small archive of sparse files may inflate more


class ArchiveBomb(Exception):
    """The archive unpacks past a limit while `member` is read."""

    def __init__(self, member: str, detail: str) -> None:
        super().__init__(detail)
        self.member = member
        self.detail = detail


class Counted:
    """A readable stream that counts the bytes read from it (the packed side of the ratio)."""

    def __init__(self, stream: IO[bytes]) -> None:
        self._stream = stream
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(size)
        self.count += len(data)
        return data

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        pass  # the opener closes the real stream


class Expansion:
    """The two limits over one packed stream (`packed`) and what it unpacked to (`unpacked`)."""

    def __init__(self, packed: Counted, unpacked: IO[bytes]) -> None:
        self._packed = packed
        self._unpacked = unpacked

    def declare(self, member: str, size: int) -> None:
        """Before `member` is read: its header's size must fit the total."""
        if self._unpacked.tell() + size > MAX_UNPACKED:
            raise ArchiveBomb(member, f"declares {size:,} bytes: the archive would unpack past the "
                              f"{MAX_UNPACKED // 1024**4} TiB limit")

    def check(self, member: str) -> None:
        unpacked = self._unpacked.tell()
        if unpacked > MAX_UNPACKED:
            raise ArchiveBomb(member, f"the archive unpacks past the {MAX_UNPACKED // 1024**4} TiB limit")
        if unpacked > RATIO_ALLOWANCE and unpacked > MAX_RATIO * max(self._packed.count, 1):
            raise ArchiveBomb(member, f"{unpacked:,} bytes unpacked from {self._packed.count:,}: over the "
                              f"{MAX_RATIO}:1 limit of a gzip bomb")


def hash_stream(stream: IO[bytes], on_chunk: Callable[[bytes], None] | None = None,
                guard: Callable[[], None] | None = None) -> tuple[str, int]:
    """(sha256 hex digest, size) of what `stream` holds, read in CHUNK pieces; each piece is
    handed to `on_chunk` and followed by `guard()` (a bomb check) on the way."""
    import hashlib

    digest = hashlib.sha256()
    size = 0
    while chunk := stream.read(CHUNK):
        digest.update(chunk)
        size += len(chunk)
        if on_chunk is not None:
            on_chunk(chunk)
        if guard is not None:
            guard()
    return digest.hexdigest(), size


def file_sha256(path: Path) -> str:
    with open(path, "rb") as handle:
        return hash_stream(handle)[0]


class Checked:
    """An unpacked stream whose every read is held to the limits, so a tar reader that skips a
    member's data (or reads a long header) stops at a bomb too, not only between members; `member`
    is what a bomb is named after."""

    def __init__(self, stream: IO[bytes], expansion: Expansion, member: str) -> None:
        self._stream = stream
        self.expansion = expansion
        self.member = member

    def read(self, size: int = -1) -> bytes:
        data = self._stream.read(CHUNK if size is None or size < 0 else min(size, CHUNK))
        self.expansion.check(self.member)
        return data

    def readable(self) -> bool:
        return True
