"""Builders shared by the plugins tests: plugin folders, archives, config files, npm's own failure output,
the published packages of `tests/data/plugins/npm/`."""

from __future__ import annotations

import io
import json
import os
import subprocess
import tarfile
import zipfile
from pathlib import Path

NPM_DATA = Path(__file__).resolve().parents[1] / "data" / "plugins" / "npm"  # the published tarballs

CONFIG_TEXT = """// vora.json for the plugins tests — comments must survive every write
{
  gateway: { port: 18789 }, // keep me
  plugins: {
    enabled: true,
  },
}
"""

ENGINE_JS = """export default function register(api) {
  api.registerContextEngine(%s, () => ({ info: { id: %s } }));
}
"""


def make_plugin(
    root: Path,
    plugin_id: str = "my-engine",
    *,
    kind: str | list[str] | None = "context-engine",
    version: str = "0.1.0",
    name: str | None = None,
    dependencies: dict[str, str] | None = None,
    built: bool = True,
    engine_id: str | None = None,
    schema: dict[str, object] | None = None,
) -> Path:
    """A plugin folder: vora.plugin.json (JSON5, with a comment), package.json, dist/index.js."""
    root.mkdir(parents=True, exist_ok=True)
    manifest: dict[str, object] = {"id": plugin_id, "version": version, "configSchema": schema or {"type": "object"}}
    if kind is not None:
        manifest["kind"] = kind
    (root / "vora.plugin.json").write_text("// manifest\n" + json.dumps(manifest, indent=2) + "\n")
    package = {
        "name": name or plugin_id,
        "version": version,
        "vora": {"extensions": ["./dist/index.js"]},
        "dependencies": dependencies or {},
    }
    (root / "package.json").write_text(json.dumps(package, indent=2) + "\n")
    if built:
        (root / "dist").mkdir(exist_ok=True)
        registered = json.dumps(engine_id or plugin_id)
        (root / "dist" / "index.js").write_text(ENGINE_JS % (registered, registered))
    return root


def write_config(state_dir: Path, text: str = CONFIG_TEXT) -> Path:
    path = state_dir / "vora.json"
    path.write_text(text)
    return path


def tar_of(folder: Path, archive: Path, prefix: str = "package") -> Path:
    mode = "w:gz" if archive.name.endswith((".tgz", ".tar.gz")) else "w"
    with tarfile.open(archive, mode) as tf:
        tf.add(folder, arcname=prefix)
    return archive


def zip_of(folder: Path, archive: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder).as_posix()
            zf.write(path, f"{prefix}/{rel}" if prefix else rel)
    return archive


def add_tar_bytes(tf: tarfile.TarFile, name: str, data: bytes = b"x") -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tf.addfile(info, io.BytesIO(data))


def add_tar_special(tf: tarfile.TarFile, name: str, type_: bytes, linkname: str = "") -> None:
    info = tarfile.TarInfo(name)
    info.type = type_
    info.linkname = linkname
    tf.addfile(info)


def snapshot(root: Path) -> set[str]:
    """Every path under `root` (files, dirs, links), relative."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            found.add(os.path.relpath(os.path.join(dirpath, name), root))
    return found


# npm's own output when it fails (npm 10, npm 6), as vora reads it.
NPM_10_E404 = """npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fthing - Not found
npm error 404
npm error 404  The requested resource '@acme/thing@*' could not be found or you do not have permission to access it.
npm error A complete log of this run can be found in: /home/ada/.npm/_logs/2026-11-30T15_50_52_790Z-debug-0.log
"""


NPM_6_OFFLINE = """npm ERR! code ENOTFOUND
npm ERR! errno ENOTFOUND
npm ERR! network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo ENOTFOUND registry.npmjs.org

npm ERR! A complete log of this run can be found in:
npm ERR!     /root/.npm/_logs/2026-11-30T10_00_00_000Z-debug.log
"""


def unpacked(tarball: str, where: Path) -> Path:
    """The published tarball `tarball` (in NPM_DATA) extracted into `where`; its package folder."""
    with tarfile.open(NPM_DATA / tarball) as archive:
        archive.extractall(where, filter="data")
    return where / "package"


def scan_case_package(case: dict, where: Path) -> Path:
    """A case of `tests/data/upstream/install_scan_cases.json` laid out under `where`: its package folder
    (its `files`, `generate`d files and `copies`, or a published tarball of NPM_DATA extracted)."""
    if "tarball" in case:
        with tarfile.open(NPM_DATA / case["tarball"]) as archive:
            archive.extractall(where, filter="data")
        return where / "package"
    root = where / "package"
    for name, text in case["files"].items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    for name, (line, times) in case.get("generate", {}).items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(line * times, encoding="utf-8")
    for pattern, (text, count) in case.get("copies", {}).items():
        for i in range(count):
            (root / (pattern % i)).parent.mkdir(parents=True, exist_ok=True)
            (root / (pattern % i)).write_text(text, encoding="utf-8")
    return root


def pack_tiny_dep(tmp_path: Path) -> Path:
    """`tiny-dep-1.0.0.tgz` in tmp_path, packed by the real npm: a production dependency npm can
    install offline (`file:` spec)."""
    dep = tmp_path / "dep"
    dep.mkdir()
    (dep / "package.json").write_text('{"name": "tiny-dep", "version": "1.0.0"}')
    (dep / "index.js").write_text("module.exports = 1;\n")
    subprocess.run(["npm", "pack", str(dep), "--pack-destination", str(tmp_path)], check=True, capture_output=True)
    return tmp_path / "tiny-dep-1.0.0.tgz"


DEEP = 1_100  # deeper than Python's recursion limit: a recursive walk, copy or removal would crash (`deep_tree`)

