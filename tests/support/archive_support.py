"""Hostile plugin archives, one builder each, shared by the archive reader's core tests
(`tests/core/plugins/test_plugin_archives.py`) and `vora plugins install` (`tests/cli/plugins/test_archives.py`).

`HOSTILE` maps a case to (builder, the entry the error names, why it names it)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import add_tar_bytes, add_tar_special

from vora_cli.core.plugins import archive

Builder = Callable[[Path], Path]


def tar_with(path: Path, fill: Callable[[tarfile.TarFile], None]) -> Path:
    with tarfile.open(path, "w") as tf:
        fill(tf)
    return path


def add_base_plugin(tf: tarfile.TarFile) -> None:
    """A valid plugin at the top, so only the hostile entry is wrong."""
    add_tar_bytes(tf, "package/vora.plugin.json", b'{"id": "evil", "configSchema": {}}')
    add_tar_bytes(tf, "package/package.json", b'{"name": "evil", "vora": {"extensions": ["./index.js"]}}')
    add_tar_bytes(tf, "package/index.js", b"//")


def tar_absolute(d: Path) -> Path:
    return tar_with(d / "abs.tar", lambda tf: (add_base_plugin(tf), add_tar_bytes(tf, str(d / "abs-evil.txt"))))


def tar_dotdot(d: Path) -> Path:
    return tar_with(d / "dotdot.tar", lambda tf: (add_base_plugin(tf), add_tar_bytes(tf, "package/../../dotdot-evil.txt")))


def tar_symlink_out(d: Path) -> Path:
    return tar_with(d / "symlink.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/out", tarfile.SYMTYPE, "../../..")))


def tar_symlink_absolute(d: Path) -> Path:
    return tar_with(d / "symabs.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/pw", tarfile.SYMTYPE, "/etc/passwd")))


def tar_symlink_chain(d: Path) -> Path:
    # Each link looks inside the root on paper; together they climb out (s -> ".", t -> "s/s/..").
    def fill(tf: tarfile.TarFile) -> None:
        add_base_plugin(tf)
        add_tar_special(tf, "s", tarfile.SYMTYPE, ".")
        add_tar_special(tf, "t", tarfile.SYMTYPE, "s/s/..")
    return tar_with(d / "chain.tar", fill)


def tar_below_symlink(d: Path) -> Path:
    def fill(tf: tarfile.TarFile) -> None:
        add_base_plugin(tf)
        add_tar_special(tf, "package/lib", tarfile.SYMTYPE, "sub")
        add_tar_bytes(tf, "package/lib/x.js")
    return tar_with(d / "below.tar", fill)


def tar_hardlink_out(d: Path) -> Path:
    return tar_with(d / "hard.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/h", tarfile.LNKTYPE, "../../etc/passwd")))


def tar_device(d: Path) -> Path:
    return tar_with(d / "dev.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/null", tarfile.CHRTYPE)))


def tar_block_device(d: Path) -> Path:
    return tar_with(d / "blk.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/sda", tarfile.BLKTYPE)))


def tar_fifo(d: Path) -> Path:
    return tar_with(d / "fifo.tar", lambda tf: (add_base_plugin(tf), add_tar_special(tf, "package/pipe", tarfile.FIFOTYPE)))


_MANY: list[bytes] = []  # built once per session: 50,001 headers take seconds


def tar_too_many_entries(d: Path) -> Path:
    path = d / "many.tar"
    if not _MANY:
        _MANY.append(_many_directories_tar(archive.MAX_ENTRIES))
    path.write_bytes(_MANY[0])
    return path


def _many_directories_tar(count: int) -> bytes:
    """The base plugin, then `count` directory entries package/d0, package/d1, ... as one plain tar.

    tarfile's own header writer takes about 3 s for 50,000 entries; the headers differ only in
    the name, so each is tarfile's own ustar header for a directory with the name and the checksum
    (the byte sum of the header, its checksum field counted as spaces) put in: 0.1 s."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        add_base_plugin(tf)
        end = tf.offset  # the end of the last member, before the closing zero blocks
    template = tarfile.TarInfo("")
    template.type = tarfile.DIRTYPE
    header = bytearray(template.tobuf(tarfile.USTAR_FORMAT))
    header[0:100] = b"\0" * 100
    header[148:156] = b" " * 8
    blank_sum = sum(header)
    headers = []
    for i in range(count):
        name = f"package/d{i}/".encode()  # a directory's name ends with "/", as tarfile writes it
        header[0:100] = name.ljust(100, b"\0")
        header[148:155] = b"%06o\0" % (blank_sum + sum(name))
        headers.append(bytes(header))
    return buf.getvalue()[:end] + b"".join(headers) + b"\0" * 1024


