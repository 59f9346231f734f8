"""`vora sessions show KEY`: one session's entry, compactions, transcript and context manifest."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.clock import iso_or_none, ms_or_none
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.manifest import ContextManifest, ManifestTotals, build_manifest
from vora_cli.core.sessions.resolve import ResolvedSession, resolve_session
from vora_cli.core.sessions.store import entry_value, report_source
from vora_cli.core.sessions.transcript import CompactionInfo, TranscriptScan, scan_transcript
from vora_cli.core.text import estimate_tokens

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


@dataclass(frozen=True)
class CompactionRecord:
    """One compaction of a transcript, as `sessions show` reports it."""
    info: CompactionInfo
    on_leaf_path: bool
    checkpoint: dict[str, Any] | None
    previews: bool

    def to_dict(self) -> dict[str, Any]:
        cp = self.checkpoint or {}
        return {
            "entryId": self.info.entry_id,
            "line": self.info.line,
            "compactedAt": iso_or_none(self.info.timestamp),
            "summaryChars": self.info.summary_chars,
            "summaryTokens": estimate_tokens(self.info.summary_chars),
            "summaryHash": self.info.summary_hash,
            "preview": self.info.preview if self.previews else None,
            "firstKeptEntryId": self.info.first_kept_entry_id,
            "tokensBefore": self.info.tokens_before,
            "onLeafPath": self.on_leaf_path,
            "checkpointId": cp.get("checkpointId"),
            "reason": cp.get("reason"),
            "tokensAfter": cp.get("tokensAfter"),
        }


def _checkpoints(entry: Mapping[str, Any], sessions_dir: Path) -> list[dict[str, Any]]:
    raw = entry.get("compactionCheckpoints")
    out: list[dict[str, Any]] = []
    for cp in raw if isinstance(raw, list) else []:
        if not isinstance(cp, dict):
            continue
        pre = cp.get("preCompaction") if isinstance(cp.get("preCompaction"), dict) else {}
        snapshot = pre.get("sessionFile") if isinstance(pre, dict) else None
        snapshot_path: str | None = None
        if isinstance(snapshot, str) and snapshot:
            snapshot_path = snapshot if os.path.isabs(snapshot) else str(sessions_dir / snapshot)
        out.append({
            "checkpointId": cp.get("checkpointId"),
            "createdAt": iso_or_none(cp.get("createdAt")),
            "createdAtMs": ms_or_none(cp.get("createdAt")),
            "reason": cp.get("reason"),
            "tokensBefore": cp.get("tokensBefore"),
            "tokensAfter": cp.get("tokensAfter"),
            "firstKeptEntryId": cp.get("firstKeptEntryId"),
            "snapshotPath": snapshot_path,
            "snapshotExists": os.path.isfile(snapshot_path) if snapshot_path else False,
            "_postEntryId": (cp.get("postCompaction") or {}).get("entryId")
            if isinstance(cp.get("postCompaction"), dict) else None,
        })
    return out


def _join_checkpoints(infos: list[CompactionInfo], checkpoints: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """By `postCompaction.entryId`; else the n-th checkpoint for the n-th compaction when the
    counts match."""
    by_entry = {cp["_postEntryId"]: cp for cp in checkpoints if isinstance(cp["_postEntryId"], str)}
    joined: list[dict[str, Any] | None] = [by_entry.get(info.entry_id) for info in infos]
    if len(infos) == len(checkpoints):
        joined = [j if j is not None else checkpoints[n] for n, j in enumerate(joined)]
    return joined


@dataclass(frozen=True)
class SessionDetail:
    """What `vora sessions show` reports about one session."""
    resolved: ResolvedSession
    compactions: tuple[CompactionRecord, ...]
    checkpoints: tuple[dict[str, Any], ...]
    scan: TranscriptScan | None
    manifest: ContextManifest | None
    previews: bool

    @property
    def transcript_path(self) -> Path | None:
        return self.resolved.row.transcript

    def entry_dict(self) -> dict[str, Any]:
        row = self.resolved.row
        entry = row.entry
        return {
            **row.to_dict(),
            "inputTokens": entry.get("inputTokens"),
            "outputTokens": entry.get("outputTokens"),
            "spawnedBy": entry_value(entry, "spawnedBy"),
            "parentSessionKey": entry_value(entry, "parentSessionKey"),
            "status": entry_value(entry, "status"),
            "reportSource": report_source(entry),
        }

    def to_dict(self, segments: bool = True, totals: ManifestTotals | None = None) -> dict[str, Any]:
        """The `sessions show --json` document (`segments=False` with the `totals` of a streamed
        pass: the context's segments left empty, for a writer that streams them)."""
        row = self.resolved.row
        if self.scan is not None:
            transcript = self.scan.to_dict()
        else:
            path = self.transcript_path
            transcript = {"path": str(path) if path else None, "exists": False, "bytes": None, "lines": 0,
                          "entries": 0, "byType": {}, "byRole": {}, "badLines": [], "tornTail": False,
                          "branchPoints": [], "leafId": None, "header": None}
        return {
            "agentId": row.agent_id,
            "key": row.key,
            "kind": row.kind,
            "storePath": str(self.resolved.store.path),
            "entry": self.entry_dict(),
            "compactions": [c.to_dict() for c in self.compactions],
            "checkpoints": [{k: v for k, v in cp.items() if not k.startswith("_")} for cp in self.checkpoints],
            "transcript": transcript,
            "context": self.manifest.to_dict(segments, totals) if self.manifest is not None else None,
        }


def show_session(install: Install, key: str, *, agent: str | None = None, previews: bool = True) -> SessionDetail:
    """`vora sessions show KEY`: the session's entry, compactions, transcript and manifest."""
    resolved = resolve_session(install, key, agent=agent)
    sessions_dir = resolved.store.target.sessions_dir
    checkpoints = _checkpoints(resolved.entry, sessions_dir)
    path = resolved.row.transcript
    scan = scan_transcript(path, previews=previews) if path is not None else None
    if scan is None or not scan.exists:
        return SessionDetail(resolved, (), tuple(checkpoints), None, None, previews)
    manifest = build_manifest(path, scan, previews=previews)  # type: ignore[arg-type]
    from vora_cli.core.sessions.transcript import leaf_path

    on_path = leaf_path(scan)  # `in` scans the array in C: a few compactions, no set of every index
    joined = _join_checkpoints(scan.compactions, checkpoints)
    records = tuple(
        CompactionRecord(info, info.index in on_path, cp, previews)
        for info, cp in zip(scan.compactions, joined, strict=True)
    )
    return SessionDetail(resolved, records, tuple(checkpoints), scan, manifest, previews)
