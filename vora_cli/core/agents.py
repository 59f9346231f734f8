"""Agents: which exist, which is the default, and where each one's workspace and session store are: the
one home of these rules (spec sessions.md, "Agents and where stores live"; context.md, "Which workspace").
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths, default_workspace, expand_path
from vora_cli.core.records import dataclass
from vora_cli.core.text import NAME_RE, js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_AGENT_ID = "main"
STORE_FILE = "sessions.json"
_INVALID_RUN = r"[^a-z0-9_-]+"

# Where a workspace came from (`WorkspaceChoice.source`).
WS_FLAG = "flag"  # --workspace
WS_AGENT = "agent"  # agents.list[i].workspace
WS_DEFAULTS = "defaults"  # agents.defaults.workspace (or <it>/<id> for another agent)
WS_DEFAULT = "default"  # ~/.vora/workspace[-<profile>]
WS_STATE_DIR = "state-dir"  # <stateDir>/workspace-<id>


def normalize_agent_id(value: Any) -> str:
    """Trimmed, lower-cased; other characters become `-`; empty (or not a string) is `main`."""
    if not isinstance(value, str):
        return DEFAULT_AGENT_ID
    text = value.strip().lower()
    if not text:
        return DEFAULT_AGENT_ID
    if NAME_RE.match(text):
        return text
    text = re.sub(_INVALID_RUN, "-", text).strip("-")[:64]
    return text or DEFAULT_AGENT_ID


def agents_defaults(config: Mapping[str, Any]) -> Mapping[str, Any]:
    """`agents.defaults` of the config ({} when absent or not an object)."""
    agents = config.get("agents") if isinstance(config, Mapping) else None
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    return defaults if isinstance(defaults, Mapping) else {}


@dataclass(frozen=True)
class WorkspaceChoice:
    """An agent's workspace folder and which rule chose it."""
    path: Path
    agent_id: str
    source: str  # WS_FLAG | WS_AGENT | WS_DEFAULTS | WS_DEFAULT | WS_STATE_DIR

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "agentId": self.agent_id, "source": self.source}


@dataclass(frozen=True)
class StoreTarget:
    """One session store to read, and the agent it belongs to."""

    agent_id: str
    path: Path
    configured: bool

    @property
    def sessions_dir(self) -> Path:
        return self.path.parent


