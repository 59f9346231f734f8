"""`core/digests.py`: the small-data SHA-256 gives hashlib's digests."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("data", [b"", b"abc", "é\u2028".encode(), bytes(range(256)) * 300])
def test_the_small_data_sha256_is_hashlib_s(data: bytes) -> None:
    import hashlib

    from vora_cli.core.digests import sha256

    assert sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    grown = sha256()
    grown.update(data[:7])
    grown.update(data[7:])
    assert grown.hexdigest() == hashlib.sha256(data).hexdigest()
