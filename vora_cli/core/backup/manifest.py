"""The backup manifest: the gateway's fields plus vora's per-entry `files` and `changedDuringBackup`,
which the gateway's verify ignores (docs/backup.md, "The archive").
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Mapping
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.backup.layout import PAYLOAD, SCHEMA_VERSION, PathIndex
from vora_cli.core.backup.limits import MAX_ENTRIES
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_MANIFEST_BYTES = 256 * 1024 * 1024  # ~1,000,000 file records; a manifest is parsed whole


def mode_text(mode: int) -> str:
    """`0600`: permission bits as `ls` and `chmod` write them."""
    return f"{mode & 0o7777:04o}"


WIDE_BITS = 0o7002  # setuid, setgid, sticky, world-writable


def wide_mode(mode: int) -> bool:
    """A mode no archive of vora's holds and no restore applies (docs/backup.md, "The archive")."""
    return bool(mode & WIDE_BITS)


def archived_mode(mode: int) -> int:
    """The mode `backup create` records for a file or folder: its own, less the wide bits."""
    return mode & 0o7777 & ~WIDE_BITS


@dataclass(frozen=True)
class Asset:
    """One source path in the archive: `kind` is the gateway's (state, config, credentials,
    workspace) or vora's (sessions, plugin-link)."""

    kind: str
    source_path: Path
    archive_path: str

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "sourcePath": str(self.source_path), "archivePath": self.archive_path}


@dataclass(frozen=True)
class Skipped:
    """Something left out, and why: a whole asset (`missing`, `covered`, `not-asked`) or one
    entry inside one (`lock-file`, `temp-file`, `special-file`, `symlink-out`, `unreadable`,
    `backup-archive`, `not-asked`)."""

    kind: str
    source_path: Path
    reason: str
    detail: str
    covered_by: str | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "sourcePath": str(self.source_path), "reason": self.reason}
        if self.covered_by is not None:
            data["coveredBy"] = self.covered_by
        data["detail"] = self.detail
        return data


_NEVER = {
    "lock-file": "never: a lock belongs to the writer that holds it",
    "temp-file": "never: half of a write in progress (the finished file is in)",
    "special-file": "never: sockets, FIFOs and devices hold no data",
    "backup-archive": "never: archives are not backed up again",
    "symlink-out": "keep what it points to inside the install, or back that up yourself",
    "unreadable": "make it readable by you, then back up again",
    "vanished": "nothing: it was removed while the backup ran",
    "missing": "nothing: it does not exist",
}
_FLAGS = {"state": "add --include-logs", "workspace": "leave out --no-workspace", "plugin-link": "add --include-links"}


def how_to_include(skipped: Skipped) -> str:
    """What would bring a left-out path into the next backup, in an operator's words."""
    if skipped.reason == "not-asked":
        return _FLAGS.get(skipped.kind, "")
    return _NEVER.get(skipped.reason, "")


def left_out(skipped: tuple[Skipped, ...]) -> tuple[Skipped, ...]:
    """What is really missing from an archive: a `covered` asset is in it, inside another one."""
    return tuple(s for s in skipped if s.reason != "covered")


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One archive entry as vora wrote it. `changed`: how the source changed while it was read
    (`appended`, `modified`, `replaced`, `removed`), `left_out`: bytes of a torn last line that
    were not copied."""

    path: str
    type: str  # file | dir | symlink
    mode: int | None = None
    size: int | None = None
    sha256: str | None = None
    target: str | None = None
    changed: str | None = None
    left_out: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"path": self.path, "type": self.type}
        if self.mode is not None:
            data["mode"] = mode_text(self.mode)
        if self.type == "file":
            data["size"] = self.size
            data["sha256"] = self.sha256
        if self.target is not None:
            data["target"] = self.target
        if self.changed is not None:
            data["changed"] = self.changed
        if self.left_out:
            data["leftOut"] = self.left_out
        return data


@dataclass(frozen=True)
class Manifest:
    """A parsed manifest: what verify and restore need, and the object as it was written."""

    archive_root: str
    created_at: str
    assets: tuple[Asset, ...]
    files: tuple[FileRecord, ...] | None  # None: a gateway manifest, which has no hashes
    created_by: str | None
    raw: Mapping[str, Any]

    @property
    def has_hashes(self) -> bool:
        return self.files is not None


def build_manifest(*, created_at: str, root: str, created_by: str, platform: str, options: Mapping[str, Any],
                   paths: Mapping[str, Any], assets: tuple[Asset, ...], skipped: tuple[Skipped, ...],
                   files: list[FileRecord], had_config: bool | None = None) -> bytes:
    changed = [{"path": f.path, "changed": f.changed, **({"leftOut": f.left_out} if f.left_out else {})}
               for f in files if f.changed is not None or f.left_out]
    document = {
        "schemaVersion": SCHEMA_VERSION,
        "createdAt": created_at,
        "archiveRoot": root,
        "createdBy": created_by,
        "platform": platform,
        "options": dict(options),
        "paths": dict(paths),
        **({} if had_config is None else {"hadConfig": had_config}),
        "assets": [a.to_dict() for a in assets],
        "skipped": [s.to_dict() for s in skipped],
        "changedDuringBackup": changed,
        "files": [f.to_dict() for f in files],
    }
    return (json.dumps(document, indent=2) + "\n").encode("utf-8", "backslashreplace")


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


class _BadRecord:
    """A `files` record that breaks a rule, kept until its index is known (the error names it)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _record(item: dict[str, Any]) -> FileRecord | _BadRecord:
    path, kind = _text(item.get("path")), item.get("type")
    if path is None or kind not in ("file", "dir", "symlink"):
        return _BadRecord("needs a path and a type (file, dir or symlink)")
    mode = item.get("mode")
    if mode is not None and not (isinstance(mode, str) and len(mode) == 4 and set(mode) <= set("01234567")):
        return _BadRecord(".mode must be four octal digits")
    size, digest = item.get("size"), item.get("sha256")
    if kind == "file":
        if not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return _BadRecord(".size must be a whole number of bytes")
        if not (isinstance(digest, str) and len(digest) == 64 and set(digest) <= set("0123456789abcdef")):
            return _BadRecord(".sha256 must be 64 lowercase hex digits")
    target = item.get("target")
    if kind == "symlink" and not isinstance(target, str):
        return _BadRecord(".target must be the link's target")
    return FileRecord(path, kind, int(mode, 8) if isinstance(mode, str) else None,
                      size if kind == "file" else None, digest if kind == "file" else None,
                      target if isinstance(target, str) else None)


