"""Backup test helpers: a realistic install, archive re-packing for tampering, and the gateway's
own `backup verify` rules as an oracle (pinned to its recorded answers in
tests/data/upstream/backup/, openclaw 2026.4.12)."""

from __future__ import annotations

import io
import json
import posixpath
import re
import socket
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sessions_support import Transcript

REPO = Path(__file__).resolve().parents[2]
UPSTREAM = REPO / "tests" / "data" / "upstream" / "backup"
GATEWAY_ARCHIVE = next(UPSTREAM.glob("*-openclaw-backup.tar.gz"))
VORA_ARCHIVE = next(UPSTREAM.glob("vora-archive-*.tar.gz"))

Member = tuple[tarfile.TarInfo, bytes | None]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def build_install(root: Path) -> tuple[Path, Path]:
    """A state dir with what a real one holds (config + include, a session store with two
    transcripts and a checkpoint, devices, credentials, logs, a lock file, modes 0600/0700/0640)
    and a workspace outside it. Returns (state dir, workspace)."""
    state, workspace = root / "state", root / "workspace"
    sessions = state / "agents" / "main" / "sessions"
    for folder in (sessions, state / "devices", state / "credentials", state / "logs", workspace / "skills" / "notes"):
        folder.mkdir(parents=True)
    state.chmod(0o700)
    (state / "vora.json").write_text(
        '// my install\n{\n  "$include": "./gateway.json5",\n'
        f'  agents: {{ defaults: {{ workspace: "{workspace}" }}, list: [{{ id: "main", default: true }}] }},\n}}\n')
    (state / "gateway.json5").write_text("{ gateway: { mode: 'local' } }\n")
    (workspace / "AGENTS.md").write_text("# Agents\nBe brief.\n")
    (workspace / "SOUL.md").write_text("calm\n")
    (workspace / "skills" / "notes" / "SKILL.md").write_text("---\nname: notes\n---\nWrite it down.\n")
    (workspace / "run.sh").write_text("#!/bin/sh\necho hi\n")
    (workspace / "run.sh").chmod(0o750)
    chat = Transcript("s-one")
    chat.user("hello")
    chat.assistant({"type": "text", "text": "hi there"})
    chat.write(sessions / "s-one.jsonl")
    other = Transcript("s-two")
    other.user("what is 2+2?")
    other.write(sessions / "s-two.jsonl")
    (sessions / "s-one.checkpoint.5b2e8f10-93c4-4d7a-a1e6-0f9b3c7d2e58.jsonl").write_text(chat.text())
    store = {"agent:main:main": {"sessionId": "s-one", "updatedAt": 1}, "agent:main:x": {"sessionId": "s-two", "updatedAt": 2}}
    (sessions / "sessions.json").write_text(json.dumps(store, indent=2))
    (sessions / "sessions.json").chmod(0o600)
    (sessions / "s-one.jsonl.lock").write_text('{"pid": 1, "createdAt": "2026-01-01T00:00:00.000Z"}')
    (sessions / "current").symlink_to("s-one.jsonl")
    (state / "devices" / "paired.json").write_text("{}")
    (state / "devices" / "pending.json").write_text("{}")
    (state / "credentials" / "oauth.json").write_text('{"token": "not-a-real-one"}')
    (state / "credentials" / "oauth.json").chmod(0o600)
    (state / "credentials").chmod(0o700)
    (state / "logs" / "devices-audit.jsonl").write_text('{"action": "approve"}\n')
    (workspace / "USER.md").write_text("me\n")
    (workspace / "USER.md").chmod(0o640)
    return state, workspace


def tree_snapshot(root: Path) -> dict[str, tuple[int, int, str]]:
    """Every path below `root` (itself included): its type and mode bits, size, and sha256 (file)
    or target (link); what a restore must leave byte-identical, modes included."""
    import hashlib
    import os
    import stat

    found = {}
    for path in [root, *root.rglob("*")]:
        info = os.lstat(path)
        if stat.S_ISREG(info.st_mode):
            what = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            what = os.readlink(path) if stat.S_ISLNK(info.st_mode) else "dir"
        found[str(path.relative_to(root))] = (info.st_mode, info.st_size if not stat.S_ISDIR(info.st_mode) else 0, what)
    return found


