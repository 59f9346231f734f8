"""How the gateway (Node) reads a plugin's folder: the file system calls and the files it reads.

What `registry.py` asks of one path, answered in the gateway's words (openclaw 2026.4.12,
`discovery.ts`, `manifest.ts`, `bundle-manifest.ts`, `boundary-file-read.ts`).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Mapping

from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.paths import is_within
from vora_cli.core.plugins.manifest import PACKAGE_BLOCKS, PACKAGE_FILE, UPSTREAM_MANIFEST_FILE
from vora_cli.core.plugins.reads import PluginReads
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

EXTENSION_SUFFIXES = frozenset((".ts", ".js", ".mts", ".cts", ".mjs", ".cjs"))
IGNORED_FOLDERS = frozenset((".git", ".hg", ".svn", ".turbo", ".yarn", ".yarn-cache", "build", "coverage", "dist",
                             "node_modules"))
INDEX_FILES = ("index.ts", "index.js", "index.mjs", "index.cjs")
BUNDLE_MANIFESTS = (("codex", ".codex-plugin/plugin.json"), ("cursor", ".cursor-plugin/plugin.json"),
                    ("claude", ".claude-plugin/plugin.json"))
CLAUDE_BUNDLE_MARKS = ("skills", "commands", "agents", "hooks/hooks.json", ".mcp.json", ".lsp.json", "settings.json")
# Node's words for the file system errors a listing meets (libuv's `uv_strerror`).
_NODE_ERRORS = {errno.ENOTDIR: "not a directory", errno.EACCES: "permission denied",
                errno.EPERM: "operation not permitted", errno.ELOOP: "too many symbolic links encountered",
                errno.EIO: "i/o error", errno.ENOENT: "no such file or directory"}


def stat_of(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):  # ValueError: a NUL byte or a lone surrogate, which no file can have
        return None


def exists(path: str) -> bool:
    """`fs.existsSync`: follows symlinks; any failure is "no"."""
    return stat_of(path) is not None


def real_path(path: str) -> str | None:
    """`fs.realpathSync`, or None when it fails (a missing path)."""
    try:
        return os.path.realpath(path, strict=True)
    except (OSError, ValueError):
        return None


class RealPaths:
    """`fs.realpathSync` for one walk of the registry. Python's `realpath` lstats every component
    of a path, and a walk asks of the same folders again and again (each plugin's folder for its
    package.json, its manifest, its entry, its candidate): a folder's real path is looked up once,
    and a file's is its folder's and its name unless the file itself is a symlink."""

    def __init__(self) -> None:
        self._folders: dict[str, str | None] = {}

    def folder(self, path: str) -> str | None:
        path = os.path.normpath(path)
        if path not in self._folders:
            parent = os.path.dirname(path)
            if parent == path:  # the root
                self._folders[path] = path
            else:
                up = self.folder(parent)
                self._folders[path] = None if up is None else self._below(up, path)
        return self._folders[path]

    def _below(self, real_parent: str, path: str) -> str | None:
        try:
            info = os.lstat(path)
        except (OSError, ValueError):
            return None
        return real_path(path) if stat.S_ISLNK(info.st_mode) else os.path.join(real_parent, os.path.basename(path))

    def of(self, path: str) -> str | None:
        return self.lookup(path)[0]

    def lookup(self, path: str) -> tuple[str | None, os.stat_result | None]:
        """`of(path)`, and the lstat of the real path when `path` itself is not a symlink (the
        same file's: its folders' links resolved), else None."""
        try:
            info = os.lstat(path)
        except (OSError, ValueError):
            return None, None
        if stat.S_ISLNK(info.st_mode):
            return real_path(path), None
        if stat.S_ISDIR(info.st_mode):
            return self.folder(path), info
        parent = self.folder(os.path.dirname(path))
        return (os.path.join(parent, os.path.basename(path)), info) if parent is not None else (None, None)


def node_error(error: OSError, syscall: str, path: str) -> str:
    """`String(err)` of a Node fs error: `Error: ENOTDIR: not a directory, scandir '/x'`."""
    number = error.errno or 0
    code = errno.errorcode.get(number, "EIO")
    words = _NODE_ERRORS.get(number) or os.strerror(number).lower()
    return f"Error: {code}: {words}, {syscall} '{path}'"


def open_inside(path: str, root: str, reals: RealPaths | None = None) -> tuple[str, str | None]:
    """The gateway's `openBoundaryFileSync` (a file read only inside its folder, never a hard link):
    ("ok", the real path), else the reason it gives: "path" (not there), "validation" (outside the
    folder, not a regular file, hard-linked) or "io" (could not be opened)."""
    kind, real, _text = _open_inside(path, root, reals, None)
    return kind, real


def read_inside(path: str, root: str, reals: RealPaths | None = None,
                reads: PluginReads | None = None) -> tuple[str, str | None, str | None]:
    """`open_inside`, and the text of the file it opened (None when it is not "ok" or cannot be
    read): read from the descriptor that passed the gateway's rules, through the run's `reads`."""
    return _open_inside(path, root, reals, reads or PluginReads())


def _open_inside(path: str, root: str, reals: RealPaths | None,
                 reads: PluginReads | None) -> tuple[str, str | None, str | None]:
    reals = reals or RealPaths()
    path, root = os.path.normpath(path), os.path.normpath(root)
    if not is_within(path, root):
        return "validation", None, None
    try:
        real_root = reals.folder(root) or os.path.realpath(root)
        real, info = reals.lookup(path)
        if real is None:  # not there, or a link to nothing: where it would lead decides
            return ("path" if is_within(os.path.realpath(path), real_root) else "validation"), None, None
    except ValueError:
        return "path", None, None
    if not is_within(real, real_root):
        return "validation", None, None
    try:
        info = info or os.lstat(real)  # a link's target: its own lstat
    except (FileNotFoundError, NotADirectoryError, ValueError):
        return "path", None, None
    except OSError as error:
        return ("path" if error.errno == errno.ELOOP else "io"), None, None
    if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:
        return "validation", None, None
    try:
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except (FileNotFoundError, NotADirectoryError):
        return "path", None, None
    except OSError:
        return "io", None, None
    data: bytes | None = None
    try:
        opened, data = reads.read_fd(fd) if reads is not None else (os.fstat(fd), None)
        # what was opened is what was checked, as the gateway checks it after its open: a file
        # swapped in between (a hard link, another file) is refused as the checked one would be
        if (not stat.S_ISREG(opened.st_mode) or opened.st_nlink > 1
                or (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino)):
            return "validation", None, None
    except OSError:
        pass
    finally:
        os.close(fd)
    # A text as Node reads it (`utf-8`: a byte that is not UTF-8 becomes U+FFFD).
    return "ok", real, data.decode("utf-8", "replace") if data is not None else None


def is_extension_file(path: str) -> bool:
    """The gateway's `isExtensionFile`: a script by its suffix (case matters), not a `.d.ts`, not a test."""
    if os.path.splitext(path)[1] not in EXTENSION_SUFFIXES or path.endswith(".d.ts"):
        return False
    name = os.path.basename(path).lower()
    return ".test." not in name and ".live.test." not in name and ".e2e.test." not in name


