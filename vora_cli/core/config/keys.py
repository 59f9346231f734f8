"""The keys of vora.json that vora knows (spec config.md, "Keys vora knows"): one table for `config
get/set/validate/schema` and doctor; unknown keys are reported only inside the objects it covers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache

from vora_cli.core.json5.path_syntax import Segment
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass(frozen=True)
class KeySpec:
    """One known key. Pattern segments: a name, `*` (any key) or `[]` (any array index)."""

    pattern: tuple[str, ...]
    kind: str  # string | integer | boolean | enum | string-list | object | path | plugin-id | agent-list | string-map
    description: str
    default: Any = None
    has_default: bool = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    secret: bool = False

    @property
    def path(self) -> str:
        return ".".join(self.pattern).replace(".[]", "[]")


def _k(path: str, kind: str, description: str, **extra: Any) -> KeySpec:
    pattern = tuple(path.replace("[]", ".[]").split("."))
    if "default" in extra:
        extra["has_default"] = True
    return KeySpec(pattern=pattern, kind=kind, description=description, **extra)


KNOWN_KEYS: tuple[KeySpec, ...] = (
    _k("gateway.mode", "enum", "Run the gateway locally or connect to a remote one.", choices=("local", "remote")),
    _k("gateway.port", "integer", "Gateway WebSocket/HTTP port.", default=18789, minimum=1, maximum=65535),
    _k("gateway.bind", "enum", "Which interfaces the gateway listens on.", default="loopback",
       choices=("loopback", "lan", "tailnet", "auto")),
    _k("gateway.auth.mode", "enum", "How clients authenticate.", choices=("token", "password", "trusted-proxy", "none")),
    _k("gateway.auth.token", "string", "Gateway auth token (secret; VORA_GATEWAY_TOKEN stands in for it).", secret=True),
    _k("gateway.auth.password", "string", "Gateway auth password (secret).", secret=True),
    _k("agents.defaults.workspace", "path", "Default agent workspace.", default="~/.vora/workspace"),
    _k("agents.defaults.bootstrapMaxChars", "integer", "Per-file cap for injected workspace files.", default=20000,
       minimum=1),
    _k("agents.defaults.bootstrapTotalMaxChars", "integer", "Total cap for injected workspace files.",
       default=150000, minimum=1),
    _k("agents.defaults.bootstrapPromptTruncationWarning", "enum", "When to warn the model about truncation.",
       default="once", choices=("off", "once", "always")),
    _k("agents.defaults.compaction.model", "string", "Model used for compaction."),
    _k("agents.list", "agent-list", "Agents: {id, workspace?, default?}.", default=[]),
    _k("agents.list[].id", "string", "Agent id."),
    _k("agents.list[].workspace", "path", "This agent's workspace."),
    _k("agents.list[].default", "boolean", "The default agent."),
    _k("plugins.enabled", "boolean", "Load plugins at all.", default=True),
    _k("plugins.allow", "string-list", "Only these plugin ids may load (when non-empty)."),
    _k("plugins.deny", "string-list", "These plugin ids never load."),
    _k("plugins.load.paths", "string-list", "Extra plugin folders or files (linked plugins).", default=[]),
    _k("plugins.slots.contextEngine", "plugin-id", "The context engine.", default="legacy"),
    _k("plugins.slots.memory", "plugin-id", "The memory plugin, or none.", default="memory-core"),
    _k("plugins.entries.*.enabled", "boolean", "Enable or disable one plugin."),
    _k("plugins.entries.*.config", "object", "The plugin's own config (validated by its configSchema)."),
    _k("plugins.installs.*", "object", "Install record written by vora plugins install."),
    _k("skills.load.extraDirs", "string-list", "Extra skill roots (lowest precedence).", default=[]),
    _k("skills.entries.*.enabled", "boolean", "Enable or disable one skill."),
    _k("env", "object", "The gateway's environment: vars, shellEnv, or variables directly (the older spelling)."),
    _k("env.vars", "string-map", "Environment variables the gateway sets for its runs."),
    _k("env.shellEnv", "object", "Import the environment of the login shell at start."),
    _k("env.shellEnv.enabled", "boolean", "Load the login shell's environment at start."),
    _k("env.shellEnv.timeoutMs", "integer", "How long the shell may take, in ms.", minimum=0),
    _k("env.*", "string", "One environment variable for the gateway (the older spelling of env.vars)."),
)

def matches_pattern(pattern: Sequence[str], path: Sequence[Segment]) -> bool:
    if len(pattern) != len(path):
        return False
    for want, seg in zip(pattern, path, strict=True):
        if want == "[]":
            if not isinstance(seg, int):
                return False
        elif want == "*":
            if not isinstance(seg, str):
                return False
        elif want != seg:
            return False
    return True


class KeyNode:
    """One step of the table's patterns as a tree, walked beside the config's own tree by
    `validate_tree`. `named`: literal children; `any_key` (`*`), `any_index` (`[]`): wildcards;
    `spec`: the first table entry whose pattern ends here, with its place in the table."""

    __slots__ = ("any_index", "any_key", "named", "spec")

    def __init__(self) -> None:
        self.named: dict[str, KeyNode] = {}
        self.any_key: KeyNode | None = None
        self.any_index: KeyNode | None = None
        self.spec: tuple[int, KeySpec] | None = None

    def children(self, seg: Segment) -> tuple[KeyNode, ...]:
        """The nodes a path segment leads to (a literal and a wildcard may both match)."""
        if isinstance(seg, int):
            return () if self.any_index is None else (self.any_index,)
        named = self.named.get(seg)
        if named is None:
            return () if self.any_key is None else (self.any_key,)
        return (named,) if self.any_key is None else (named, self.any_key)


def nodes_spec(nodes: Sequence[KeyNode]) -> KeySpec | None:
    """The spec of a path that matches `nodes`: the first in the table, as `spec_for` picks it."""
    found = [node.spec for node in nodes if node.spec is not None]
    return min(found, key=lambda pair: pair[0])[1] if found else None


@cache
def key_tree() -> KeyNode:
    """The root of the patterns of `KNOWN_KEYS`, as a tree of `KeyNode`s."""
    root = KeyNode()
    for index, spec in enumerate(KNOWN_KEYS):
        node = root
        for want in spec.pattern:
            if want == "[]":
                node.any_index = node.any_index or KeyNode()
                node = node.any_index
            elif want == "*":
                node.any_key = node.any_key or KeyNode()
                node = node.any_key
            else:
                node = node.named.setdefault(want, KeyNode())
        if node.spec is None:
            node.spec = (index, spec)
    return root


def spec_for(path: Sequence[Segment]) -> KeySpec | None:
    nodes: tuple[KeyNode, ...] = (key_tree(),)
    for seg in path:
        nodes = tuple(child for node in nodes for child in node.children(seg))
        if not nodes:
            return None
    return nodes_spec(nodes)


def default_for(path: Sequence[Segment]) -> tuple[bool, Any]:
    spec = spec_for(path)
    if spec is None or not spec.has_default:
        return False, None
    return True, spec.default


def defaults_under(path: Sequence[Segment]) -> dict[str, Any]:
    """The defaults of the known keys below `path`, as a nested object (empty: none)."""
    out: dict[str, Any] = {}
    depth = len(path)
    for spec in KNOWN_KEYS:
        rest = spec.pattern[depth:]
        if not spec.has_default or not rest or not matches_pattern(spec.pattern[:depth], path):
            continue
        if any(seg in ("*", "[]") for seg in rest):
            continue
        node = out
        for seg in rest[:-1]:
            node = node.setdefault(seg, {})
        node[rest[-1]] = spec.default
    return out


def known_paths() -> Iterator[str]:
    for spec in KNOWN_KEYS:
        yield spec.path


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the keys vora knows; other keys are allowed."""

    def leaf(spec: KeySpec) -> dict[str, Any]:
        kind = spec.kind
        out: dict[str, Any]
        if kind in ("string", "path", "plugin-id"):
            out = {"type": "string"}
        elif kind == "enum":
            out = {"type": "string", "enum": list(spec.choices)}
        elif kind == "integer":
            out = {"type": "integer"}
            if spec.minimum is not None:
                out["minimum"] = spec.minimum
            if spec.maximum is not None:
                out["maximum"] = spec.maximum
        elif kind == "boolean":
            out = {"type": "boolean"}
        elif kind == "string-list":
            out = {"type": "array", "items": {"type": "string"}}
        elif kind == "string-map":
            out = {"type": "object", "additionalProperties": {"type": "string"}}
        elif kind == "agent-list":
            out = {"type": "array", "items": {"type": "object"}}
        else:
            out = {"type": "object"}
        out["description"] = spec.description
        if spec.has_default:
            out["default"] = spec.default
        if spec.secret:
            out["writeOnly"] = True
        return out

    root: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "vora.json (the keys vora knows)",
        "type": "object",
        "properties": {},
    }

    def place(node: dict[str, Any], pattern: Sequence[str], spec: KeySpec) -> None:
        head, rest = pattern[0], pattern[1:]
        if head == "[]":
            items = node.setdefault("items", {"type": "object", "properties": {}})
            target = items
        elif head == "*":
            target = node.setdefault("additionalProperties", {"type": "object", "properties": {}})
        else:
            node.setdefault("type", "object")
            target = node.setdefault("properties", {}).setdefault(head, {})
        if not rest:
            merged = leaf(spec)
            for key, value in merged.items():
                target.setdefault(key, value)
            return
        target.setdefault("type", "object")
        place(target, rest, spec)

    for spec in KNOWN_KEYS:
        place(root, spec.pattern, spec)
    return root