def _string_setting(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise VoraError("invalid", f"{where} must be a string path", f"fix {where} in the config file")
    return js_trim(value) or None


class Agents:
    """The agents of one effective config: their ids (normalised, each once; `main` alone without
    `agents.list`), the default agent, and where each one's workspace and store are. A plain
    class (start-up cost), built once per run (`Install.agents`)."""

    __slots__ = ("_all_targets", "_expanded_defaults", "_first_entries", "_known", "config", "default_id", "entries",
                 "ids")

    def __init__(self, config: Mapping[str, Any]) -> None:
        self.config = config
        agents = config.get("agents") if isinstance(config, Mapping) else None
        raw = agents.get("list") if isinstance(agents, Mapping) else None
        listed = [(i, e) for i, e in enumerate(raw) if isinstance(e, Mapping)] if isinstance(raw, list) else []
        # (index in agents.list, normalised id, entry)
        self.entries: list[tuple[int, str, Mapping[str, Any]]] = [
            (i, normalize_agent_id(e.get("id")), e) for i, e in listed]
        self.ids: list[str] = list(dict.fromkeys(agent_id for _i, agent_id, _e in self.entries)) or [DEFAULT_AGENT_ID]
        default = next((e for e in self.entries if e[2].get("default") is True), None)
        first = default or (self.entries[0] if self.entries else None)
        self.default_id: str = first[1] if first is not None else DEFAULT_AGENT_ID
        self._first_entries: dict[str, tuple[int, Mapping[str, Any]]] | None = None
        self._known: frozenset[str] | None = None
        self._all_targets: dict[VoraPaths, tuple[StoreTarget, ...]] | None = None
        self._expanded_defaults: dict[tuple[str, VoraPaths], Path] | None = None

    def knows(self, agent_id: str) -> bool:
        """Whether `agent_id` is a configured agent (`ids` holds it), in constant time."""
        known = self._known
        if known is None:
            known = self._known = frozenset(self.ids)
        return agent_id in known

    def entry(self, agent_id: str) -> tuple[int, Mapping[str, Any]] | None:
        """The first `agents.list` entry of `agent_id` (its index and the entry), if any."""
        index = self._first_entries
        if index is None:  # built on the first look-up: a run that asks for every agent asks thousands
            index = self._first_entries = {}
            for i, agent_id_of, e in self.entries:
                index.setdefault(agent_id_of, (i, e))
        return index.get(agent_id)

    def require(self, agent: str, hint: str) -> str:
        """The normalised id of `--agent`, which must name a configured agent (`agent_not_found`)."""
        agent_id = normalize_agent_id(agent)
        if not self.knows(agent_id):
            raise VoraError("agent_not_found", f"no agent {agent_id!r} in agents.list",
                            f"known agents: {', '.join(self.ids)}; {hint}")
        return agent_id

    def workspace(self, agent_id: str, paths: VoraPaths) -> WorkspaceChoice:
        """The workspace the gateway uses for `agent_id` (spec context.md, "Which workspace"), by
        the one path rule (`core.paths.expand_path`; a relative config path is relative to the
        config's folder, our decision). A blank setting is unset. An agent found only on disk
        gets rule 3, as any other agent."""
        found = self.entry(agent_id)
        if found is not None:
            index, entry = found
            own = _string_setting(entry.get("workspace"), f"agents.list[{index}].workspace")
            if own:
                return WorkspaceChoice(expand_path(own, paths.home, paths.config_dir, key=f"agents.list[{index}].workspace"),
                                       agent_id, WS_AGENT)
        defaults_ws = _string_setting(agents_defaults(self.config).get("workspace"), "agents.defaults.workspace")
        if agent_id == self.default_id:
            if defaults_ws:
                return WorkspaceChoice(expand_path(defaults_ws, paths.home, paths.config_dir, key="agents.defaults.workspace"),
                                       agent_id, WS_DEFAULTS)
            return WorkspaceChoice(default_workspace(paths.home, paths.profile), agent_id, WS_DEFAULT)
        if defaults_ws:
            return WorkspaceChoice(self._expanded(defaults_ws, paths) / agent_id, agent_id, WS_DEFAULTS)
        return WorkspaceChoice(paths.state_dir / f"workspace-{agent_id}", agent_id, WS_STATE_DIR)

    def _expanded(self, setting: str, paths: VoraPaths) -> Path:
        """`expand_path` of the defaults' workspace, once for all the agents that live under it."""
        cache = self._expanded_defaults
        if cache is None:
            cache = self._expanded_defaults = {}
        found = cache.get((setting, paths))
        if found is None:
            found = cache[(setting, paths)] = expand_path(setting, paths.home, paths.config_dir,
                                                          key="agents.defaults.workspace")
        return found

    def choose_workspace(self, paths: VoraPaths, *, agent: str | None, flag: str | None) -> WorkspaceChoice:
        """`vora context`'s workspace: `--workspace` wins, else `--agent`'s (default: the default
        agent), which must be a configured agent."""
        if flag is not None:  # the directory is given: the agent is only a label then
            agent_id = normalize_agent_id(agent) if agent is not None else self.default_id
            return WorkspaceChoice(expand_path(flag, paths.home), agent_id, WS_FLAG)
        agent_id = self.require(agent, "or pass --workspace DIR") if agent is not None else self.default_id
        return self.workspace(agent_id, paths)

    # -- session stores -------------------------------------------------------------------------

    def store_path(self, agent_id: str, paths: VoraPaths) -> Path:
        """Config `session.store` with `{agentId}` replaced, `~` expanded, relative to the cwd;
        else `<stateDir>/agents/<agentId>/sessions/sessions.json`."""
        session = self.config.get("session")
        value = session.get("store") if isinstance(session, Mapping) else None
        if isinstance(value, str) and value.strip():
            text = value.strip().replace("{agentId}", agent_id)
            return Path(os.path.abspath(expand_path(text, paths.home, key="session.store")))
        return default_store_path(paths, agent_id)

    def store_targets(self, paths: VoraPaths, *, agent: str | None = None,
                      all_agents: bool = False) -> list[StoreTarget]:
        """The stores to read: the default agent's, `--agent`'s, or every discovered one."""
        if agent is not None and all_agents:
            raise VoraError("usage", "--agent and --all-agents cannot be used together", "pick one")
        if not all_agents:
            agent_id = self.require(agent, "or use --all-agents") if agent is not None else self.default_id
            return [StoreTarget(agent_id, self.store_path(agent_id, paths), True)]
        known = self._all_targets.get(paths) if self._all_targets is not None else None
        if known is not None:  # every discovered store, asked again (the doctor's and the audit's checks)
            return list(known)
        targets: list[StoreTarget] = []
        seen: set[str] = set()
        # Two agents share a store where their paths resolve to one file (a `session.store` without
        # `{agentId}`, a link in agents/). Below a missing agent folder there is no link to follow,
        # so its store's real path is built from the agents folder's without a lookup.
        agents_dir = os.path.join(paths.state_dir, "agents")
        custom = self.store_path(DEFAULT_AGENT_ID, paths) != default_store_path(paths, DEFAULT_AGENT_ID)
        try:
            present = set(os.listdir(agents_dir)) if not custom else set()
        except OSError:
            present = set()
        real_agents = os.path.realpath(agents_dir)
        for agent_id in self.ids:
            path = self.store_path(agent_id, paths)
            if custom or agent_id in present:
                real = os.path.realpath(path)
            else:
                real = os.path.join(real_agents, agent_id, "sessions", STORE_FILE)
            if real not in seen:
                seen.add(real)
                targets.append(StoreTarget(agent_id, path, True))
        for agent_id, path in _disk_agents(paths):
            real = os.path.realpath(path)
            if real in seen:
                continue
            seen.add(real)
            targets.append(StoreTarget(agent_id, path, self.knows(agent_id)))
        if self._all_targets is None:
            self._all_targets = {}
        self._all_targets[paths] = tuple(targets)
        return targets


def default_store_path(paths: VoraPaths, agent_id: str) -> Path:
    return Path(os.path.join(paths.state_dir, "agents", agent_id, "sessions", STORE_FILE))


def _disk_agents(paths: VoraPaths) -> list[tuple[str, Path]]:
    """`<stateDir>/agents/<dir>/` holding a regular file (not a symlink) `sessions/sessions.json`."""
    root = paths.state_dir / "agents"
    try:
        names = sorted(os.listdir(root))
    except OSError:
        return []
    found: list[tuple[str, Path]] = []
    for name in names:
        store = root / name / "sessions" / STORE_FILE
        try:
            info = os.lstat(store)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        agent_id = normalize_agent_id(name)
        if agent_id == DEFAULT_AGENT_ID and name != DEFAULT_AGENT_ID:
            continue
        found.append((agent_id, store))
    return found
