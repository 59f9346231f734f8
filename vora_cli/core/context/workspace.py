"""Which workspace directory the gateway uses for an agent (spec ``context.md`` § Which workspace)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vora_cli.core.context.text import js_trim
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import default_workspace, expand_path


def agents_defaults(config: Mapping[str, Any]) -> Mapping[str, Any]:
    agents = config.get("agents") if isinstance(config, Mapping) else None
    defaults = agents.get("defaults") if isinstance(agents, Mapping) else None
    return defaults if isinstance(defaults, Mapping) else {}


@dataclass(frozen=True)
class WorkspaceChoice:
    path: Path
    agent_id: str
    # "flag" | "agent" (agents.list[i].workspace) | "defaults" (agents.defaults.workspace)
    # | "default" (~/.vora/workspace[-<profile>]) | "state-dir" (<stateDir>/workspace-<id>)
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "agentId": self.agent_id, "source": self.source}


def _normalize_agent_id(value: str) -> str:
    return value.strip().lower()


def _string_setting(value: Any, where: str) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise VoraError("invalid", f"{where} must be a string path", f"fix {where} in the config file")
    return js_trim(value) or None


def resolve_workspace(
    config: Mapping[str, Any],
    *,
    agent_id: str | None,
    workspace_flag: str | None,
    home: Path,
    state_dir: Path,
    profile: str | None,
    config_dir: Path,
) -> WorkspaceChoice:
    """The workspace directory the gateway would use (spec § Which workspace).

    Path values follow the one path rule (``core.paths.expand_path``): blanks around them go,
    ``~`` is ``home``, a relative path in the config is relative to ``config_dir`` (the
    directory of the config file: our decision, since the gateway's working directory is
    unknown offline), and a relative ``--workspace`` to the current directory. A blank setting
    is unset. An ``--agent`` that the config does not define is an error (``not_found``)
    rather than a guess. Plugin discovery uses this too, for the default agent.
    """
    agents = config.get("agents") if isinstance(config, Mapping) else None
    raw_list = agents.get("list") if isinstance(agents, Mapping) else None
    entries: list[Mapping[str, Any]] = (
        [e for e in raw_list if isinstance(e, Mapping)] if isinstance(raw_list, list) else []
    )
    ids = [_normalize_agent_id(e["id"]) if isinstance(e.get("id"), str) else "" for e in entries]

    if entries:
        default_index = next((i for i, e in enumerate(entries) if e.get("default") is True), 0)
        if not ids[default_index]:
            ids[default_index] = "main"
        default_id = ids[default_index]
    else:
        default_id = "main"
    chosen = _normalize_agent_id(agent_id) if agent_id is not None else default_id

    if workspace_flag is not None:
        flag_path = expand_path(workspace_flag, home)
        return WorkspaceChoice(flag_path, chosen, "flag")

    entry_index: int | None = None
    if chosen in ids:
        entry_index = ids.index(chosen)
    elif chosen != default_id:
        known = ", ".join(i for i in ids if i) or "main"
        raise VoraError(
            "not_found",
            f"no agent {chosen!r} in agents.list",
            f"known agents: {known}; or pass --workspace DIR",
        )

    if entry_index is not None:
        own = _string_setting(entries[entry_index].get("workspace"), f"agents.list[{entry_index}].workspace")
        if own:
            return WorkspaceChoice(expand_path(own, home, config_dir), chosen, "agent")

    defaults_ws = _string_setting(agents_defaults(config).get("workspace"), "agents.defaults.workspace")
    if chosen == default_id:
        if defaults_ws:
            return WorkspaceChoice(
                expand_path(defaults_ws, home, config_dir), chosen, "defaults"
            )
        return WorkspaceChoice(default_workspace(home, profile), chosen, "default")
    if defaults_ws:
        base = expand_path(defaults_ws, home, config_dir)
        return WorkspaceChoice(base / chosen, chosen, "defaults")
    return WorkspaceChoice(state_dir / f"workspace-{chosen}", chosen, "state-dir")
