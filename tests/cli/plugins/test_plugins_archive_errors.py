"""Issue 12 point 20: archive errors name the archive entry (or `archive:folder`), never vora's
staging path; nothing is left behind."""

from __future__ import annotations

import json
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import add_tar_bytes, write_config

from tests.conftest import Run

MANIFEST = b'{ id: "arch", configSchema: {} }'
PACKAGE = json.dumps({"name": "arch", "vora": {"extensions": ["./index.js"]}}).encode()


def _tar(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with tarfile.open(path, "w:gz") as tf:
        for name, data in members:
            add_tar_bytes(tf, name, data)
    return path


def _zip(path: Path, members: list[tuple[str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members:
            zf.writestr(name, data)
    return path


LONG = "n" * 300
CASES = {
    # name: (members, what the message must hold)
    "no-package-json": ([("package/vora.plugin.json", MANIFEST), ("package/index.js", b"")],
                        "package.json: not found in {archive}:package"),
    "no-manifest-top-level": ([("package.json", PACKAGE), ("index.js", b""), ("x/y.js", b"")],
                              "no plugin manifest in {archive}: neither vora.plugin.json nor openclaw.plugin.json is there"),
    "name-too-long": ([("package/vora.plugin.json", MANIFEST), ("package/package.json", PACKAGE),
                       (f"package/{LONG}.js", b"")], "entry 'package/" + LONG + ".js'"),
    "file-then-below-it": ([("package/vora.plugin.json", MANIFEST), ("package/package.json", PACKAGE),
                            ("package/lib", b"file"), ("package/lib/x.js", b"")], "entry 'package/lib/x.js'"),
}


@pytest.mark.parametrize("fmt", ["tgz", "zip"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_archive_errors_name_the_entry(case: str, fmt: str, tmp_path: Path, state_dir: Path,
                                       vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    before = (state_dir / "vora.json").read_text()
    members, expected = CASES[case]
    archive = (_tar if fmt == "tgz" else _zip)(tmp_path / f"arch.{fmt}", members)
    result = vora("plugins", "install", str(archive), "--json")
    assert result.exit_code == 1, result.stdout
    error = result.json()["error"]
    text = error["message"] + (error["hint"] or "")
    assert ".staging-" not in text and str(state_dir) not in text, text
    assert expected.format(archive=archive.name) in error["message"]
    assert (state_dir / "vora.json").read_text() == before
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


def test_a_duplicate_entry_is_named_not_the_staging_file(tmp_path: Path, state_dir: Path,
                                                        vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    archive = tmp_path / "dup.tgz"
    with tarfile.open(archive, "w:gz") as tf:
        add_tar_bytes(tf, "package/vora.plugin.json", MANIFEST)
        add_tar_bytes(tf, "package/package.json", PACKAGE)
        add_tar_bytes(tf, "package/index.js", b"1")
        add_tar_bytes(tf, "./package/index.js", b"2")
    result = vora("plugins", "install", str(archive), "--json")
    error = result.json()["error"]
    assert ".staging-" not in error["message"]
    assert "'./package/index.js' appears twice" in error["message"]
