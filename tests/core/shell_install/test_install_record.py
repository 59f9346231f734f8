"""The record line vora seals its completion scripts with proves exactly the bytes above it (issue 22,
class 3); what `vora completion SHELL --install` does with files it did not write is in
`tests/cli/completion/test_own_files.py`."""

from __future__ import annotations

from vora_cli.core.shell_install.record import RECORD_PREFIX, seal_script, written_by_vora


def test_the_record_line_proves_exactly_the_bytes_above_it() -> None:
    sealed = seal_script("line one\nline two")
    assert sealed.startswith("line one\nline two\n") and sealed.splitlines()[-1].startswith(RECORD_PREFIX)
    data = sealed.encode()
    assert written_by_vora(data)
    assert not written_by_vora(data.replace(b"two", b"2"))  # an edit above the line
    assert not written_by_vora(data + b"# one more line\n")  # a line added below it
    assert not written_by_vora(data[:-1])  # the last newline cut
    assert not written_by_vora(b"line one\n" + data.splitlines(keepends=True)[-1])  # a line taken out
    assert not written_by_vora(b"")
