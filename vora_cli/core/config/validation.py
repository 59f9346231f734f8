"""Type checks of the known keys, and the `vora config validate` report (also doctor's check)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from vora_cli.core.config.keys import KeyNode, KeySpec, key_tree, nodes_spec
from vora_cli.core.config.loading import LoadedConfig
from vora_cli.core.config.owners import locate_owner
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.path_syntax import ConfigPath, Segment, format_config_path
from vora_cli.core.records import dataclass, field, replace
from vora_cli.core.secrets import REDACTED, is_secret_path, redact_string
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.gateway import FactsSource, PluginFacts
    from vora_cli.core.install import Install


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
        ok = isinstance(value, int | float) and not isinstance(value, bool) and is_finite(value) \
            and (isinstance(value, int) or value.is_integer())
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
    """A type error of the known-key table at one path of the tree."""
    path: tuple[Segment, ...]
    severity: str  # "error" (a type error: the only kind this table reports)
    message: str
    expected: str | None = None
    found: str | None = None


def describe_found(value: Any, path: Sequence[Segment]) -> str:
    if is_secret_path(path):
        name = type_name(value)
        return f"{'an' if name[0] in 'aeiou' else 'a'} {name} ({REDACTED})"
    if isinstance(value, str):
        value = redact_string(value)  # before the cut: a cut URL's password is no longer a URL's
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'the string "{shown}"'
    if isinstance(value, dict | list):
        return f"an {type_name(value)}" if type_name(value) in ("object", "array") else type_name(value)
    return f"{type_name(value)} {value!r}".replace("True", "true").replace("False", "false")


def _wrong_members(spec: KeySpec, node: Any, path: tuple[Segment, ...]) -> list[SchemaProblem]:
    """`env.BAR must be a string, not number 5` rather than `env must be an object of strings`."""
    members: list[tuple[Segment, Any]]
    if spec.kind == "string-map" and isinstance(node, dict):
        members = list(node.items())
    elif spec.kind == "string-list" and isinstance(node, list):
        members = list(enumerate(node))
    else:
        return []
    return [SchemaProblem((*path, key), "error", "wrong type or value", "a string",
                          describe_found(value, (*path, key)))
            for key, value in members if not isinstance(value, str)]


def validate_tree(tree: Any) -> list[SchemaProblem]:
    """The type errors at the known keys of a parsed (merged) config tree, walked beside
    `key_tree`. Unknown keys are the gateway's verdict (`gateway_problems`), not this table's."""
    if not isinstance(tree, dict):
        return [SchemaProblem((), "error", "the config must be an object", "an object", type_name(tree))]
    problems: list[SchemaProblem] = []

    def walk(node: Any, path: tuple[Segment, ...], at: tuple[KeyNode, ...]) -> None:
        spec = nodes_spec(at) if path else None
        if spec is not None:
            wrong = check_value(spec, node)
            members = _wrong_members(spec, node, path) if wrong is not None else []
            if members:  # the right container: name the member that is wrong, and the type it wants
                problems.extend(members)
                return
            if wrong is not None:
                problems.append(SchemaProblem(path, "error", "wrong type or value", wrong, describe_found(node, path)))
                return
        if isinstance(node, dict):
            # One table node (the usual case, and the root): its children straight, with no
            # tuple built per key (a big config has thousands of top-level keys).
            only = at[0] if len(at) == 1 else None
            items: Iterable[tuple[str, Any]] = node.items()
            if only is not None and only.any_key is None and len(node) > 4 * len(only.named):
                # Far more members than the table names here (10,000 unknown top-level keys):
                # look up the table's names in the object instead, in the object's own order.
                present = [key for key in only.named if key in node]
                if len(present) > 1:
                    order = list(node)
                    present.sort(key=order.index)
                items = [(key, node[key]) for key in present]
            for key, child in items:
                below = only.children(key) if only is not None else \
                    tuple(step for known in at for step in known.children(key))
                if below and key != "$include":
                    walk(child, (*path, key), below)
        elif isinstance(node, list) and spec is not None and spec.kind == "agent-list":
            for i, child in enumerate(node):
                below = tuple(step for known in at for step in known.children(i))
                if below:
                    walk(child, (*path, i), below)

    walk(tree, (), (key_tree(),))
    return problems


# -- validate -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One finding of `vora config validate`, placed in its file."""
    severity: str  # error | warn | info (a legacy key the gateway migrates)
    file: str
    line: int | None
    col: int | None
    path: str
    message: str
    expected: str | None = None
    found: str | None = None
    suggestion: str | None = None
    # Set when the gateway would refuse it (or log it): the path as the gateway prints it, and the
    # rule (schema, plugin-schema, channel-schema, refine, plugins). None: a rule of vora's own.
    gateway_path: str | None = None
    rule: str | None = None
    # An unknown key the gateway refuses, and the known key it is a typo of (`unknown_key_text`)
    unknown: tuple[str, ...] = ()
    near: tuple[str, str] | None = None

    def said(self) -> str:
        """The problem without its place: its key, its message and what vora adds to it."""
        text = f"{self.path + ': ' if self.path else ''}{self.message}"
        if self.expected:
            text += f": expected {self.expected}"
        if self.found:
            text += f", found {self.found}"
        if self.unknown or self.near:
            from vora_cli.core.config.gateway import unknown_key_text

            text += unknown_key_text(self.message, self.unknown, self.near)
        elif self.suggestion:
            text += f" (did you mean {self.suggestion}?)"
        return text

    def line_text(self) -> str:
        where = self.file + (f":{self.line}:{self.col}" if self.line else "")
        return f"{where}: {self.severity}: {self.said()}"


