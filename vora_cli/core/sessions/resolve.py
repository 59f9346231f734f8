"""Which session a key argument names (spec sessions.md, "Session keys and kinds"): shared by
`vora sessions show` and `vora context --session`, and light to import (no transcript reader)."""

from __future__ import annotations

from collections.abc import Mapping

from vora_cli.core.agents import StoreTarget, normalize_agent_id
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.sessions.listing import SessionRow, make_row
from vora_cli.core.sessions.store import (
    Store,
    StoreError,
    find_key,
    main_key,
    parse_key,
    read_store,
    read_store_candidates,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.install import Install


@dataclass(frozen=True)
class ResolvedSession:
    """The store entry a session argument names."""
    # The store the session was found in: every entry, or with `whole_store=False` only the
    # entries the key rules looked at.
    store: Store
    key: str
    row: SessionRow

    @property
    def entry(self) -> dict[str, Any]:
        return self.row.entry


def resolve_session(install: Install, key: str, *, agent: str | None = None,
                    whole_store: bool = True) -> ResolvedSession:
    """Find `key` in the store of `--agent` (default: the key's agent, else the default agent):
    the stored key, then the request key, then a unique entry whose `sessionId` is `key`.
    `whole_store=False` (`context --session`): entries the key rules cannot pick are not parsed,
    so damage there is left to `sessions list/show` and doctor."""
    install.require_config()
    config, paths, agents = install.effective, install.paths, install.agents
    if agent is not None:
        agent_id = agents.require(agent, "or use --all-agents")
    else:
        parsed = parse_key(key)
        agent_id = normalize_agent_id(parsed[0]) if parsed else agents.default_id
    target = StoreTarget(agent_id, agents.store_path(agent_id, paths), True)
    request = key.strip()
    wanted = f"agent:{agent_id}:{main_key(config)}" if request.lower() in ("", "main") else f"agent:{agent_id}:{request.lower()}"
    candidates = {key.lower(), wanted.lower()}
    store = None if whole_store else read_store_candidates(target, candidates)
    by_layout = store is not None
    if store is None:
        store = read_store(target)
    if isinstance(store, StoreError):
        raise store.to_error()
    found = _by_key(store.entries, key, wanted)
    if found is None and by_layout:
        # only now do the session ids matter: a second pass that also parses the entries that
        # may hold `key` as their sessionId
        again = read_store_candidates(target, candidates, key)
        store = read_store(target) if again is None else again
        if isinstance(store, StoreError):
            raise store.to_error()
        found = _by_key(store.entries, key, wanted)
    if found is None:
        by_id = [k for k, e in store.entries.items() if e.get("sessionId") == key]
        if len(by_id) == 1:
            found = by_id[0]
    if found is None:
        # `--agent` takes configured agents only; --all-agents also lists the ones found on disk
        which = f"--agent {agent_id}" if agents.knows(agent_id) else "--all-agents"
        raise VoraError("session_not_found", f"no session {key!r} in {store.path}",
                        f"run `vora sessions list {which}` to see the stored keys")
    row = make_row(store, found, config, paths, install.now_ms)
    return ResolvedSession(store, found, row)


def _by_key(entries: Mapping[str, Any], key: str, wanted: str) -> str | None:
    """The stored key, then the request key (a key that does not start with `agent:`)."""
    found = find_key(entries, key)
    if found is None and not key.lower().startswith("agent:"):
        found = find_key(entries, wanted)
    return found
