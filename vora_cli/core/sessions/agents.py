"""Agents and where their session stores live (spec sessions.md, "Agents and where stores live")."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths, expand_path

AGENT_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$", re.IGNORECASE)
_INVALID_RUN = re.compile(r"[^a-z0-9_-]+")
DEFAULT_AGENT_ID = "main"
DEFAULT_MAIN_KEY = "main"
STORE_FILE = "sessions.json"


def normalize_agent_id(value: Any) -> str:
    """Trimmed, lower-cased; other characters become `-`; empty (or not a string) is `main`."""
    if not isinstance(value, str):
        return DEFAULT_AGENT_ID
    text = value.strip().lower()
    if not text:
        return DEFAULT_AGENT_ID
    if AGENT_ID_RE.match(text):
        return text
    text = _INVALID_RUN.sub("-", text).strip("-")[:64]
    return text or DEFAULT_AGENT_ID


def _agent_entries(config: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    agents = config.get("agents")
    raw = agents.get("list") if isinstance(agents, Mapping) else None
    return [e for e in raw if isinstance(e, Mapping)] if isinstance(raw, list) else []


def configured_agents(config: Mapping[str, Any]) -> list[str]:
    """The configured agent ids, normalised, duplicates once; `["main"]` without agents.list."""
    ids = [normalize_agent_id(e.get("id")) for e in _agent_entries(config)]
    return list(dict.fromkeys(ids)) or [DEFAULT_AGENT_ID]


def default_agent(config: Mapping[str, Any]) -> str:
    entries = _agent_entries(config)
    if not entries:
        return DEFAULT_AGENT_ID
    chosen = next((e for e in entries if e.get("default") is True), entries[0])
    return normalize_agent_id(chosen.get("id"))


def main_key(config: Mapping[str, Any]) -> str:
    """Config `session.mainKey`, lower-cased, default `main`."""
    session = config.get("session")
    value = session.get("mainKey") if isinstance(session, Mapping) else None
    if isinstance(value, str) and value.strip():
        return value.strip().lower()
    return DEFAULT_MAIN_KEY


def default_store_path(paths: VoraPaths, agent_id: str) -> Path:
    return paths.state_dir / "agents" / agent_id / "sessions" / STORE_FILE


def store_path(config: Mapping[str, Any], paths: VoraPaths, agent_id: str) -> Path:
    """Config `session.store` with `{agentId}` replaced, `~` expanded, relative to the cwd;
    else `<stateDir>/agents/<agentId>/sessions/sessions.json`."""
    session = config.get("session")
    value = session.get("store") if isinstance(session, Mapping) else None
    if isinstance(value, str) and value.strip():
        text = value.strip().replace("{agentId}", agent_id)
        return Path(os.path.abspath(expand_path(text, paths.home)))
    return default_store_path(paths, agent_id)


@dataclass(frozen=True)
class StoreTarget:
    """One session store to read, and the agent it belongs to."""

    agent_id: str
    path: Path
    configured: bool

    @property
    def sessions_dir(self) -> Path:
        return self.path.parent


def _real(path: Path) -> str:
    return os.path.realpath(path)


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


def require_agent(config: Mapping[str, Any], agent: str) -> str:
    """A normalised `--agent` id that names a configured agent, else `agent_not_found`."""
    agent_id = normalize_agent_id(agent)
    known = configured_agents(config)
    if agent_id not in known:
        raise VoraError(
            "agent_not_found",
            f"no agent {agent_id!r} in agents.list",
            f"known agents: {', '.join(known)}; or use --all-agents",
        )
    return agent_id


def store_targets(
    config: Mapping[str, Any], paths: VoraPaths, *, agent: str | None = None, all_agents: bool = False
) -> list[StoreTarget]:
    """The stores to read: the default agent's, `--agent`'s, or every discovered one."""
    if agent is not None and all_agents:
        raise VoraError("usage", "--agent and --all-agents cannot be used together", "pick one")
    if not all_agents:
        agent_id = require_agent(config, agent) if agent is not None else default_agent(config)
        return [StoreTarget(agent_id, store_path(config, paths, agent_id), True)]
    targets: list[StoreTarget] = []
    seen: set[str] = set()
    for agent_id in configured_agents(config):
        path = store_path(config, paths, agent_id)
        if _real(path) not in seen:
            seen.add(_real(path))
            targets.append(StoreTarget(agent_id, path, True))
    configured = set(configured_agents(config))
    for agent_id, path in _disk_agents(paths):
        if _real(path) in seen:
            continue
        seen.add(_real(path))
        targets.append(StoreTarget(agent_id, path, agent_id in configured))
    return targets