@dataclass(frozen=True)
class ValidationReport:
    """What `vora config validate` found, vora's table and the gateway's validator together."""
    path: str
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    strict: bool = False
    gateway_version: str | None = None  # the release whose rules the verdict follows

    @property
    def error_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "error")

    @property
    def warning_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "warn")

    @property
    def info_count(self) -> int:
        return sum(1 for p in self.problems if p.severity == "info")

    @property
    def valid(self) -> bool:
        return self.error_count == 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "path": self.path,
            "strict": self.strict,
            "gatewayVersion": self.gateway_version,
            "errors": self.error_count,
            "warnings": self.warning_count,
            "infos": self.info_count,
            "problems": [
                {"severity": p.severity, "file": p.file, "line": p.line, "col": p.col, "key": p.path,
                 "message": p.message, "expected": p.expected, "found": p.found, "suggestion": p.suggestion,
                 "gatewayKey": p.gateway_path, "rule": p.rule}
                for p in self.problems
            ],
        }


def validate_config(install: Install, *, strict: bool = False,
                    plugin_facts: Callable[[dict[str, Any]], PluginFacts] | None = None) -> ValidationReport:
    """The gateway's verdict on the config (syntax, `$include`s, schema, rules, each plugin's
    configSchema), with positions, plus vora's warnings; never raises for a bad file.
    `plugin_facts` (core/plugins/facts.py) tells which plugins the gateway would find; without it
    plugin configs go unchecked."""
    from vora_cli.core.config.gateway import schema_version

    file = str(install.paths.config_path)
    version = schema_version()
    loaded, error = install.config, install.config_error
    if isinstance(error, ParseError):
        return ValidationReport(file, (Problem("error", error.file, error.line, error.col, "", error.what),), strict,
                                version)
    if loaded is None:
        assert error is not None
        return ValidationReport(file, (Problem("error", file, None, None, "", error.message),), strict, version)
    effective = install.effective
    # Discovered only when the verdict's plugin phase has something to check (a `channels` object
    # or a `plugins` key, and no schema or rule error before it): a config it refuses first, or
    # one without plugins, reads no plugin.
    facts = (lambda: plugin_facts(effective)) if plugin_facts is not None else None
    problems = validation_problems(loaded, facts)
    if strict:  # --strict: vora's own warnings are errors too
        problems = [replace(p, severity="error") if p.severity == "warn" and p.rule is None else p for p in problems]
    return ValidationReport(file, tuple(problems), strict, version)


