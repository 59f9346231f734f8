"""The keys of vora.json that vora knows (spec config.md, "Keys vora knows").

One table serves `config get` (defaults), `config set` (type checks), `config validate`,
`config schema` (JSON Schema) and doctor's `config-schema` check. The rest of the file is the
gateway's business: unknown keys are reported only inside the objects this table covers.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

Segment = str | int

# Secret paths: the known ones, plus any key whose name looks like a secret, anywhere.
SECRET_KEY_RE = re.compile(r"token|password|secret|api_?key|privatekey", re.IGNORECASE)
REDACTED = "<redacted>"


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
    _k("env", "string-map", "Environment variables for the gateway."),
)

# Objects whose members vora knows completely: an unknown key in one of them is reported.
CLOSED_OBJECTS: tuple[tuple[str, ...], ...] = (
    ("gateway", "auth"),
    ("agents",),
    ("agents", "defaults"),
    ("agents", "list", "[]"),
    ("plugins",),
    ("plugins", "load"),
    ("plugins", "slots"),
    ("plugins", "entries", "*"),
    ("skills",),
    ("skills", "load"),
    ("skills", "entries", "*"),
)
TOP_LEVEL_KNOWN = ("gateway", "agents", "plugins", "skills", "env")


def _matches(pattern: Sequence[str], path: Sequence[Segment]) -> bool:
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


def spec_for(path: Sequence[Segment]) -> KeySpec | None:
    for spec in KNOWN_KEYS:
        if _matches(spec.pattern, path):
            return spec
    return None


def is_secret_path(path: Sequence[Segment]) -> bool:
    spec = spec_for(path)
    if spec is not None and spec.secret:
        return True
    return any(isinstance(seg, str) and SECRET_KEY_RE.search(seg) for seg in path[-1:])


def redact(value: Any, path: Sequence[Segment] = ()) -> Any:
    """A copy of `value` (found at `path`) with every secret replaced by "<redacted>"."""
    if path and is_secret_path(path) and not isinstance(value, dict | list):
        return REDACTED if value is not None else None
    if isinstance(value, dict):
        return {k: redact(v, (*path, k)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact(v, (*path, i)) for i, v in enumerate(value)]
    return value


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def expected_text(spec: KeySpec) -> str:
    if spec.kind == "enum":
        return "one of " + ", ".join(f'"{c}"' for c in spec.choices)
    if spec.kind == "integer":
        if spec.minimum is not None and spec.maximum is not None:
            return f"an integer {spec.minimum}-{spec.maximum}"
        if spec.minimum is not None:
            return f"an integer >= {spec.minimum}"
        return "an integer"
    return {
        "string": "a string",
        "path": "a path (string)",
        "plugin-id": "a plugin id (string)",
        "boolean": "true or false",
        "string-list": "an array of strings",
        "object": "an object",
        "agent-list": "an array of {id, workspace?, default?} objects",
        "string-map": "an object of strings",
    }[spec.kind]


def check_value(spec: KeySpec, value: Any) -> str | None:
    """None when `value` fits `spec`, else what is wrong (for a message)."""
    kind = spec.kind
    ok: bool
    if kind in ("string", "path", "plugin-id"):
        ok = isinstance(value, str) and (kind == "string" or value.strip() != "")
    elif kind == "enum":
        ok = isinstance(value, str) and value in spec.choices
    elif kind == "integer":
        ok = isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
            and float(value).is_integer()
        if ok and spec.minimum is not None and value < spec.minimum:
            ok = False
        if ok and spec.maximum is not None and value > spec.maximum:
            ok = False
    elif kind == "boolean":
        ok = isinstance(value, bool)
    elif kind == "string-list":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif kind in ("object", "agent-list"):
        ok = isinstance(value, dict) if kind == "object" else isinstance(value, list) and all(
            isinstance(v, dict) for v in value)
    elif kind == "string-map":
        ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    else:  # pragma: no cover - the table is closed
        ok = True
    return None if ok else expected_text(spec)


@dataclass(frozen=True)
class SchemaProblem:
    path: tuple[Segment, ...]
    severity: str  # "error" | "warn"
    message: str
    expected: str | None = None
    found: str | None = None
    suggestion: str | None = None


def _known_children(parent: Sequence[Segment]) -> list[str]:
    names: set[str] = set()
    depth = len(parent)
    for spec in KNOWN_KEYS:
        if len(spec.pattern) > depth and _matches(spec.pattern[:depth], parent):
            child = spec.pattern[depth]
            if child not in ("*", "[]"):
                names.add(child)
    return sorted(names)


def _describe_found(value: Any, path: Sequence[Segment]) -> str:
    if is_secret_path(path):
        name = type_name(value)
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name} ({REDACTED})"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'the string "{shown}"'
    if isinstance(value, dict | list):
        return f"an {type_name(value)}" if type_name(value) in ("object", "array") else type_name(value)
    return f"{type_name(value)} {value!r}".replace("True", "true").replace("False", "false")


def validate_tree(tree: Any) -> list[SchemaProblem]:
    """Check the known keys of a parsed (merged) config tree; unknown keys become warnings."""
    problems: list[SchemaProblem] = []
    if not isinstance(tree, dict):
        return [SchemaProblem((), "error", "the config must be an object", "an object", type_name(tree))]

    def walk(node: Any, path: tuple[Segment, ...]) -> None:
        spec = spec_for(path) if path else None
        if spec is not None:
            wrong = check_value(spec, node)
            if wrong is not None:
                problems.append(SchemaProblem(path, "error", "wrong type or value", wrong, _describe_found(node, path)))
                return
        if isinstance(node, dict):
            closed = any(_matches(c, path) for c in CLOSED_OBJECTS)
            known = _known_children(path)
            for key, child in node.items():
                child_path = (*path, key)
                if key == "$include":
                    continue
                if closed and key not in known and spec_for(child_path) is None:
                    near = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                    problems.append(SchemaProblem(child_path, "warn", "unknown key", None, None,
                                                  near[0] if near else None))
                    continue
                siblings = known if path else list(TOP_LEVEL_KNOWN)
                if siblings and key not in siblings and spec_for(child_path) is None:
                    # An open object (the gateway has keys vora does not know): only near misses.
                    near = difflib.get_close_matches(key, siblings, n=1, cutoff=0.75)
                    if near:
                        problems.append(SchemaProblem(child_path, "warn", "unknown key", None, None, near[0]))
                    if not path or near:
                        continue
                walk(child, child_path)
        elif isinstance(node, list) and spec is not None and spec.kind == "agent-list":
            for i, child in enumerate(node):
                walk(child, (*path, i))

    walk(tree, ())
    return problems


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
        if not spec.has_default or not rest or not _matches(spec.pattern[:depth], path):
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