class _TooMany(ValueError):
    pass


class _Records:
    """The JSON decoder's object hook: each `{path, type, …}` object becomes its FileRecord as soon
    as it is read, so a manifest of a million files is never a million dicts as well; past
    MAX_ENTRIES of them the parse stops (no archive holds more entries)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, item: dict[str, Any]) -> Any:
        if "path" not in item or "type" not in item:
            return item
        self.count += 1
        if self.count > MAX_ENTRIES:
            raise _TooMany(f"the manifest lists more than {MAX_ENTRIES:,} files, more than an archive may hold")
        return _record(item)


def parse_manifest(data: bytes | bytearray) -> Manifest:
    """The gateway's manifest rules (its `parseManifest`), then vora's `files` when present.
    Raises ValueError with the first broken rule."""
    try:
        parsed = nesting.loads(data.decode("utf-8", "replace"), object_hook=_Records())
    except _TooMany:
        raise
    except ValueError as exc:
        raise ValueError(f"the manifest is not valid JSON: {exc}") from None
    if not isinstance(parsed, dict):
        raise ValueError("the manifest must be a JSON object")
    if parsed.get("schemaVersion") != SCHEMA_VERSION:
        raise ValueError(f"unsupported manifest schemaVersion: {parsed.get('schemaVersion')!r} (vora reads 1)")
    root, created = _text(parsed.get("archiveRoot")), _text(parsed.get("createdAt"))
    if root is None:
        raise ValueError("the manifest is missing archiveRoot")
    if created is None:
        raise ValueError("the manifest is missing createdAt")
    if not isinstance(parsed.get("assets"), list):
        raise ValueError("the manifest is missing assets")
    assets = []
    for i, item in enumerate(parsed["assets"]):
        if not isinstance(item, dict):
            raise ValueError(f"assets[{i}] is not an object")
        fields = [_text(item.get(k)) for k in ("kind", "sourcePath", "archivePath")]
        if None in fields:
            raise ValueError(f"assets[{i}] needs kind, sourcePath and archivePath")
        kind, source, archive_path = (str(f) for f in fields)
        assets.append(Asset(kind, Path(source), archive_path.rstrip("/")))
    files: tuple[FileRecord, ...] | None = None
    if "files" in parsed:
        if not isinstance(parsed["files"], list):
            raise ValueError("the manifest's files must be a list")
        for i, item in enumerate(parsed["files"]):
            if not isinstance(item, FileRecord):
                why = item.why if isinstance(item, _BadRecord) else \
                    " is not an object" if not isinstance(item, dict) else " needs a path and a type (file, dir or symlink)"
                raise ValueError(f"files[{i}]{'' if why.startswith(('.', ' ')) else ' '}{why}")
        files = tuple(parsed["files"])
    created_by = parsed.get("createdBy")
    return Manifest(root, created, tuple(assets), files, created_by if isinstance(created_by, str) else None, parsed)


def asset_problems(manifest: Manifest) -> Iterator[tuple[str, str, str]]:
    """What the install's own rules refuse in the assets, whatever else the manifest says:
    (path, problem, detail). A `sourcePath` is where restore writes, so it must be absolute,
    normal, and the very path its `payload/posix/` folder spells; no two assets may share a
    target, nor one lie inside another."""
    raw = manifest.raw.get("assets")
    sources: PathIndex[Asset] = PathIndex()
    spelled = f"{manifest.archive_root}/{PAYLOAD}/posix"
    for index, asset in enumerate(manifest.assets):
        item = raw[index] if isinstance(raw, list) and index < len(raw) else {}
        source = str(item.get("sourcePath", asset.source_path))
        if not source.startswith("/") or "\x00" in source or posixpath.normpath(source) != source:
            yield (asset.archive_path, "source-path",
                   f"the {asset.kind} asset's sourcePath {source!r} is not an absolute, normal path")
            continue
        if asset.archive_path != spelled + source:
            holds = asset.archive_path[len(spelled):] if is_within(asset.archive_path, spelled) else "no payload/posix path"
            yield (asset.archive_path, "source-path",
                   f"the {asset.kind} asset's sourcePath {source} is not the path its member spells "
                   f"({asset.archive_path} holds {holds})")
            continue
        other = sources.clash(source)
        if other is not None:
            yield (asset.archive_path, "shared-target",
                   f"the {asset.kind} asset {source} and the {other.kind} asset {other.source_path} share a target")
        else:
            sources.put(source, asset)