def _position(loaded: LoadedConfig, path: ConfigPath) -> tuple[str, int | None, int | None]:
    """The file that holds `path` and its line:col (the nearest parent that exists, for a missing key)."""
    file = str(loaded.path)
    for end in range(len(path), -1, -1):
        try:
            owner, inner = locate_owner(loaded, path[:end])
        except VoraError:
            continue
        cf = loaded.file_for(owner)
        if cf is not None and cf.doc is not None:
            pos = cf.doc.get_node_position(inner) if inner else None
            if pos:
                return str(owner), pos[0], pos[1]
            if not inner:
                return str(owner), None, None
        file = str(owner)
    return file, None, None


def gateway_problems(loaded: LoadedConfig, facts: FactsSource | None) -> list[Problem]:
    """The gateway's verdict on a loaded config as `Problem`s (errors; its plugin warnings as warnings)."""
    from vora_cli.core.config.gateway import gateway_verdict

    verdict = gateway_verdict(loaded.migrated, facts)
    out: list[Problem] = []
    for severity, issues in (("error", verdict.issues), ("warn", verdict.warnings)):
        for issue in issues:
            file, line, col = _position(loaded, issue.at)
            suggestion = None
            if issue.suggestion is not None:
                _key, near = issue.suggestion
                suggestion = format_config_path((*issue.path, near))
            out.append(Problem(severity, file, line, col, format_config_path(issue.path) if issue.path else "", issue.message,
                               suggestion=suggestion, gateway_path=issue.gateway_path, rule=issue.rule,
                               unknown=issue.unknown, near=issue.suggestion))
    for change in verdict.legacy:
        file, line, col = _position(loaded, change.path)
        out.append(Problem("info", file, line, col, format_config_path(change.path), LEGACY + change.message,
                           gateway_path=".".join(str(seg) for seg in change.path), rule="legacy"))
    return out


# How an info about a legacy key begins; the rest is the gateway's own account of the change.
LEGACY = "legacy key, rewritten by the gateway as it reads the config: "


def validation_problems(loaded: LoadedConfig, facts: FactsSource | None = None) -> list[Problem]:
    """The gateway's verdict on a loaded config and vora's own warnings, each with its file:line:col
    (also `vora doctor`'s config-schema check)."""
    file = str(loaded.path)
    problems = gateway_problems(loaded, facts)
    refused = {p.path for p in problems if p.severity != "info"}
    for sp in validate_tree(loaded.migrated_as_written().tree):  # as the gateway reads it
        # vora's table of the keys it knows (spec config.md) is stricter than the gateway in a few
        # places (a port above 65535): those stay warnings, the verdict is the gateway's.
        if format_config_path(sp.path) in refused:
            continue
        owner_file, line, col = _position(loaded, sp.path)
        # `found` of a secret path is already redacted by validate_tree.
        problems.append(Problem("warn", owner_file, line, col, format_config_path(sp.path), sp.message,
                                sp.expected, sp.found))
    for cf in loaded.files:
        if cf.doc is None:
            continue
        for dup in cf.doc.duplicate_keys():
            (il, ic), (el, ec) = dup.ignored, dup.effective
            problems.append(Problem(
                "warn", str(cf.path), il, ic, format_config_path(dup.path),
                f"duplicate key: this copy (line {il}, col {ic}) is ignored; the one at line {el}, col {ec} wins",
                suggestion=None,
            ))
    for name in loaded.missing_env_vars():
        problems.append(Problem("warn", file, None, None, "", f"${{{name}}} is not set in the environment"))
    order = {"error": 0, "warn": 1, "info": 2}
    problems.sort(key=lambda p: (order[p.severity], p.file != file, p.file, p.line or 0, p.col or 0))
    return problems


