"""`vora sessions list`: one row per stored session, from the stores alone (spec sessions.md).

No transcript is opened: its size comes from `stat`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

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
    read_store_rows,
    session_kind,
    updated_at,
)
from vora_cli.core.strict_json import MAX_DOUBLE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install

# What a row reads of its entry (`row_values`); a list keeps none of them: each row's values are
# made as its entry is read, so a list of 100,000 sessions never holds the parsed store.
ROW_FIELDS = ("sessionId", "updatedAt", "sessionFile", "chatType", "model", "modelProvider", "modelOverride",
              "providerOverride", "label", "displayName", "subject", "totalTokens", "totalTokensFresh",
              "contextTokens", "compactionCount", "systemPromptReport")


def row_label(entry: Entry) -> str | None:
    """What a row shows as its label: `label`, else `displayName`, else `subject` (strings)."""
    return entry_string(entry, "label") or entry_string(entry, "displayName") or entry_string(entry, "subject")


class ListRow(NamedTuple):
    """One row of `vora sessions list` as its JSON shows it: the field names are the JSON keys,
    in order (`to_dict()` is the row's object). A list of 100,000 sessions keeps these, worked
    out as each entry is read, not the entries."""
    agentId: str
    key: str
    kind: str
    sessionId: str | None
    # the store's ms, and the same moment as text (docs/exit-codes-and-json.md, "Times")
    updatedAt: str | None
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
        return dict(zip(self._fields, self, strict=True))


class TableRow(NamedTuple):
    """What the `sessions list` table shows of a row: `ListRow`'s values of its columns, under
    the same names. The text list makes these, not `ListRow`s: 100,000 rows work out no time
    text, id, label or provider that nothing prints."""
    key: str
    agentId: str
    kind: str
    ageMs: int | float | None
    model: str | None
    contextUsed: int | float | None
    contextTokens: int | float | None
    contextPercent: int | None
    compactionCount: int | float
    transcriptBytes: int | None


R = TypeVar("R")  # a row: `ListRow`, `TableRow` (the lists), `SessionRow` (one session)
# a row of `SessionRow`'s fields (agent id, key, kind, entry, transcript path and size, window, now)
RowValues = Callable[[str, str, str, Entry, "str | None", "int | None", "int | float | None", int], R]

# `ListRow(*values)` is a Python-level `__new__`; the tuple's own is one C call (100,000 rows)
_new_row: Callable[[type[ListRow], tuple[Any, ...]], ListRow] = tuple.__new__
_new_table_row: Callable[[type[TableRow], tuple[Any, ...]], TableRow] = tuple.__new__


def age_of(entry: Entry, now: int) -> int | float | None:
    """How long ago the entry was updated (ms), or None when its `updatedAt` is not a time."""
    at = entry.get("updatedAt")
    return now - at if is_number(at) and at > 0 else None


def row_values(agent_id: str, key: str, kind: str, entry: Entry, transcript_file: str | None,
               transcript_bytes: int | None, window: int | float | None, now: int) -> ListRow:
    """The row of a stored session (`SessionRow`'s fields): the one place its values are made."""
    # each value worked out once, the usual types (ASCII strings, integers) tried first: a list
    # of 100,000 sessions makes 100,000 of these; the general helpers answer
    # everything else, so the values are theirs
    get = entry.get
    model = get("modelOverride") or get("model")  # the usual model, ASCII text, without two calls
    if type(model) is not str or not model or not model.isascii():
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
        age: int | float | None = now - at if at > 0 else None
    else:
        updated = finite_or_none(at)
        updated_text = iso_or_none(updated)
        age = age_of(entry, now)
    total = get("totalTokens")
    if type(total) is int and 0 <= total <= MAX_DOUBLE and fresh is not False:
        used: Any = total
    else:
        used = fresh_total(entry)
    count = get("compactionCount")
    report = get("systemPromptReport")
    return _new_row(ListRow, (
        agent_id, key, kind, _string(get("sessionId")), updated_text, updated, age, _string(get("chatType")),
        model, provider, _string(get("label")) or _string(get("displayName")) or _string(get("subject")),
        total, fresh if isinstance(fresh, bool) else None, used, window,
        context_percent(used, window) if used is not None and window is not None else None,
        count if type(count) is int and -MAX_DOUBLE <= count <= MAX_DOUBLE else compaction_count(entry),
        transcript_file, transcript_bytes, isinstance(report, dict) and report.get("source") == "run",
    ))


def table_values(agent_id: str, key: str, kind: str, entry: Entry, transcript_file: str | None,
                 transcript_bytes: int | None, window: int | float | None, now: int) -> TableRow:
    """`row_values` of the table's columns only, by the same expressions (a test holds them
    equal): the text list's row."""
    get = entry.get
    at = get("updatedAt")
    if type(at) is int and -MAX_DOUBLE <= at <= MAX_DOUBLE:
        age: int | float | None = now - at if at > 0 else None
    else:
        age = age_of(entry, now)
    total = get("totalTokens")
    if type(total) is int and 0 <= total <= MAX_DOUBLE and get("totalTokensFresh") is not False:
        used: Any = total
    else:
        used = fresh_total(entry)
    model = get("modelOverride") or get("model")  # the usual model, ASCII text, without two calls
    if type(model) is not str or not model or not model.isascii():
        model = _text(get("modelOverride")) or _text(get("model"))
    count = get("compactionCount")
    return _new_table_row(TableRow, (
        key, agent_id, kind, age, model, used, window,
        context_percent(used, window) if used is not None and window is not None else None,
        count if type(count) is int and -MAX_DOUBLE <= count <= MAX_DOUBLE else compaction_count(entry),
        transcript_bytes,
    ))


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
        window = entry.get("contextTokens")  # the entry's own window, the usual case, tried first
        if type(window) is not int or not 0 < window <= MAX_DOUBLE:
            window = context_window(entry, config)
        return at, values(key_agent(key, agent_id), key, session_kind(key, entry, main), entry, path, size, window, now)

    return make


@dataclass(frozen=True)
class SessionsList(Generic[R]):
    """The rows of `vora sessions list` (`ListRow`s, or the table's `TableRow`s), and each store read."""
    state_dir: Path
    stores: tuple[tuple[StoreTarget, StoreError | None], ...]
    active_minutes: int | None
    rows: tuple[R, ...]

    @property
    def failed(self) -> bool:
        """Exit 1 only when no store could be read."""
        return bool(self.stores) and all(error is not None for _t, error in self.stores)

    def to_dict(self: SessionsList[ListRow], sessions: bool = True) -> dict[str, Any]:
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
                  active_minutes: int | None = None) -> SessionsList[ListRow]:
    """`vora sessions list`: the rows of the default agent's store, `agent`'s, or every store."""
    return _listed(install, agent, all_agents, active_minutes, row_values)


def list_sessions_table(install: Install, *, agent: str | None = None, all_agents: bool = False,
                        active_minutes: int | None = None) -> SessionsList[TableRow]:
    """`list_sessions` with each row only what its table shows (`TableRow`): the text list."""
    return _listed(install, agent, all_agents, active_minutes, table_values)


def _listed(install: Install, agent: str | None, all_agents: bool, active_minutes: int | None,
            values: RowValues[R]) -> SessionsList[R]:
    """The rows `values` makes of the stores' entries, newest first."""
    if active_minutes is not None and active_minutes <= 0:
        raise VoraError("usage", f"--active must be a positive number of minutes, not {active_minutes}",
                        "for example: --active 60")
    install.require_config()
    config, paths, now = install.effective, install.paths, install.now_ms
    targets = install.agents.store_targets(paths, agent=agent, all_agents=all_agents)
    stores: list[tuple[StoreTarget, StoreError | None]] = []
    rows: list[R] = []
    keys: list[str] = []  # each row's key and `updated_at`, for the sort
    updates: list[int | float] = []
    for target in targets:
        made = read_store_rows(target, _row_maker(target, config, paths, now, active_minutes, values))
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
