"""`vora sessions list`: one row per stored session, from the stores alone (spec sessions.md).

No transcript is opened: its size comes from `stat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from vora_cli.core.agents import StoreTarget
from vora_cli.core.clock import iso_or_none
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.jsfmt import is_finite_number, is_number
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
    read_store_rows,
    report_source,
    session_kind,
    updated_at,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install


def row_label(entry: Entry) -> str | None:
    """What a row shows as its label: `label`, else `displayName`, else `subject` (strings)."""
    return entry_string(entry, "label") or entry_string(entry, "displayName") or entry_string(entry, "subject")


class ListRow(NamedTuple):
    """One row of `vora sessions list`: the field names are its JSON keys, in order (`to_dict()`
    is the row's object), less `updatedAt`, the moment as text, which only the JSON shows. A list
    of 100,000 sessions keeps these, worked out as each entry is read, not the entries."""
    agentId: str
    key: str
    kind: str
    sessionId: str | None
    updatedAtMs: int | float | None
    ageMs: int | float | None
    chatType: str | None
    model: str | None
    modelProvider: str | None
    label: str | None
    totalTokens: Any
    totalTokensFresh: bool | None
    contextUsed: int | float | None
    contextTokens: int | float | None
    contextPercent: int | None
    compactionCount: int | float
    transcriptPath: str | None
    transcriptBytes: int | None
    hasRunReport: bool

    def to_dict(self) -> dict[str, Any]:
        # the moment as text, then as the store's ms (docs/exit-codes-and-json.md, "Times")
        row: dict[str, Any] = {"agentId": self.agentId, "key": self.key, "kind": self.kind,
                               "sessionId": self.sessionId, "updatedAt": iso_or_none(self.updatedAtMs)}
        row.update(zip(self._fields[4:], self[4:], strict=True))
        return row


R = TypeVar("R")  # a row: `ListRow` (the list), `SessionRow` (one session)
# a row of `SessionRow`'s fields (agent id, key, kind, entry, transcript path and size, window, now)
RowValues = Callable[[str, str, str, Entry, "str | None", "int | None", "int | float | None", int], R]


def age_of(entry: Entry, now: int) -> int | float | None:
    """How long ago the entry was updated (ms), or None when its `updatedAt` is not a time."""
    at = entry.get("updatedAt")
    return now - at if is_finite_number(at) and at > 0 else None


def _as_stored(value: Any) -> Any:
    """A stored value as the gateway's `JSON.stringify` writes it: a number that is not finite
    (`1e400` reads as Infinity) is null, so `--json` never holds "Infinity" where a number goes."""
    return None if is_number(value) and not is_finite_number(value) else value


def row_values(agent_id: str, key: str, kind: str, entry: Entry, transcript_file: str | None,
               transcript_bytes: int | None, window: int | float | None, now: int) -> ListRow:
    """The row of a stored session (`SessionRow`'s fields): the one place its values are made."""
    model, provider = effective_model(entry)
    fresh = entry.get("totalTokensFresh")
    used = fresh_total(entry)
    return ListRow(
        agent_id, key, kind, entry_string(entry, "sessionId"), finite_or_none(entry.get("updatedAt")), age_of(entry, now),
        entry_string(entry, "chatType"), model, provider, row_label(entry), _as_stored(entry.get("totalTokens")),
        fresh if isinstance(fresh, bool) else None, used, window, context_percent(used, window),
        compaction_count(entry), transcript_file, transcript_bytes, report_source(entry) == "run",
    )


@dataclass(frozen=True)
class SessionRow:
    """One stored session as `sessions show` and `context --session` read it: its entry and
    what its list row shows."""
    agent_id: str
    key: str
    kind: str
    entry: Entry
    transcript_file: str | None  # a string, not a Path (as the list keeps it)
    transcript_bytes: int | None
    context_tokens: int | float | None
    now: int

    @property
    def transcript(self) -> Path | None:
        return Path(self.transcript_file) if self.transcript_file is not None else None

    @property
    def age_ms(self) -> int | float | None:
        return age_of(self.entry, self.now)

    @property
    def context_used(self) -> int | float | None:
        return fresh_total(self.entry)

    @property
    def context_percent(self) -> int | None:
        return context_percent(self.context_used, self.context_tokens)

    @property
    def label(self) -> str | None:
        return row_label(self.entry)

    def values(self) -> ListRow:
        return row_values(self.agent_id, self.key, self.kind, self.entry, self.transcript_file,
                          self.transcript_bytes, self.context_tokens, self.now)

    def to_dict(self) -> dict[str, Any]:
        return self.values().to_dict()


def make_row(store: Store, key: str, config: Mapping[str, Any], paths: VoraPaths, now: int) -> SessionRow:
    made = _row_maker(store.target, config, paths, now, None, SessionRow)(key, store.entries[key])
    assert made is not None  # without --active every entry is a row
    return made[1]


def _row_maker(target: StoreTarget, config: Mapping[str, Any], paths: VoraPaths, now: int,
               active_minutes: int | None, values: RowValues[R]) -> Callable[[str, Entry], tuple[int | float, R] | None]:
    """(its `updated_at`, for the sort; `values` of `SessionRow`'s fields) of a key of `target`'s
    store and its entry, or None when `--active` leaves it out (its transcript is not looked at
    then); what is the same for every row of the store is worked out once."""
    from vora_cli.core.sessions.store import key_agent

    sessions_dir, state_dir = str(target.sessions_dir), str(paths.state_dir)
    agent_id, main = target.agent_id, main_key(config)
    window_ms = None if active_minutes is None else active_minutes * 60_000

    def make(key: str, entry: Entry) -> tuple[int | float, R] | None:
        at = entry.get("updatedAt")
        if type(at) is not int:
            at = updated_at(entry)
        if window_ms is not None and now - at > window_ms:
            return None
        path, size = located_transcript(entry, sessions_dir, state_dir)
        return at, values(key_agent(key, agent_id), key, session_kind(key, entry, main), entry, path, size,
                          context_window(entry, config), now)

    return make


@dataclass(frozen=True)
class SessionsList:
    """The rows of `vora sessions list` (`ListRow`s), and each store read."""
    state_dir: Path
    stores: tuple[tuple[StoreTarget, StoreError | None], ...]
    active_minutes: int | None
    rows: tuple[ListRow, ...]

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


def list_sessions(install: Install, *, agent: str | None = None, all_agents: bool = False,
                  active_minutes: int | None = None) -> SessionsList:
    """`vora sessions list`: the rows of the default agent's store, `agent`'s, or every store,
    newest first."""
    if active_minutes is not None and active_minutes <= 0:
        raise VoraError("usage", f"--active must be a positive number of minutes, not {active_minutes}",
                        "for example: --active 60")
    install.require_config()
    config, paths, now = install.effective, install.paths, install.now_ms
    targets = install.agents.store_targets(paths, agent=agent, all_agents=all_agents)
    stores: list[tuple[StoreTarget, StoreError | None]] = []
    rows: list[ListRow] = []
    keys: list[str] = []  # each row's key and `updated_at`, for the sort
    updates: list[int | float] = []
    for target in targets:
        made = read_store_rows(target, _row_maker(target, config, paths, now, active_minutes, row_values))
        if isinstance(made, StoreError):
            stores.append((target, made))
            continue
        stores.append((target, None))
        for key, listed in made.items():
            if listed is not None:
                keys.append(key)
                updates.append(listed[0])
                rows.append(listed[1])
    # newest first, then by key, then in store order: two stable sorts of the row indexes, keyed
    # by C calls (a key function per row was a Python call each, 200,000 of them at 100,000)
    order = sorted(range(len(rows)), key=keys.__getitem__)
    order.sort(key=updates.__getitem__, reverse=True)
    return SessionsList(paths.state_dir, tuple(stores), active_minutes, tuple([rows[i] for i in order]))
