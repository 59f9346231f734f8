"""Archives: real tar/zip/npm-pack installs, and every hostile archive refused with nothing leaking.

Each hostile case asserts three things: the error names the entry, no path appeared anywhere
under the test's tmp dir (the staging dir is gone too, nothing landed outside it), and
vora.json is byte-identical.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import (
    add_tar_bytes,
    add_tar_special,
    make_plugin,
    snapshot,
    tar_of,
    write_config,
    zip_of,
)

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins import archive
from vora_cli.core.plugins.archive import check_archive, extract_archive, find_package_root

# -- real archives ----------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".tgz", ".tar.gz", ".tar"])
def test_install_from_tar_archive(tmp_path: Path, state_dir: Path, vora, suffix: str) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "my-engine")
    tarball = tar_of(plugin, tmp_path / f"my-engine{suffix}")
    result = vora("plugins", "install", str(tarball), "--json")
    assert result.exit_code == 0, result.stdout
    data = result.json()
    assert data["id"] == "my-engine"
    assert data["record"]["source"] == "archive"
    assert data["record"]["sourcePath"] == str(tarball)
    installed = state_dir / "extensions" / "my-engine"
    assert (installed / "dist" / "index.js").read_text() == (plugin / "dist" / "index.js").read_text()
    assert sorted(p.name for p in (state_dir / "extensions").iterdir()) == ["my-engine"]


def test_install_from_zip_with_top_level_package_json(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "zipped", "zipped")
    result = vora("plugins", "install", str(zip_of(plugin, tmp_path / "zipped.zip")))
    assert result.exit_code == 0, result.stderr
    assert "Installed plugin zipped (0.1.0) -> " in result.stdout
    assert (state_dir / "extensions" / "zipped" / "vora.plugin.json").is_file()


def test_install_from_zip_with_single_top_folder(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "folder-eng", "folder-eng")
    result = vora("plugins", "install", str(zip_of(plugin, tmp_path / "f.zip", prefix="folder-eng-1.0")))
    assert result.exit_code == 0, result.stderr
    assert (state_dir / "extensions" / "folder-eng" / "package.json").is_file()


def test_package_root_detection_order(tmp_path: Path) -> None:
    both = tmp_path / "both"
    (both / "package").mkdir(parents=True)
    (both / "package.json").write_text("{}")
    assert find_package_root(both) == both / "package"
    top = tmp_path / "top"
    (top / "sub").mkdir(parents=True)
    (top / "vora.plugin.json").write_text("{}")
    assert find_package_root(top) == top
    many = tmp_path / "many"
    (many / "a").mkdir(parents=True)
    (many / "b").mkdir()
    with pytest.raises(VoraError, match="cannot find the plugin in the archive"):
        find_package_root(many)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_install_tarball_from_real_npm_pack(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    plugin = make_plugin(tmp_path / "src" / "packed", "@acme/packed", name="@acme/packed", version="1.2.3")
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run(["npm", "pack", str(plugin), "--ignore-scripts", "--json", "--pack-destination", str(out)],
                          capture_output=True, text=True, check=True, cwd=out)
    tarball = out / json.loads(done.stdout)[0]["filename"]
    result = vora("plugins", "install", str(tarball), "--json")
    assert result.exit_code == 0, result.stdout
    folder = state_dir / "extensions" / result.json()["installPath"].rsplit("/", 1)[-1]
    assert folder.name.startswith("@acmepacked-")
    assert (folder / "dist" / "index.js").is_file()
    assert result.json()["version"] == "1.2.3"


def test_npm_pack_helper_reads_npm_json(tmp_path: Path) -> None:
    if shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    from vora_cli.core.plugins.npm import npm_pack

    plugin = make_plugin(tmp_path / "src" / "helper", "helper")
    dest = tmp_path / "dest"
    dest.mkdir()
    pack = npm_pack(str(plugin), dest)
    assert pack.tarball.is_file() and pack.name == "helper" and pack.version == "0.1.0"
    assert pack.integrity and pack.integrity.startswith("sha512-")


# -- hostile archives -------------------------------------------------------------------------

Builder = Callable[[Path], Path]


def _tar(path: Path, fill: Callable[[tarfile.TarFile], None]) -> Path:
    with tarfile.open(path, "w") as tf:
        fill(tf)
    return path


def _base(tf: tarfile.TarFile) -> None:
    """A valid plugin at the top, so only the hostile entry is wrong."""
    add_tar_bytes(tf, "package/vora.plugin.json", b'{"id": "evil", "configSchema": {}}')
    add_tar_bytes(tf, "package/package.json", b'{"name": "evil", "vora": {"extensions": ["./index.js"]}}')
    add_tar_bytes(tf, "package/index.js", b"//")


def tar_absolute(d: Path) -> Path:
    return _tar(d / "abs.tar", lambda tf: (_base(tf), add_tar_bytes(tf, str(d / "abs-evil.txt"))))


def tar_dotdot(d: Path) -> Path:
    return _tar(d / "dotdot.tar", lambda tf: (_base(tf), add_tar_bytes(tf, "package/../../dotdot-evil.txt")))


def tar_symlink_out(d: Path) -> Path:
    return _tar(d / "symlink.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/out", tarfile.SYMTYPE, "../../..")))


def tar_symlink_absolute(d: Path) -> Path:
    return _tar(d / "symabs.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/pw", tarfile.SYMTYPE, "/etc/passwd")))


def tar_symlink_chain(d: Path) -> Path:
    # Each link looks inside the root on paper; together they climb out (s -> ".", t -> "s/s/..").
    def fill(tf: tarfile.TarFile) -> None:
        _base(tf)
        add_tar_special(tf, "s", tarfile.SYMTYPE, ".")
        add_tar_special(tf, "t", tarfile.SYMTYPE, "s/s/..")
    return _tar(d / "chain.tar", fill)


def tar_below_symlink(d: Path) -> Path:
    def fill(tf: tarfile.TarFile) -> None:
        _base(tf)
        add_tar_special(tf, "package/lib", tarfile.SYMTYPE, "sub")
        add_tar_bytes(tf, "package/lib/x.js")
    return _tar(d / "below.tar", fill)


def tar_hardlink_out(d: Path) -> Path:
    return _tar(d / "hard.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/h", tarfile.LNKTYPE, "../../etc/passwd")))


def tar_device(d: Path) -> Path:
    return _tar(d / "dev.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/null", tarfile.CHRTYPE)))


def tar_block_device(d: Path) -> Path:
    return _tar(d / "blk.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/sda", tarfile.BLKTYPE)))


def tar_fifo(d: Path) -> Path:
    return _tar(d / "fifo.tar", lambda tf: (_base(tf), add_tar_special(tf, "package/pipe", tarfile.FIFOTYPE)))


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
        _base(tf)
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


def _zip(path: Path, extra: Callable[[zipfile.ZipFile], None]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("vora.plugin.json", '{"id": "evil", "configSchema": {}}')
        zf.writestr("package.json", '{"name": "evil", "vora": {"extensions": ["./index.js"]}}')
        zf.writestr("index.js", "//")
        extra(zf)
    return path


def zip_dotdot(d: Path) -> Path:
    return _zip(d / "dotdot.zip", lambda zf: zf.writestr("../zip-evil.txt", "x"))


def zip_absolute(d: Path) -> Path:
    return _zip(d / "abs.zip", lambda zf: zf.writestr(str(d / "zip-abs-evil.txt"), "x"))


def zip_symlink_out(d: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("escape")
        info.external_attr = (0o120777 << 16)
        zf.writestr(info, "../../..")
    return _zip(d / "symlink.zip", extra)


def zip_fifo(d: Path) -> Path:
    def extra(zf: zipfile.ZipFile) -> None:
        info = zipfile.ZipInfo("pipe")
        info.external_attr = (0o010644 << 16)
        zf.writestr(info, "")
    return _zip(d / "fifo.zip", extra)


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


def _slow_if_big(case: str) -> object:
    # over 50,000 entries: over a second on a loaded machine (pytest -m "not slow" skips it)
    return pytest.param(case, marks=pytest.mark.slow) if case == "tar-too-many-entries" else case


@pytest.mark.parametrize("case", [_slow_if_big(c) for c in sorted(HOSTILE)])
def test_hostile_archive_is_refused_and_nothing_leaks(case: str, tmp_path: Path, state_dir: Path, vora) -> None:
    build, entry, why = HOSTILE[case]
    attack = tmp_path / "attack"
    attack.mkdir()
    config = write_config(state_dir)
    before_config = config.read_bytes()
    (state_dir / "extensions").mkdir()
    hostile = build(attack)
    before = snapshot(tmp_path)
    result = vora("plugins", "install", str(hostile), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    assert error["code"] == "refused", error
    assert entry.strip("'") in error["message"] and why in error["message"], error["message"]
    assert snapshot(tmp_path) == before  # no staging dir left, nothing written anywhere
    assert config.read_bytes() == before_config


@pytest.mark.parametrize("case", [_slow_if_big(c) for c in sorted(HOSTILE) if c != "tar-symlink-chain"])
def test_hostile_archive_refused_from_headers_before_extracting(case: str, tmp_path: Path) -> None:
    build, _entry, _why = HOSTILE[case]
    attack = tmp_path / "attack"
    attack.mkdir()
    hostile = build(attack)
    dest = tmp_path / "staging"
    dest.mkdir()
    with pytest.raises(VoraError):
        extract_archive(hostile, dest)
    assert list(dest.iterdir()) == []  # refused on the headers: not one byte was extracted


def test_harmless_links_inside_the_root_are_kept(tmp_path: Path) -> None:
    def fill(tf: tarfile.TarFile) -> None:
        _base(tf)
        add_tar_bytes(tf, "package/lib/real.js", b"ok")
        add_tar_special(tf, "package/alias.js", tarfile.SYMTYPE, "lib/real.js")
        add_tar_special(tf, "package/copy.js", tarfile.LNKTYPE, "package/lib/real.js")
    src = _tar(tmp_path / "ok.tar", fill)
    dest = tmp_path / "x"
    dest.mkdir()
    extract_archive(src, dest)
    assert (dest / "package" / "alias.js").is_symlink()
    assert (dest / "package" / "alias.js").read_text() == "ok"
    assert (dest / "package" / "copy.js").read_text() == "ok"


def test_corrupt_archive_is_invalid(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tgz"
    bad.write_bytes(b"not a tarball at all")
    with pytest.raises(VoraError) as info:
        check_archive(bad)
    assert info.value.code == "invalid"
