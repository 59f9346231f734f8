"""`vora sessions list`: one row per stored session, from the stores alone (spec sessions.md).

No transcript is opened: its size comes from `stat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vora_cli.core.agents import StoreTarget
from vora_cli.core.clock import iso_or_none, iso_utc
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.jsfmt import is_number, well_formed
from vora_cli.core.sessions.locate import located_transcript
from vora_cli.core.sessions.store import (
    Entry,
    Store,
    StoreError,
    compaction_count,
    context_percent,
    context_window,
    entry_string,
    finite_or_none,
    fresh_total,
    main_key,
    read_store_entries,
    session_kind,
    updated_at,
)
from vora_cli.core.strict_json import MAX_DOUBLE

if TYPE_CHECKING:
    from vora_cli.core.install import Install

# What a row reads of its entry (`SessionRow` and its renderers); `row_fields` keeps only these,
# so a list of 100,000 sessions holds a dozen fields each, not the parsed store (issue 24).
ROW_FIELDS = ("sessionId", "updatedAt", "sessionFile", "chatType", "model", "modelProvider", "modelOverride",
              "providerOverride", "label", "displayName", "subject", "totalTokens", "totalTokensFresh",
              "contextTokens", "compactionCount")


def row_fields(entry: Entry) -> Entry:
    """The fields of `entry` a row reads; its run report cut to the `source` that `hasRunReport` needs."""
    # keyed by the names in ROW_FIELDS, one string each: the parsed entry's own keys are new
    # objects per entry (the C scanner shares keys within one member only), so a pass over its
    # items (twice as fast) kept 100,000 copies of each name: +64 MiB peak at 100,000 entries
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
        # each value worked out once, the usual types (ASCII strings, integers) tried first: a
        # list of 100,000 sessions makes 100,000 of these (issue 24); the general helpers answer
        # everything else, so the values are theirs
        entry = self.entry
        get = entry.get
        model = _text(get("modelOverride")) or _text(get("model"))
        provider = _text(get("providerOverride")) or _text(get("modelProvider"))
        fresh = get("totalTokensFresh")
        at = get("updatedAt")
        if type(at) is int and -MAX_DOUBLE <= at <= MAX_DOUBLE:  # past a double: Infinity, below
            updated: Any = at
            try:
                updated_text = iso_utc(at)
            except OverflowError:
                updated_text = None
            age: int | float | None = self.now - at if at > 0 else None
        else:
            updated = finite_or_none(at)
            updated_text = iso_or_none(updated)
            age = self.age_ms
        total = get("totalTokens")
        if type(total) is int and 0 <= total <= MAX_DOUBLE and fresh is not False:
            used: Any = total
        else:
            used = fresh_total(entry)
        window = self.context_tokens
        count = get("compactionCount")
        report = get("systemPromptReport")
        return {
            "agentId": self.agent_id,
            "key": self.key,
            "kind": self.kind,
            "sessionId": _string(get("sessionId")),
            # the store's ms, and the same moment as text (docs/exit-codes-and-json.md, "Times")
            "updatedAt": updated_text,
            "updatedAtMs": updated,
            "ageMs": age,
            "chatType": _string(get("chatType")),
            "model": model,
            "modelProvider": provider,
            "label": _string(get("label")) or _string(get("displayName")) or _string(get("subject")),
            "totalTokens": total,
            "totalTokensFresh": fresh if isinstance(fresh, bool) else None,
            "contextUsed": used,
            "contextTokens": window,
            "contextPercent": context_percent(used, window) if used is not None and window is not None else None,
            "compactionCount": count if type(count) is int and -MAX_DOUBLE <= count <= MAX_DOUBLE
            else compaction_count(entry),
            "transcriptPath": self.transcript_file,
            "transcriptBytes": self.transcript_bytes,
            "hasRunReport": isinstance(report, dict) and report.get("source") == "run",
        }


def _text(value: Any) -> str | None:
    """`entry_text` of a field's value."""
    if type(value) is str and value.isascii():
        return value or None
    return well_formed(value) if isinstance(value, str) and value else None


def _string(value: Any) -> str | None:
    """`entry_string` of a field's value."""
    if type(value) is str and value.isascii():
        return value
    return well_formed(value) if isinstance(value, str) else None


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
        window = entry.get("contextTokens")  # the entry's own window, the usual case, tried first
        if type(window) is not int or not 0 < window <= MAX_DOUBLE:
            window = context_window(entry, config)
        return SessionRow(key_agent(key, agent_id), key, session_kind(key, entry, main), entry, path, size,
                          window, now)

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
    updates: list[int | float] = []  # each row's `updated_at`, for the sort
    for target in targets:
        store = read_store_entries(target, row_fields)
        if isinstance(store, StoreError):
            stores.append((target, store))
            continue
        stores.append((target, None))
        make = _row_maker(store, config, paths, now)
        for key, entry in store.entries.items():
            at = entry.get("updatedAt")
            if type(at) is not int:
                at = updated_at(entry)
            if active_minutes is not None and now - at > active_minutes * 60_000:
                continue
            rows.append(make(key))
            updates.append(at)
    # newest first, then by key, then in store order: two stable sorts of the row indexes, keyed
    # by C calls (a key function per row was a Python call each, 200,000 of them at 100,000)
    keys = [row.key for row in rows]
    order = sorted(range(len(rows)), key=keys.__getitem__)
    order.sort(key=updates.__getitem__, reverse=True)
    return SessionsList(paths.state_dir, tuple(stores), active_minutes, tuple([rows[i] for i in order]))
