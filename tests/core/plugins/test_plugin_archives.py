"""The archive reader: where the package root is, hostile archives refused on their headers before
one byte is extracted, harmless links kept, a corrupt archive `invalid`, and `npm pack` read from its
JSON. The same hostile archives through `vora plugins install` are in `tests/cli/plugins/test_archives.py`."""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pytest
from archive_support import HOSTILE, add_base_plugin, slow_if_big, tar_with
from plugins_support import add_tar_bytes, add_tar_special, make_plugin

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.archive import check_archive, extract_archive, find_package_root


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


@pytest.mark.parametrize("case", [slow_if_big(c) for c in sorted(HOSTILE) if c != "tar-symlink-chain"])
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
        add_base_plugin(tf)
        add_tar_bytes(tf, "package/lib/real.js", b"ok")
        add_tar_special(tf, "package/alias.js", tarfile.SYMTYPE, "lib/real.js")
        add_tar_special(tf, "package/copy.js", tarfile.LNKTYPE, "package/lib/real.js")
    src = tar_with(tmp_path / "ok.tar", fill)
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
