"""`vora sessions list`: one row per stored session, from the stores alone (spec sessions.md).

No transcript is opened: its size comes from `stat`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vora_cli.core.agents import StoreTarget
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.sessions.store import (
    Entry,
    Store,
    StoreError,
    compaction_count,
    context_percent,
    context_window,
    effective_model,
    entry_value,
    file_size,
    finite_or_none,
    fresh_total,
    main_key,
    read_store,
    report_source,
    session_kind,
    transcript_path,
    updated_at,
)

if TYPE_CHECKING:
    from vora_cli.core.install import Install


@dataclass(frozen=True)
class SessionRow:
    agent_id: str
    key: str
    kind: str
    entry: Entry
    transcript: Path | None
    transcript_bytes: int | None
    context_tokens: int | float | None
    now: int

    @property
    def age_ms(self) -> int | float | None:
        at = self.entry.get("updatedAt")
        return self.now - at if isinstance(at, int | float) and not isinstance(at, bool) and at > 0 else None

    @property
    def context_used(self) -> int | float | None:
        return fresh_total(self.entry)

    @property
    def context_percent(self) -> int | None:
        return context_percent(self.context_used, self.context_tokens)

    def _text(self, name: str) -> str | None:
        value = entry_value(self.entry, name)
        return value if isinstance(value, str) else None

    @property
    def label(self) -> str | None:
        return self._text("label") or self._text("displayName") or self._text("subject")

    def to_dict(self) -> dict[str, Any]:
        model, provider = effective_model(self.entry)
        fresh = self.entry.get("totalTokensFresh")
        return {
            "agentId": self.agent_id,
            "key": self.key,
            "kind": self.kind,
            "sessionId": self._text("sessionId"),
            "updatedAt": finite_or_none(self.entry.get("updatedAt")),
            "ageMs": self.age_ms,
            "chatType": self._text("chatType"),
            "model": model,
            "modelProvider": provider,
            "label": self.label,
            "totalTokens": self.entry.get("totalTokens"),
            "totalTokensFresh": fresh if isinstance(fresh, bool) else None,
            "contextUsed": self.context_used,
            "contextTokens": self.context_tokens,
            "contextPercent": self.context_percent,
            "compactionCount": compaction_count(self.entry),
            "transcriptPath": str(self.transcript) if self.transcript is not None else None,
            "transcriptBytes": self.transcript_bytes,
            "hasRunReport": report_source(self.entry) == "run",
        }


def make_row(store: Store, key: str, config: Mapping[str, Any], paths: VoraPaths, now: int) -> SessionRow:
    from vora_cli.core.sessions.store import key_agent

    entry = store.entries[key]
    path = transcript_path(entry, store.target.sessions_dir, paths.state_dir)
    return SessionRow(
        key_agent(key, store.target.agent_id),
        key,
        session_kind(key, entry, main_key(config)),
        entry,
        path,
        file_size(path),
        context_window(entry, config),
        now,
    )


@dataclass(frozen=True)
class SessionsList:
    state_dir: Path
    stores: tuple[tuple[StoreTarget, StoreError | None], ...]
    active_minutes: int | None
    rows: tuple[SessionRow, ...]

    @property
    def failed(self) -> bool:
        """Exit 1 only when no store could be read."""
        return bool(self.stores) and all(error is not None for _t, error in self.stores)

    def to_dict(self) -> dict[str, Any]:
        return {
            "stateDir": str(self.state_dir),
            "stores": [
                {"agentId": t.agent_id, "path": str(t.path), "configured": t.configured,
                 "error": e.location + ": " + e.message if e is not None else None}
                for t, e in self.stores
            ],
            "activeMinutes": self.active_minutes,
            "count": len(self.rows),
            "sessions": [r.to_dict() for r in self.rows],
        }


def list_sessions(
    install: Install,
    *,
    agent: str | None = None,
    all_agents: bool = False,
    active_minutes: int | None = None,
) -> SessionsList:
    """`vora sessions list`: the rows of the default agent's store, `agent`'s, or every store."""
    if active_minutes is not None and active_minutes <= 0:
        raise VoraError("usage", f"--active must be a positive number of minutes, not {active_minutes}",
                        "for example: --active 60")
    install.require_config()
    config, paths, now = install.effective, install.paths, install.now_ms
    targets = install.agents.store_targets(paths, agent=agent, all_agents=all_agents)
    stores: list[tuple[StoreTarget, StoreError | None]] = []
    rows: list[SessionRow] = []
    for target in targets:
        store = read_store(target)
        if isinstance(store, StoreError):
            stores.append((target, store))
            continue
        stores.append((target, None))
        for key in store.entries:
            if active_minutes is not None and now - updated_at(store.entries[key]) > active_minutes * 60_000:
                continue
            rows.append(make_row(store, key, config, paths, now))
    rows.sort(key=lambda r: r.key)
    rows.sort(key=lambda r: updated_at(r.entry), reverse=True)
    return SessionsList(paths.state_dir, tuple(stores), active_minutes, tuple(rows))