def _sparse_tar(path: Path, sizes: list[int]) -> Path:
    """A plain tar whose headers claim `sizes`; the data is a hole (sparse file, no disk used)."""
    with open(path, "wb") as f:
        for i, size in enumerate(sizes):
            info = tarfile.TarInfo(f"package/big{i}.bin")
            info.size = size
            f.write(info.tobuf(format=tarfile.GNU_FORMAT))
            f.seek(size + (-size % 512), io.SEEK_CUR)
        f.write(b"\0" * 1024)
    return path


def tar_one_entry_too_big(d: Path) -> Path:
    return _sparse_tar(d / "big.tar", [archive.MAX_ENTRY_BYTES + 1])


def tar_total_too_big(d: Path) -> Path:
    return _sparse_tar(d / "total.tar", [200 * 1024 * 1024, 200 * 1024 * 1024, 200 * 1024 * 1024])


def zip_with(path: Path, extra: Callable[[zipfile.ZipFile], None]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("vora.plugin.json", '{"id": "evil", "configSchema": {}}')
        zf.writestr("package.json", '{"name": "evil", "vora": {"extensions": ["./index.js"]}}')
        zf.writestr("index.js", "//")
        extra(zf)
    return path


def zip_dotdot(d: Path) -> Path:
    return zip_with(d / "dotdot.zip", lambda zf: zf.writestr("../zip-evil.txt", "x"))


def zip_absolute(d: Path) -> Path:
    return zip_with(d / "abs.zip", lambda zf: zf.writestr(str(d / "zip-abs-evil.txt"), "x"))


def zip_symlink_out(d: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("escape")
        info.external_attr = (0o120777 << 16)
        zf.writestr(info, "../../..")
    return zip_with(d / "symlink.zip", extra)


def zip_fifo(d: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("pipe")
        info.external_attr = (0o010644 << 16)
        zf.writestr(info, "")
    return zip_with(d / "fifo.zip", extra)


HOSTILE: dict[str, tuple[Builder, str, str]] = {
    "tar-absolute-path": (tar_absolute, "abs-evil.txt", "absolute path"),
    "tar-dotdot": (tar_dotdot, "package/../../dotdot-evil.txt", "'..'"),
    "tar-symlink-outside": (tar_symlink_out, "package/out", "outside the archive root"),
    "tar-symlink-absolute": (tar_symlink_absolute, "package/pw", "absolute path"),
    "tar-symlink-chain": (tar_symlink_chain, "'t'", "real target leaves the archive root"),
    "tar-entry-below-symlink": (tar_below_symlink, "package/lib/x.js", "below a symlink"),
    "tar-hardlink-outside": (tar_hardlink_out, "package/h", "outside the archive root"),
    "tar-char-device": (tar_device, "package/null", "device file"),
    "tar-block-device": (tar_block_device, "package/sda", "device file"),
    "tar-fifo": (tar_fifo, "package/pipe", "FIFO"),
    "tar-too-many-entries": (tar_too_many_entries, "package/d", "50,000 entries"),
    "tar-entry-over-256mib": (tar_one_entry_too_big, "package/big0.bin", "256 MiB"),
    "tar-total-over-512mib": (tar_total_too_big, "package/big2.bin", "512 MiB"),
    "zip-dotdot": (zip_dotdot, "../zip-evil.txt", "'..'"),
    "zip-absolute-path": (zip_absolute, "zip-abs-evil.txt", "absolute path"),
    "zip-symlink-outside": (zip_symlink_out, "escape", "outside the archive root"),
    "zip-fifo": (zip_fifo, "pipe", "FIFO"),
}


def slow_if_big(case: str) -> object:
    # over 50,000 entries: over a second on a loaded machine (pytest -m "not slow" skips it)
    return pytest.param(case, marks=pytest.mark.slow) if case == "tar-too-many-entries" else case
