"""Which tools an agent can reach, as the gateway decides it (openclaw 2026.4.12), from the release's tables
in `gateway_tools.json` (docs/security.md, "The gateway's tool policy").
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.agents import normalize_agent_id
from vora_cli.core.records import dataclass
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

TABLES = Path(__file__).resolve().parent / "gateway_tools.json"


@cache
def tables() -> dict[str, Any]:
    data: dict[str, Any] = nesting.loads(TABLES.read_text(encoding="utf-8"))
    return data


@dataclass(frozen=True)
class Policy:
    """One tool policy: an allow list (None or empty: everything) and a deny list."""
    allow: tuple[str, ...] | None = None
    deny: tuple[str, ...] | None = None


def normalize_tool(name: Any) -> str:
    lowered = js_trim(name).lower() if isinstance(name, str) else ""
    found: str = tables()["aliases"].get(lowered, lowered)
    return found


def expand(names: Any) -> list[str]:
    """`expandToolGroups`: names normalised, `group:*` replaced by its tools, each once."""
    groups = tables()["groups"]
    out: dict[str, None] = {}
    for raw in names if isinstance(names, list | tuple) else ():
        name = normalize_tool(raw)
        if not name:
            continue
        for tool in groups.get(name, (name,)):
            out[tool] = None
    return list(out)


def _compile(names: Any) -> list[tuple[str, Any]]:
    patterns: list[tuple[str, Any]] = []
    for name in expand(names):
        if name == "*":
            patterns.append(("all", None))
        elif "*" in name:
            patterns.append(("regex", re.compile("^" + ".*".join(re.escape(p) for p in name.split("*")) + "$",
                                                 re.DOTALL)))
        else:
            patterns.append(("exact", name))
    return patterns


def _matches(name: str, patterns: list[tuple[str, Any]]) -> bool:
    for kind, value in patterns:
        if kind == "all" or (kind == "exact" and name == value) or (kind == "regex" and value.match(name)):
            return True
    return False


def allowed(name: str, policy: Policy | None) -> bool:
    """`makeToolPolicyMatcher`: denied wins; no allow list allows all; `write` covers `apply_patch`."""
    if policy is None:
        return True
    tool = normalize_tool(name)
    deny, allow = _compile(list(policy.deny or ())), _compile(list(policy.allow or ()))
    if _matches(tool, deny) or (tool == "apply_patch" and _matches("write", deny)):
        return False
    if not allow:
        return True
    return _matches(tool, allow) or (tool == "apply_patch" and _matches("write", allow))


def allowed_by_all(name: str, policies: list[Policy]) -> bool:
    return all(allowed(name, policy) for policy in policies)


def profile_policy(profile: Any) -> Policy | None:
    found = tables()["profiles"].get(profile) if isinstance(profile, str) else None
    if not found:
        return None
    return Policy(tuple(found["allow"]) if found.get("allow") is not None else None,
                  tuple(found["deny"]) if found.get("deny") is not None else None)


def _union_allow(base: list[Any] | None, extra: list[Any]) -> tuple[str, ...]:
    if not extra:
        return tuple(base or ())
    start = ["*"] if not base else list(base)
    return tuple(dict.fromkeys([*start, *extra]))


def pick_policy(tools: Any) -> Policy | None:
    """`pickSandboxToolPolicy`: a `tools` object's allow (with alsoAllow) and deny."""
    if not isinstance(tools, dict):
        return None
    allow_list, also = tools.get("allow"), tools.get("alsoAllow")
    allow: tuple[str, ...] | None
    if isinstance(allow_list, list):
        allow = _union_allow(allow_list, also if isinstance(also, list) else [])
    elif isinstance(also, list) and also:
        allow = _union_allow(None, also)
    else:
        allow = None
    deny = tuple(tools["deny"]) if isinstance(tools.get("deny"), list) else None
    if allow is None and deny is None:
        return None
    return Policy(allow, deny)


def agent_entry(config: dict[str, Any], agent_id: str | None) -> dict[str, Any] | None:
    """`resolveAgentEntry`: the agents.list entry whose id normalises to `agent_id`'s (the first)."""
    if agent_id is None:
        return None
    agents = config.get("agents") if isinstance(config.get("agents"), dict) else {}
    assert isinstance(agents, dict)
    listed = agents.get("list")
    if not isinstance(listed, list):
        return None
    return _entries_by_id(listed).get(normalize_agent_id(agent_id))