def members(archive: Path) -> list[Member]:
    found: list[Member] = []
    with tarfile.open(archive, "r:gz") as tar:
        for member in tar:
            stream = tar.extractfile(member) if member.isfile() else None
            found.append((member, stream.read() if stream is not None else None))
    return found


def repack(source: Path, dest: Path, change: Callable[[list[Member]], list[Member]]) -> Path:
    """A copy of `source` with its members passed through `change` (tampering, re-packed with
    valid gzip and tar framing, so only the content is wrong)."""
    items = change(members(source))
    with tarfile.open(dest, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for info, data in items:
            if data is not None:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
            else:
                tar.addfile(info)
    return dest


def entry(name: str, data: bytes | None = b"x", *, kind: bytes = tarfile.REGTYPE, link: str = "") -> Member:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE):
        info.devmajor, info.devminor = 1, 3
    return info, data if kind == tarfile.REGTYPE else None


def archive_root(archive: Path) -> str:
    return members(archive)[0][0].name.split("/")[0]


# -- the gateway's `backup verify` (openclaw 2026.4.12, dist/register.backup-*.js), as an oracle ----

class GatewayRefused(Exception):
    pass


def _normalize(raw: str, label: str) -> str:
    trimmed = raw.strip().rstrip("/")
    if not trimmed:
        raise GatewayRefused(f"{label} is empty.")
    if trimmed.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", trimmed):
        raise GatewayRefused(f"{label} must be relative: {raw}")
    if "\\" in trimmed:
        raise GatewayRefused(f"{label} must use forward slashes: {raw}")
    if any(seg in (".", "..") for seg in trimmed.split("/")):
        raise GatewayRefused(f"{label} contains path traversal segments: {raw}")
    normalized = posixpath.normpath(trimmed).rstrip("/")
    if normalized in ("", ".", "..") or normalized.startswith("../"):
        raise GatewayRefused(f"{label} resolves outside the archive root: {raw}")
    return normalized


def _within(child: str, parent: str) -> bool:
    relative = posixpath.relpath(child, parent)
    return relative == "." or (not relative.startswith("../") and relative != "..")


def _manifest_rules(raw: bytes) -> dict[str, Any]:
    parsed = json.loads(raw)
    if not isinstance(parsed, dict):
        raise GatewayRefused("Backup manifest must be an object.")
    if parsed.get("schemaVersion") != 1:
        raise GatewayRefused(f"Unsupported backup manifest schemaVersion: {parsed.get('schemaVersion')}")
    for key, what in (("archiveRoot", "archiveRoot"), ("createdAt", "createdAt")):
        if not isinstance(parsed.get(key), str) or not parsed[key].strip():
            raise GatewayRefused(f"Backup manifest is missing {what}.")
    if not isinstance(parsed.get("assets"), list):
        raise GatewayRefused("Backup manifest is missing assets.")
    for asset in parsed["assets"]:
        for key in ("kind", "sourcePath", "archivePath"):
            if not isinstance(asset, dict) or not isinstance(asset.get(key), str) or not asset[key].strip():
                raise GatewayRefused(f"Backup manifest asset is missing {key}.")
    return parsed


