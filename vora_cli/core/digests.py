"""SHA-256 of small data on start-up paths, without loading OpenSSL; bulk data keeps `hashlib`
(docs/performance.md).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_found: list[Any] = []


def sha256(data: bytes = b"") -> Any:
    """A SHA-256 hash object (`.update`, `.hexdigest`), as `hashlib.sha256(data)`."""
    if not _found:
        try:
            from _sha2 import sha256 as made  # type: ignore[import-not-found]  # Python 3.12+
        except ImportError:
            try:
                from _sha256 import sha256 as made  # type: ignore[import-not-found]  # Python 3.11
            except ImportError:  # a build without CPython's own hashes
                from hashlib import sha256 as made
        _found.append(made)
    return _found[0](data)


# Below this size CPython's own SHA-256 costs less than loading OpenSSL to hash faster.
SMALL_DIGEST = 256 * 1024


def sha256_hex(data: bytes) -> str:
    """The SHA-256 hex digest of `data`, made the cheaper way for its size."""
    if len(data) < SMALL_DIGEST:
        return str(sha256(data).hexdigest())
    import hashlib  # bulk data: OpenSSL's is faster per byte

    return hashlib.sha256(data).hexdigest()
