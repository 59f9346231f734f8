"""`vora sessions list`: one row per stored session, from the stores alone (spec sessions.md).

No transcript is opened: its size comes from `stat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vora_cli.core.agents import StoreTarget
from vora_cli.core.clock import iso_or_none
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.jsfmt import is_number
from vora_cli.core.sessions.locate import located_transcript
from vora_cli.core.sessions.store import (
    Entry,
    Store,
    StoreError,
    compaction_count,
    context_percent,
    context_window,
    effective_model,
    entry_string,
    finite_or_none,
    fresh_total,
    main_key,
    read_store_entries,
    report_source,
    session_kind,
    updated_at,
)

if TYPE_CHECKING:
    from vora_cli.core.install import Install

# What a row reads of its entry (`SessionRow` and its renderers); `row_fields` keeps only these,
# so a list of 100,000 sessions holds a dozen fields each, not the parsed store (issue 24).
ROW_FIELDS = ("sessionId", "updatedAt", "sessionFile", "chatType", "model", "modelProvider", "modelOverride",
              "providerOverride", "label", "displayName", "subject", "totalTokens", "totalTokensFresh",
              "contextTokens", "compactionCount")


def row_fields(entry: Entry) -> Entry:
    """The fields of `entry` a row reads; its run report cut to the `source` that `hasRunReport` needs."""
    kept = {name: entry[name] for name in ROW_FIELDS if name in entry}
    if "systemPromptReport" in entry:
        report = entry["systemPromptReport"]
        kept["systemPromptReport"] = ({"source": report["source"]} if "source" in report else {}) \
            if isinstance(report, dict) else report
    return kept


def row_label(entry: Entry) -> str | None:
    """What a row shows as its label: `label`, else `displayName`, else `subject` (strings)."""
    return entry_string(entry, "label") or entry_string(entry, "displayName") or entry_string(entry, "subject")


@dataclass(frozen=True)
class SessionRow:
    """One row of `vora sessions list`: a store entry and what its row shows."""
    agent_id: str
    key: str
    kind: str
    entry: Entry
    transcript_file: str | None  # a string, not a Path: 100,000 rows would build 100,000 of them
    transcript_bytes: int | None
    context_tokens: int | float | None
    now: int

    @property
    def transcript(self) -> Path | None:
        return Path(self.transcript_file) if self.transcript_file is not None else None

    @property
    def age_ms(self) -> int | float | None:
        at = self.entry.get("updatedAt")
        return self.now - at if is_number(at) and at > 0 else None

    @property
    def context_used(self) -> int | float | None:
        return fresh_total(self.entry)

    @property
    def context_percent(self) -> int | None:
        return context_percent(self.context_used, self.context_tokens)

    @property
    def label(self) -> str | None:
        return row_label(self.entry)

    def to_dict(self) -> dict[str, Any]:
        # each value worked out once (a list of 100,000 sessions makes 100,000 of these)
        entry = self.entry
        model, provider = effective_model(entry)
        fresh = entry.get("totalTokensFresh")
        updated = finite_or_none(entry.get("updatedAt"))
        used = fresh_total(entry)
        return {
            "agentId": self.agent_id,
            "key": self.key,
            "kind": self.kind,
            "sessionId": entry_string(entry, "sessionId"),
            # the store's ms, and the same moment as text (docs/exit-codes-and-json.md, "Times")
            "updatedAt": iso_or_none(updated),
            "updatedAtMs": updated,
            "ageMs": self.age_ms,
            "chatType": entry_string(entry, "chatType"),
            "model": model,
            "modelProvider": provider,
            "label": row_label(entry),
            "totalTokens": entry.get("totalTokens"),
            "totalTokensFresh": fresh if isinstance(fresh, bool) else None,
            "contextUsed": used,
            "contextTokens": self.context_tokens,
            "contextPercent": context_percent(used, self.context_tokens),
            "compactionCount": compaction_count(entry),
            "transcriptPath": self.transcript_file,
            "transcriptBytes": self.transcript_bytes,
            "hasRunReport": report_source(entry) == "run",
        }


def make_row(store: Store, key: str, config: Mapping[str, Any], paths: VoraPaths, now: int) -> SessionRow:
    return _row_maker(store, config, paths, now)(key)


def _row_maker(store: Store, config: Mapping[str, Any], paths: VoraPaths, now: int) -> Callable[[str], SessionRow]:
    """The row of a key of `store`, with what is the same for every row worked out once."""
    from vora_cli.core.sessions.store import key_agent

    sessions_dir, state_dir = str(store.target.sessions_dir), str(paths.state_dir)
    agent_id, main = store.target.agent_id, main_key(config)
    entries = store.entries

    def make(key: str) -> SessionRow:
        entry = entries[key]
        path, size = located_transcript(entry, sessions_dir, state_dir)
        return SessionRow(key_agent(key, agent_id), key, session_kind(key, entry, main), entry, path, size,
                          context_window(entry, config), now)

    return make


@dataclass(frozen=True)
class SessionsList:
    """The rows of `vora sessions list`, and each store read."""
    state_dir: Path
    stores: tuple[tuple[StoreTarget, StoreError | None], ...]
    active_minutes: int | None
    rows: tuple[SessionRow, ...]

    @property
    def failed(self) -> bool:
        """Exit 1 only when no store could be read."""
        return bool(self.stores) and all(error is not None for _t, error in self.stores)

    def to_dict(self, sessions: bool = True) -> dict[str, Any]:
        """The `sessions list --json` document (`sessions=False`: the rows left out, for a writer
        that streams them)."""
        return {
            "stateDir": str(self.state_dir),
            "stores": [
                {"agentId": t.agent_id, "path": str(t.path), "configured": t.configured,
                 "error": e.location + ": " + e.message if e is not None else None}
                for t, e in self.stores
            ],
            "activeMinutes": self.active_minutes,
            "count": len(self.rows),
            "sessions": [r.to_dict() for r in self.rows] if sessions else [],
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
        store = read_store_entries(target, row_fields)
        if isinstance(store, StoreError):
            stores.append((target, store))
            continue
        stores.append((target, None))
        make = _row_maker(store, config, paths, now)
        for key in store.entries:
            if active_minutes is not None and now - updated_at(store.entries[key]) > active_minutes * 60_000:
                continue
            rows.append(make(key))
    rows.sort(key=lambda r: r.key)
    rows.sort(key=lambda r: updated_at(r.entry), reverse=True)
    return SessionsList(paths.state_dir, tuple(stores), active_minutes, tuple(rows))