def gateway_verify(archive: Path) -> tuple[int, str]:
    """(exit code, the `Error: …` line or "") as the gateway's `backup verify` answers."""
    try:
        items = members(archive)
        if not items:
            raise GatewayRefused("Backup archive is empty.")
        entries = [(m.name, _normalize(m.name, "Archive entry")) for m, _d in items]
        manifests = [(raw, n) for raw, n in entries if len(n.split("/")) == 2 and n.split("/")[1] == "manifest.json"]
        if len(manifests) != 1:
            raise GatewayRefused(f"Expected exactly one backup manifest entry, found {len(manifests)}.")
        seen: set[str] = set()
        for _raw, name in entries:
            if name in seen:
                raise GatewayRefused(f"Archive contains duplicate entry path: {name}")
            seen.add(name)
        data = next(d for m, d in items if m.name == manifests[0][0])
        manifest = _manifest_rules(data or b"")
        root = _normalize(manifest["archiveRoot"], "Backup manifest archiveRoot")
        if "/" in root:
            raise GatewayRefused(f"Backup manifest archiveRoot must be a single path segment: {manifest['archiveRoot']}")
        if f"{root}/manifest.json" not in seen:
            raise GatewayRefused(f"Archive is missing manifest entry: {root}/manifest.json")
        for name in seen:
            if not _within(name, root):
                raise GatewayRefused(f"Archive entry is outside the declared archive root: {name}")
        for asset in manifest["assets"]:
            path = _normalize(asset["archivePath"], "Backup manifest asset path")
            if not _within(path, f"{root}/payload"):
                raise GatewayRefused(f"Manifest asset path is outside payload root: {asset['archivePath']}")
            if path not in seen and not any(n != path and _within(n, path) for n in seen):
                raise GatewayRefused(f"Archive is missing payload for manifest asset: {path}")
    except GatewayRefused as refused:
        return 1, f"Error: {refused}"
    return 0, ""


def tamperings(root: str, state: str) -> dict[str, Callable[[list[Member]], list[Member]]]:
    """The changes recorded against the gateway (tests/data/upstream/backup/README.md), for an
    archive whose root folder is `root` and whose state asset is at `state` in it."""

    def changed(items: list[Member]) -> list[Member]:
        return [(m, b"# AGENTS\nBe evil.\n" if m.name.endswith("/AGENTS.md") else d) for m, d in items]

    def schema2(items: list[Member]) -> list[Member]:
        out = []
        for m, d in items:
            if m.name == f"{root}/manifest.json":
                doc = json.loads(d or b"{}")
                doc["schemaVersion"] = 2
                d = (json.dumps(doc, indent=2) + "\n").encode()
            out.append((m, d))
        return out

    return {
        "changed_byte": changed,
        "missing_file": lambda items: [(m, d) for m, d in items if not m.name.endswith("/SOUL.md")],
        "extra_file": lambda items: [*items, entry(f"{state}/EXTRA.md", b"extra\n")],
        "traversal": lambda items: [*items, entry(f"{state}/../../../../../../../tmp/evil")],
        "symlink_out": lambda items: [*items, entry(f"{state}/out-link", kind=tarfile.SYMTYPE, link="/etc/passwd")],
        "device": lambda items: [*items, entry(f"{state}/null", kind=tarfile.CHRTYPE)],
        "outside_root": lambda items: [*items, entry("other-root/file")],
        "schema_version_2": schema2,
    }


def gateway_archive(path: Path, assets: list[tuple[str, Path]], items: list[Member],
                    root: str = "2026-01-01T00-00-00.000Z-openclaw-backup") -> Path:
    """An archive as the gateway writes one (manifest first, no hashes) holding `items` (from
    `entry`, named with `asset_member`), for archives no install of vora's would produce."""
    manifest = {"schemaVersion": 1, "createdAt": "2026-01-01T00:00:00.000Z", "archiveRoot": root,
                "platform": "linux", "options": {}, "paths": {}, "skipped": [],
                "assets": [{"kind": kind, "sourcePath": str(source), "archivePath": asset_member(root, source)}
                           for kind, source in assets]}
    data = (json.dumps(manifest, indent=2) + "\n").encode()
    head = tarfile.TarInfo(f"{root}/manifest.json")
    head.mode = 0o600
    with tarfile.open(path, "w:gz", format=tarfile.PAX_FORMAT) as tar:
        tar.addfile(_sized(head, data), io.BytesIO(data))
        for info, body in items:
            tar.addfile(_sized(info, body), io.BytesIO(body) if body is not None else None)
    return path


def _sized(info: tarfile.TarInfo, data: bytes | None) -> tarfile.TarInfo:
    if data is not None:
        info.size = len(data)
    return info


def asset_member(root: str, source: Path, relative: str = "") -> str:
    """The archive name of `relative` below the asset whose source path is `source`."""
    name = f"{root}/payload/posix{source}"
    return f"{name}/{relative}" if relative else name