# The last agents.list indexed, and its index: the checks ask for each agent's entry, and a scan
# per question is quadratic. The list itself is held, so the slot can only answer for that very
# list (a tree is never changed in place).
_INDEXED: list[Any] = [None, {}]


def _entries_by_id(listed: list[Any]) -> dict[str, dict[str, Any]]:
    if _INDEXED[0] is not listed:
        index: dict[str, dict[str, Any]] = {}
        for entry in listed:
            if isinstance(entry, dict):
                index.setdefault(normalize_agent_id(entry.get("id")), entry)
        _INDEXED[:] = [listed, index]
    found: dict[str, dict[str, Any]] = _INDEXED[1]
    return found


def _defaults_sandbox(config: dict[str, Any]) -> dict[str, Any]:
    agents = config.get("agents") if isinstance(config.get("agents"), dict) else {}
    defaults = agents.get("defaults") if isinstance(agents, dict) and isinstance(agents.get("defaults"), dict) else {}
    sandbox = defaults.get("sandbox") if isinstance(defaults, dict) else None
    return sandbox if isinstance(sandbox, dict) else {}


def sandbox_mode(config: dict[str, Any], agent_id: str | None) -> Any:
    """`resolveSandboxConfigForAgent(...).mode`: the agent's, else the defaults', else "off"."""
    entry = agent_entry(config, agent_id)
    own = entry.get("sandbox") if entry is not None else None
    for sandbox in (own if isinstance(own, dict) else {}, _defaults_sandbox(config)):
        if sandbox.get("mode") is not None:
            return sandbox["mode"]
    return "off"


def sandbox_policy(config: dict[str, Any], agent_id: str | None) -> Policy:
    """`resolveSandboxToolPolicyForAgent`: the sandbox's own allow and deny (the agent's lists, else
    the global ones, else the defaults; an explicit allow takes its tools out of the default deny)."""
    entry = agent_entry(config, agent_id)
    agent_tools = entry.get("tools") if entry is not None and isinstance(entry.get("tools"), dict) else {}
    agent_sandbox = agent_tools.get("sandbox") if isinstance(agent_tools, dict) else None
    agent_policy = agent_sandbox.get("tools") if isinstance(agent_sandbox, dict) else None
    tools = config.get("tools") if isinstance(config.get("tools"), dict) else {}
    global_sandbox = tools.get("sandbox") if isinstance(tools, dict) else None
    global_policy = global_sandbox.get("tools") if isinstance(global_sandbox, dict) else None

    def pick(key: str) -> list[Any] | None:
        for policy in (agent_policy, global_policy):
            if isinstance(policy, dict) and isinstance(policy.get(key), list):
                found: list[Any] = policy[key]
                return found
        return None

    allow, also, deny = pick("allow"), pick("alsoAllow"), pick("deny")
    defaults = tables()["sandboxDefault"]
    if isinstance(allow, list):
        merged = [] if not allow else list(dict.fromkeys([*allow, *(also or [])]))
    else:
        merged = list(dict.fromkeys([*defaults["allow"], *(also or [])]))
    if deny is None:
        explicit = list(dict.fromkeys([*(allow or []), *(also or [])]))
        patterns = _compile(explicit)
        deny = [t for t in defaults["deny"] if not patterns or not _matches(normalize_tool(t), patterns)]
    expanded_deny, expanded_allow = expand(deny), expand(merged)
    if expanded_allow and "image" not in expanded_deny and "image" not in expanded_allow:
        expanded_allow.append("image")
    return Policy(tuple(expanded_allow), tuple(expanded_deny))


def tool_policies(config: dict[str, Any], agent_tools: Any, mode: Any, agent_id: str | None) -> list[Policy]:
    """The policies every tool call of one agent passes (the audit's `resolveToolPolicies`)."""
    tools = config.get("tools") if isinstance(config.get("tools"), dict) else {}
    assert isinstance(tools, dict)
    own = agent_tools if isinstance(agent_tools, dict) else {}
    found = [profile_policy(own.get("profile") if own.get("profile") is not None else tools.get("profile")),
             pick_policy(tools or None), pick_policy(agent_tools)]
    policies = [p for p in found if p is not None]
    if mode == "all":
        policies.append(sandbox_policy(config, agent_id))
    return policies