def ignored_folder(name: str) -> bool:
    """The gateway's `shouldIgnoreScannedDirectory`: build output, VCS folders, kept-aside copies."""
    normalized = js_trim(name).lower()
    return (not normalized or normalized in IGNORED_FOLDERS or normalized.endswith(".bak")
            or ".backup-" in normalized or ".disabled" in normalized)


def trimmed(value: Any) -> str:
    """The gateway's `normalizeOptionalString`: a string trimmed, else empty."""
    return js_trim(value) if isinstance(value, str) else ""


def package_block(folder: str, reals: RealPaths | None = None,
                  reads: PluginReads | None = None) -> Mapping[str, Any] | None:
    """The package.json's `openclaw` block (the `vora` one first), or None: a package.json
    that is not there, not safe to read or not JSON (NaN and Infinity are not) counts as none,
    as for the gateway."""
    reads = reads or PluginReads()
    _kind, _real, text = read_inside(os.path.join(folder, PACKAGE_FILE), folder, reals, reads)
    if text is None:
        return None
    try:
        data = reads.json(text, finite=True)
    except (ValueError, VoraError):
        return None
    if not isinstance(data, dict):
        return None
    block = next((data[key] for key in PACKAGE_BLOCKS if key in data), None)
    return block if isinstance(block, dict) else None


def read_manifest(path: str, root: str, reals: RealPaths | None = None,
                  reads: PluginReads | None = None) -> tuple[str | None, Any]:
    """(why it cannot be read, None) or (None, its value), in the gateway's words."""
    reads = reads or PluginReads()
    kind, _real, text = read_inside(path, root, reals, reads)
    if kind == "path":
        return f"plugin manifest not found: {path}", None
    if text is None:
        return f"unsafe plugin manifest path: {path} ({kind if kind != 'ok' else 'io'})", None
    try:
        return None, reads.json5(text[1:] if text.startswith("\ufeff") else text, path)
    except ParseError as error:
        return f"failed to parse plugin manifest: {error.message}", None
    except VoraError as error:  # nested too deep
        return f"failed to parse plugin manifest: {error.message}", None


def bundle_format(folder: str) -> str | None:
    """The gateway's `detectBundleManifestFormat`: codex, cursor or claude, or None (no bundle)."""
    for kind, manifest in BUNDLE_MANIFESTS:
        if exists(os.path.join(folder, manifest)):
            return kind
    if exists(os.path.join(folder, UPSTREAM_MANIFEST_FILE)) or any(
            exists(os.path.join(folder, name)) for name in INDEX_FILES):
        return None
    return "claude" if any(exists(os.path.join(folder, mark)) for mark in CLAUDE_BUNDLE_MARKS) else None


def bundle_manifest(folder: str, kind: str, reals: RealPaths | None = None,
                    reads: PluginReads | None = None) -> tuple[str | None, str]:
    """(why a bundle's manifest cannot be read, "") or (None, its name) (`loadBundleManifestFile`)."""
    path = os.path.join(folder, dict(BUNDLE_MANIFESTS)[kind])
    if kind == "claude" and open_inside(path, folder, reals)[0] == "path":
        return None, ""  # a Claude bundle may go without one
    failure, data = read_manifest(path, folder, reals, reads)
    if failure is None and not isinstance(data, dict):
        failure = "plugin manifest must be an object"
    return failure, trimmed(data.get("name")) if isinstance(data, dict) else ""


def slug(name: str, folder: str) -> str:
    """The gateway's `slugifyPluginId`: a bundle's id from its name, else its folder's."""
    text = (js_trim(name).lower() or js_trim(os.path.basename(folder)).lower())
    text = re.sub(r"-+", "-", re.sub(r"[^a-z0-9]+", "-", text)).strip("-")
    return text or "bundle-plugin"
