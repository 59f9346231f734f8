"""The gateway's own verdict on a config: its JSON Schema, its plugin checks, its cross-field rules, in its
wording, validated per top-level key (docs/config.md, "The gateway's verdict").

Why one module: zod's and ajv's wordings and the gateway's phases translate one validator.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path

from vora_cli.core.config import verdicts
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.path_syntax import Segment
from vora_cli.core.records import dataclass, field
from vora_cli.core.strict_json import js_number
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.migrations import LegacyKey, Migrated

SCHEMA_DIR = Path(__file__).resolve().parent / "gateway_schema"
ROOT = "<root>"
# Channel keys the gateway's zod schema owns itself; any other key of `channels` must be a channel id.
CHANNEL_OWN_KEYS = ("defaults", "modelByChannel")
# Messages zod gives for a rule the export writes as a bare `pattern` (zod-schema.ts `.regex(re, message)`).
ZOD_PATTERN_MESSAGES = {"^#?[0-9a-fA-F]{6}$": "expected hex color (RRGGBB)"}
MAX_ALLOWED_SHOWN = 12  # the gateway's summarizeAllowedValues


@dataclass(frozen=True)
class GatewayIssue:
    """One thing the gateway would refuse (or, as a warning, log): where, and its words."""

    path: tuple[Segment, ...]
    message: str
    allowed: tuple[str, ...] = ()
    rule: str = "schema"  # schema | plugin-schema | channel-schema | refine | plugins
    # The first unknown key near a known one, and that key: the one "did you mean" names.
    suggestion: tuple[str, str] | None = None
    unknown: tuple[str, ...] = ()  # the keys an "Unrecognized key" issue names
    where: tuple[Segment, ...] | None = None  # where in the file it comes from, when not at `path`
    # zod stops refining the objects around an issue of type, union or literal; a failed check (a
    # bound, a length, a pattern) and an unknown key let their `superRefine`s run (sandbox_issues)
    halts: bool = True

    @property
    def at(self) -> tuple[Segment, ...]:
        """Where in the file to point: `where` (the load path a plugin diagnostic came from), the
        first unknown key itself, else the path."""
        if self.where is not None:
            return self.where
        return (*self.path, self.unknown[0]) if self.unknown else self.path

    @property
    def gateway_path(self) -> str:
        """The path as the gateway prints it: `agents.list.0.id`, `<root>`."""
        return ".".join(str(seg) for seg in self.path) if self.path else ROOT

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.gateway_path, "message": self.message}
        if self.allowed:
            out["allowedValues"] = list(self.allowed)
        return out


@dataclass(frozen=True)
class PluginSchemaInfo:
    """What the gateway knows of one plugin when it validates: its id, kind, configSchema, and
    whether it loads it (its activation rules and the memory slot; first copy of an id only, as
    discovery finds them)."""

    id: str
    kind: tuple[str, ...]
    config_schema: Mapping[str, Any] | None
    enabled: bool
    channels: tuple[str, ...] = ()
    manifest_file: str | None = None  # where its configSchema was read: named when that schema is broken
    reason: str = ""  # the gateway's words for why it does not load it (activation's `rule`), when it does not


@dataclass(frozen=True)
class RegistryDiagnostic:
    """What the gateway's plugin registry says as it loads (openclaw 2026.4.12
    `loadPluginManifestRegistry`): an error makes the config invalid, a warning is logged.
    `plugin_id`: set once a manifest named the plugin. `load_index`: the `plugins.load.paths`
    entry whose walk raised it."""

    level: str  # "error" | "warn"
    message: str
    plugin_id: str | None = None
    load_index: int | None = None

    @property
    def issue(self) -> GatewayIssue:
        """The issue (or warning) the gateway's validator makes of it, in its words: `plugin: …` at
        `plugins` (`plugins.load.paths` for a path not found), `plugin <id>: …` at its entry."""
        if self.plugin_id:
            return GatewayIssue(("plugins", "entries", self.plugin_id), f"plugin {self.plugin_id}: {self.message}",
                                rule="plugins")
        path: tuple[Segment, ...] = ("plugins", "load", "paths") if "plugin path not found" in self.message \
            else ("plugins",)
        where = None if self.load_index is None else ("plugins", "load", "paths", self.load_index)
        return GatewayIssue(path, f"plugin: {self.message}", rule="plugins", where=where)


@dataclass(frozen=True)
class PluginFacts:
    """The plugins the gateway would find and what its registry said finding them (discovery's
    answer, passed in: this module reads no plugin)."""

    plugins: tuple[PluginSchemaInfo, ...] = ()
    diagnostics: tuple[RegistryDiagnostic, ...] = ()
    # the bundled plugins the gateway loads with this config: their settings are validated even when
    # none are set (`entry.config ?? {}`), so one with required settings and none set is refused
    bundled_enabled: frozenset[str] = frozenset()
    # the channels the gateway's bundled plugins provide (its known channels): the shipped schema also
    # describes channels no plugin of the release provides (`qa-channel`), which it calls unknown.
    # None: not known here, the schema's channels stand in
    bundled_channels: frozenset[str] | None = None
    # The commands plugins declare (`commandAliases`: `pair` is device-pair's), lower-cased, with their
    # plugin, in the registry's order; and every id in the registry, lower-cased (a command named like a
    # plugin is that plugin, never a command)
    command_aliases: tuple[tuple[str, str], ...] = ()
    lowered_ids: frozenset[str] = frozenset()
    # The bundled plugins the config names that the gateway does not load, with its reason
    bundled_disabled: Mapping[str, str] = field(default_factory=dict)
    # The bundled web search plugins: a non-empty allow list lets them through, and they are not
    # warned about for settings kept while disabled (`withBundledPluginAllowlistCompat`)
    web_search_ids: frozenset[str] = frozenset()
    # The channel schemas plugins declare in their manifests (`channelConfigs.<id>.schema`), the one
    # the gateway picks for each channel (core/plugins/manifest.channel_schemas): each replaces the
    # shipped schema of its channel
    channel_schemas: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def known_ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self.plugins) | frozenset(bundled_plugin_schemas())


# The plugin facts, or how to gather them: discovery reads every plugin folder (and its modules
# cost an import), so the verdict gathers them only when its plugin phase has something to check.
FactsSource = PluginFacts | Callable[[], PluginFacts]


@dataclass(frozen=True)
class GatewayVerdict:
    """What the gateway's validator says of a config: the issues it refuses and its warnings."""
    issues: tuple[GatewayIssue, ...]
    warnings: tuple[GatewayIssue, ...] = field(default_factory=tuple)
    version: str = ""
    # The legacy keys the gateway migrated before it judged (core/config/migrations): each an info.
    legacy: tuple[LegacyKey, ...] = ()

    @property
    def valid(self) -> bool:
        return not self.issues


# -- the shipped schema -------------------------------------------------------------------------


@cache
def schema_index() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMA_DIR / "index.json").read_text(encoding="utf-8"))
    return data


def schema_version() -> str:
    return str(schema_index()["version"])


def top_level_keys() -> tuple[str, ...]:
    return tuple(schema_index()["files"])


@cache
def _raw_top_schema(key: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMA_DIR / schema_index()["files"][key]).read_text(encoding="utf-8"))
    return data


@cache
def top_schema(key: str) -> dict[str, Any]:
    """The schema zod applies to top-level `key`. Two parts the export merged in are validated by
    the gateway later, with ajv, and are taken out here: the bundled plugins' configs under
    `plugins.entries.<id>.config` and the channels' own schemas under `channels.<id>`."""
    raw = _raw_top_schema(key)
    if key == "plugins":
        entries = raw["properties"]["entries"]
        return {**raw, "properties": {**raw["properties"], "entries": {k: v for k, v in entries.items()
                                                                      if k != "properties"}}}
    if key == "channels":
        own = {k: v for k, v in raw.get("properties", {}).items() if k in CHANNEL_OWN_KEYS}
        return {"type": "object", "properties": own}
    return raw


@cache
def bundled_plugin_schemas() -> dict[str, dict[str, Any]]:
    """The config schemas of the plugins bundled with the gateway, by id (from the shipped schema)."""
    entries = _raw_top_schema("plugins")["properties"]["entries"].get("properties", {})
    return {pid: node.get("properties", {}).get("config", {"type": "object"}) for pid, node in entries.items()}


@cache
def bundled_channel_schemas() -> dict[str, dict[str, Any]]:
    props = _raw_top_schema("channels").get("properties", {})
    return {cid: node for cid, node in props.items() if cid not in CHANNEL_OWN_KEYS}


_compiled: dict[int, Any] = {}
# Plugin ids the gateway removed (openclaw 2026.4.12's LEGACY_REMOVED_PLUGIN_IDS): named anywhere, a warning.
LEGACY_REMOVED_PLUGIN_IDS = frozenset(("google-antigravity-auth", "google-gemini-cli-auth"))


class InvalidSchema(VoraError):
    """A plugin's `configSchema` that is not a JSON Schema (`{"type": "objekt"}`): the gateway's ajv
    refuses to compile it ("schema is invalid") and the gateway does not start while it loads that
    plugin. `where`: the keyword's path inside the schema; `reason`: the validator's words.
    `named` says whose schema it is and in which file."""

    def __init__(self, reason: str, where: tuple[Segment, ...], message: str | None = None) -> None:
        self.reason = reason
        self.where = where
        super().__init__("invalid", message or f"{self.what}: not a valid JSON Schema",
                         "fix the plugin's configSchema (its author's, or yours), or remove the plugin; the gateway "
                         "refuses to start while it loads it")

    @property
    def what(self) -> str:
        return f"configSchema{''.join(f'.{key}' for key in self.where)}: {self.reason}"

    def named(self, plugin_id: str, manifest_file: str | None) -> InvalidSchema:
        at = f" ({manifest_file})" if manifest_file else ""
        return InvalidSchema(self.reason, self.where,
                             f"plugin {plugin_id}{at}: {self.what}: not a valid JSON Schema")


def check_schema(schema: Mapping[str, Any]) -> None:
    """`InvalidSchema` unless `schema` is a JSON Schema the validator compiles. A schema it compiled
    before is not compiled again: that verdict is remembered as a value's is (core/config/verdicts.py),
    so `doctor` on an unchanged install does not load the validator for it."""
    # this module's rules are part of the verdict (`_refuse_enums`): a new vora asks again
    seen, key = verdicts.look_up(verdicts.file_identity(Path(__file__)), schema)
    if seen:
        return
    _validator(schema)
    if key is not None:
        verdicts.remember(key)


def _no_external_schemas(uri: str) -> Any:
    """A `$ref` to another document is never fetched (vora reads no network and no file a plugin's
    manifest names; the gateway's validator refuses a reference it cannot resolve): the schema does
    not compile."""
    raise ValueError(f"$ref {uri} is outside the schema (vora resolves no external reference)")


def _validator(schema: Mapping[str, Any]) -> Any:
    """A compiled draft-07 validator, once per schema object of this run (`InvalidSchema` when the
    schema is not one)."""
    found = _compiled.get(id(schema))
    if found is None:
        import jsonschema_rs  # lazy: only a command that validates pays for its import

        _refuse_enums(schema)
        try:
            compiled = jsonschema_rs.Draft7Validator(dict(schema), retriever=_no_external_schemas)
        except ValueError as exc:  # jsonschema_rs.ValidationError, and any other refusal of the schema
            reason = str(getattr(exc, "message", None) or exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise InvalidSchema(reason, tuple(getattr(exc, "instance_path", ()) or ())) from None
        found = (schema, compiled)
        _compiled[id(schema)] = found
    return found[1]


# The keywords whose value is a schema, a list of schemas, or a map of names to schemas (draft-07).
_ONE_SCHEMA = ("additionalItems", "additionalProperties", "contains", "else", "if", "items", "not", "propertyNames",
               "then")
_SCHEMA_LISTS = ("allOf", "anyOf", "items", "oneOf")
_SCHEMA_MAPS = ("definitions", "dependencies", "patternProperties", "properties")


def _refuse_enums(schema: Mapping[str, Any]) -> None:
    """What the gateway's ajv meta-schema refuses beyond the draft-07 one jsonschema_rs checks: an
    `enum` with no item, or with one item twice (`InvalidSchema` naming where)."""
    todo: list[tuple[Any, tuple[Segment, ...]]] = [(schema, ())]
    while todo:
        node, where = todo.pop()
        if not isinstance(node, dict):
            continue
        enum = node.get("enum")
        if isinstance(enum, list):
            shown = json.dumps(enum, separators=(",", ":"))[:60]
            if not enum:
                raise InvalidSchema(f"{shown} has less than 1 item", (*where, "enum"))
            texts = [json.dumps(_as_js(item), sort_keys=True) for item in enum]
            if len(set(texts)) < len(texts):
                raise InvalidSchema(f"{shown} has non-unique elements", (*where, "enum"))
        for key in _ONE_SCHEMA:
            if isinstance(node.get(key), dict):
                todo.append((node[key], (*where, key)))
        for key in _SCHEMA_LISTS:
            if isinstance(node.get(key), list):
                todo.extend((item, (*where, key, i)) for i, item in enumerate(node[key]))
        for key in _SCHEMA_MAPS:
            if isinstance(node.get(key), dict):
                todo.extend((item, (*where, key, name)) for name, item in node[key].items())


def _as_js(value: Any) -> Any:
    """JSON data as JavaScript compares it: 1 and 1.0 are one number."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _as_js(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_as_js(v) for v in value]
    return value


def _top_identity(key: str) -> str:
    return verdicts.file_identity(SCHEMA_DIR / schema_index()["files"][key], Path(__file__))


def _errors(schema: Mapping[str, Any], value: Any, looked_up: tuple[str | None] | None = None) -> list[Any]:
    """The validator's errors for `value`. A lone surrogate (a non-UTF-8 byte from a file name or
    an argument, config.md) cannot cross into the Rust validator: such strings are checked with
    U+FFFD in their place (the same type, so the rules judge them alike but for lengths and patterns).
    `looked_up`: (the digest,) when the caller already looked the verdict up; else it is looked up here."""
    if looked_up is None:
        seen, key = verdicts.look_up(verdicts.schema_text(schema), value)
        if seen:
            return []
    else:
        key = looked_up[0]
    validator = _validator(schema)
    try:
        errors = list(validator.iter_errors(value))
    except UnicodeEncodeError:
        errors = list(validator.iter_errors(_without_surrogates(value)))
    if not errors and key is not None:
        verdicts.remember(key)
    return errors


def _without_surrogates(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace") if any(
            "\ud800" <= c <= "\udfff" for c in value) else value
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    return value


def _node_at(schema: Any, schema_path: Sequence[Any]) -> Any:
    node = schema
    for part in schema_path:
        if isinstance(node, list):
            node = node[int(part)]
        elif isinstance(node, dict):
            node = node.get(str(part), {})
        else:
            return {}
    return node


# -- values as JavaScript prints them -----------------------------------------------------------


def _allowed_label(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 160 else value[:160] + f"... (+{len(value) - 160} chars)",
                          ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def _allowed_value(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _with_allowed(message: str, values: Sequence[Any]) -> tuple[str, tuple[str, ...]]:
    """The gateway's `(allowed: …)` hint (its `appendAllowedValuesHint`), and the values it lists."""
    seen: list[Any] = []
    for value in values:
        if not any(type(v) is type(value) and v == value for v in seen):
            seen.append(value)
    shown = seen[:MAX_ALLOWED_SHOWN]
    text = ", ".join(_allowed_label(v) for v in shown)
    if len(seen) > len(shown):
        text += f", ... (+{len(seen) - len(shown)} more)"
    lowered = message.lower()
    if "(allowed:" not in lowered and "expected one of" not in lowered:
        message = f"{message} (allowed: {text})"
    return message, tuple(_allowed_value(v) for v in shown)


def _zod_received(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "NaN" if isinstance(value, float) and math.isnan(value) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _literals(node: Any) -> list[Any] | None:
    """The values of a union of literals (`anyOf` of `const`/`enum`, nested), else None."""
    if not isinstance(node, dict):
        return None
    if "const" in node:
        return [node["const"]]
    if isinstance(node.get("enum"), list):
        return list(node["enum"])
    branches = node.get("anyOf")
    if isinstance(branches, list) and branches:
        values: list[Any] = []
        for branch in branches:
            found = _literals(branch)
            if found is None:
                return None
            values.extend(found)
        return values
    return None


# -- zod's words, for the schema phase -------------------------------------------------------------


def _zod_missing(node: Any) -> tuple[str, tuple[str, ...]]:
    """What zod says about a required key that is absent (it parses `undefined` against the key's schema)."""
    literals = _literals(node)
    if literals is not None and isinstance(node, dict) and "anyOf" in node:
        return _with_allowed("Invalid input", literals)
    if isinstance(node, dict) and "enum" in node:
        return _with_allowed("Invalid option: expected one of " + "|".join(_allowed_label(v) for v in node["enum"]),
                             node["enum"])
    wanted = node.get("type") if isinstance(node, dict) else None
    if isinstance(wanted, str):
        name = "number" if wanted == "integer" else wanted
        message = f"Invalid input: expected {name}, received undefined"
        return _with_allowed(message, [True, False]) if wanted == "boolean" else (message, ())
    return "Invalid input", ()


def unknown_key_text(message: str, unknown: Sequence[str], suggestion: tuple[str, str] | None) -> str:
    """What vora says after the gateway's words about an unknown key: the key, when the words do
    not name it (ajv's "must NOT have additional properties" names none; zod's "Unrecognized key"
    does), and the known key it is a typo of (`: unknown key 'botTokn' — did you mean 'botToken'?`)."""
    text = ""
    if len(unknown) == 1 and json.dumps(unknown[0], ensure_ascii=False) not in message:
        text += f": unknown key '{unknown[0]}'"
    if suggestion is not None:
        typo, near = suggestion
        text += f" — did you mean '{near}'" + (f" for '{typo}'" if len(unknown) > 1 else "") + "?"
    return text


# How many unknown keys are looked at for a "did you mean": the work stays the same however many a
# file holds (the typo an operator just made is among a few unknown keys, not behind thousands).
NEAR_LOOKS = 16


def first_near(unknown: Iterable[str], known: Sequence[str]) -> tuple[str, str] | None:
    """The first of the first `NEAR_LOOKS` of `unknown` that is a typo of a key of `known`, and that
    key (`wording.closest`: nothing rather than a wrong guess), or None. Only the first is ever
    shown ("did you mean"), so the looking stops there."""
    from itertools import islice

    from vora_cli.core.wording import closest

    for key in islice(unknown, NEAR_LOOKS):
        near = closest(key, known)
        if near is not None:
            return key, near
    return None


def _zod_issue(error: Any, schema: Mapping[str, Any], prefix: tuple[Segment, ...]) -> GatewayIssue:
    kind = error.kind
    name = kind.name
    info = kind.as_dict()
    path = (*prefix, *error.instance_path)
    value = error.instance
    node = _node_at(schema, error.schema_path[:-1])
    allowed: tuple[str, ...] = ()
    suggestion: tuple[str, str] | None = None
    unknown: tuple[str, ...] = ()
    if name == "additionalProperties":
        unexpected = [str(k) for k in info["unexpected"]]
        order = list(value) if isinstance(value, dict) else []
        unexpected.sort(key=lambda k: order.index(k) if k in order else len(order))
        label = "key" if len(unexpected) == 1 else "keys"
        message = f"Unrecognized {label}: " + ", ".join(json.dumps(k, ensure_ascii=False) for k in unexpected)
        known = list(node.get("properties", {})) if isinstance(node, dict) else []
        suggestion = first_near(unexpected, known)
        unknown = tuple(unexpected)
    elif name == "type":
        wanted = node.get("type") if isinstance(node, dict) else None
        wanted_list = wanted if isinstance(wanted, list) else [wanted]
        if wanted_list == ["integer"] and isinstance(value, int | float) and not isinstance(value, bool):
            message = "Invalid input: expected int, received number"
        else:
            names = ["number" if w == "integer" else str(w) for w in wanted_list]
            message = f"Invalid input: expected {'|'.join(names)}, received {_zod_received(value)}"
            if wanted_list == ["boolean"]:
                message, allowed = _with_allowed(message, [True, False])
    elif name in ("anyOf", "oneOfNotValid", "oneOfMultipleValid"):
        literals = _literals(node)
        message = "Invalid input"
        if literals is not None:
            message, allowed = _with_allowed(message, literals)
    elif name == "enum":
        options = list(info["options"])
        message, allowed = _with_allowed(
            "Invalid option: expected one of " + "|".join(_allowed_label(v) for v in options), options)
    elif name == "const":
        message = f"Invalid input: expected {_allowed_label(info['expected_value'])}"
    elif name in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        word = "Too small" if "inimum" in name else "Too big"
        op = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}[name]
        message = f"{word}: expected number to be {op}{js_number(info['limit'])}"
    elif name in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
        word = "Too small" if name.startswith("min") else "Too big"
        op = ">=" if name.startswith("min") else "<="
        what, unit = {"Length": ("string", "characters"), "Items": ("array", "items"),
                      "Properties": ("object", "keys")}[name[3:]]
        message = f"{word}: expected {what} to have {op}{js_number(info['limit'])} {unit}"
    elif name == "pattern":
        pattern = str(info["pattern"])
        message = ZOD_PATTERN_MESSAGES.get(pattern, f"Invalid string: must match pattern /{pattern}/")
    elif name == "required":
        missing = str(info["property"])
        props = node.get("properties", {}) if isinstance(node, dict) else {}
        path = (*path, missing)
        message, allowed = _zod_missing(props.get(missing, {}))
    elif name == "multipleOf":
        message = f"Invalid number: must be a multiple of {js_number(info['multiple_of'])}"
    elif name == "uniqueItems":
        message = "Invalid input: expected unique items"
    elif name == "format":
        message = f"Invalid {info.get('format', 'string')}"
    else:
        message = "Invalid input"
    return GatewayIssue(path, message, allowed, "schema", suggestion, unknown, halts=name not in ZOD_CHECKS)


# The validator's error kinds that are zod checks or its unknown-key issue: they do not halt refinements.
ZOD_CHECKS = frozenset(("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "minLength", "maxLength",
                        "minItems", "maxItems", "minProperties", "maxProperties", "pattern", "multipleOf", "format",
                        "additionalProperties"))


# -- ajv's words, for plugin and channel configs ----------------------------------------------------


def ajv_issues(schema: Mapping[str, Any], value: Any, prefix: tuple[Segment, ...], rule: str,
               shipped_in: str | None = None) -> list[GatewayIssue]:
    """`value` against a plugin's (or channel's) own schema, as the gateway's ajv reports it
    (`allErrors`, `useDefaults`: a required key with a default is filled in, so never missing).
    `shipped_in`: the top-level key whose shipped schema file holds it (its verdicts are then
    keyed by that file, not by the schema's text)."""
    issues: list[GatewayIssue] = []
    looked_up = None
    if shipped_in is not None:
        seen, digest = verdicts.look_up(f"{_top_identity(shipped_in)}|{prefix}", value)
        if seen:
            return issues
        looked_up = (digest,)
    for error in _errors(schema, value, looked_up):
        kind = error.kind
        name = kind.name
        info = kind.as_dict()
        path = (*prefix, *error.instance_path)
        node = _node_at(schema, error.schema_path[:-1])
        allowed: tuple[str, ...] = ()
        messages: list[tuple[tuple[Segment, ...], str]] = []
        if name == "required":
            missing = str(info["property"])
            props = node.get("properties", {}) if isinstance(node, dict) else {}
            if isinstance(props.get(missing), dict) and "default" in props[missing]:
                continue
            messages.append(((*path, missing), f"must have required property '{missing}'"))
        elif name == "additionalProperties":
            # one issue per key, as ajv reports them; vora also keeps the key and its near miss
            props = list(node.get("properties", {})) if isinstance(node, dict) else []
            for key in info["unexpected"]:
                issues.append(GatewayIssue(path, "invalid config: must NOT have additional properties", (), rule,
                                           first_near([str(key)], props), (str(key),)))
            continue
        elif name == "type":
            wanted = node.get("type") if isinstance(node, dict) else None
            messages.append((path, "must be " + (",".join(wanted) if isinstance(wanted, list) else str(wanted))))
        elif name == "enum":
            message, allowed = _with_allowed("must be equal to one of the allowed values", list(info["options"]))
            messages.append((path, message))
        elif name == "const":
            message, allowed = _with_allowed("must be equal to constant", [info["expected_value"]])
            messages.append((path, message))
        elif name in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
            op = {"minimum": ">=", "exclusiveMinimum": ">", "maximum": "<=", "exclusiveMaximum": "<"}[name]
            messages.append((path, f"must be {op} {js_number(info['limit'])}"))
        elif name in ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"):
            more = "fewer" if name.startswith("min") else "more"
            unit = {"Length": "characters", "Items": "items", "Properties": "properties"}[name[3:]]
            messages.append((path, f"must NOT have {more} than {js_number(info['limit'])} {unit}"))
        elif name == "pattern":
            messages.append((path, f'must match pattern "{info["pattern"]}"'))
        elif name == "anyOf":
            messages.append((path, "must match a schema in anyOf"))
        elif name in ("oneOfNotValid", "oneOfMultipleValid"):
            messages.append((path, "must match exactly one schema in oneOf"))
        elif name == "format":
            messages.append((path, f'must match format "{info.get("format", "")}"'))
        elif name == "multipleOf":
            messages.append((path, f"must be multiple of {js_number(info['multiple_of'])}"))
        else:
            messages.append((path, str(error.message)))
        issues.extend(GatewayIssue(at, f"invalid config: {text}", allowed, rule) for at, text in messages)
    return issues


# -- the phases -------------------------------------------------------------------------------------


def schema_issues(tree: Any, keys: Iterable[str] | None = None) -> list[GatewayIssue]:
    """The schema phase (zod's part): the root, then each top-level key (only `keys`, when given)."""
    if not isinstance(tree, dict):
        return [GatewayIssue((), f"Invalid input: expected object, received {_zod_received(tree)}")]
    order = top_level_keys()
    wanted = tree if keys is None else set(keys)
    issues: list[GatewayIssue] = []
    for key in order:
        if key in wanted and key in tree:
            seen, digest = verdicts.look_up(_top_identity(key), tree[key])
            found: list[GatewayIssue] = []
            if not seen:  # else the schema is not even read (core/config/verdicts.py)
                schema = top_schema(key)
                found = [_zod_issue(error, schema, (key,)) for error in _errors(schema, tree[key], (digest,))]
                issues.extend(found)
            if key == "agents":
                for issue, owner in sandbox_issues(tree[key], found):
                    # zod refines an object once its own members are checked: after the issues inside it
                    inside = [i for i, known in enumerate(issues) if known.path[:len(owner)] == owner]
                    issues.insert(inside[-1] + 1 if inside else len(issues), issue)
    known = frozenset(order)
    named: Iterable[str] = tree
    if keys is not None:
        # a write's few touched keys, in a config that may hold thousands of others: those are
        # walked (for the config's order) only when a touched key is not a known one
        named = () if known.issuperset(wanted) else [k for k in tree if k in wanted]
    unknown = [k for k in named if k not in known and k != "$include"]
    if unknown:
        label = "key" if len(unknown) == 1 else "keys"
        # one C call: a list's JSON text is its items' joined by ", " (thousands of keys in a big file)
        issues.append(GatewayIssue((), f"Unrecognized {label}: " + json.dumps(unknown)[1:-1],
                                   suggestion=first_near(unknown, order), unknown=tuple(unknown)))
    return issues


SANDBOX_BIND_EMPTY = "Sandbox security: bind mount entry must be a non-empty string."
SANDBOX_HOST_NETWORK = 'Sandbox security: network mode "host" is blocked. Use "bridge" or "none" instead.'
SANDBOX_NAMESPACE_JOIN = ('Sandbox security: network mode "container:*" is blocked by default. Use a custom bridge '
                          "network, or set dangerouslyAllowContainerNamespaceJoin=true only when you fully trust this "
                          "runtime.")
SANDBOX_SECCOMP = ('Sandbox security: seccomp profile "unconfined" is blocked. Use a custom seccomp profile file or '
                   "omit this setting.")
SANDBOX_APPARMOR = ('Sandbox security: apparmor profile "unconfined" is blocked. Use a named AppArmor profile or omit '
                    "this setting.")
SANDBOX_BROWSER_HOST = ('Sandbox security: browser network mode "host" is blocked. Use "bridge" or a custom bridge '
                        "network instead.")
SANDBOX_BROWSER_NAMESPACE_JOIN = ('Sandbox security: browser network mode "container:*" is blocked by default. Set '
                                  "sandbox.docker.dangerouslyAllowContainerNamespaceJoin=true only when you fully "
                                  "trust this runtime.")


def _js_lower(value: Any) -> str:
    """The gateway's `normalizeLowercaseStringOrEmpty`: trimmed and lower-cased, "" for no string."""
    return js_trim(value).lower() if isinstance(value, str) else ""


def _network_block(network: Any, allow_join: bool) -> str | None:
    """The gateway's `getBlockedNetworkModeReason`: "host", "join" (another container's namespace,
    unless the break-glass flag allows it) or None."""
    mode = _js_lower(network)
    if mode == "host":
        return "host"
    return "join" if mode.startswith("container:") and not allow_join else None


def sandbox_issues(agents: Any, schema: Sequence[GatewayIssue]) -> list[tuple[GatewayIssue, tuple[Segment, ...]]]:
    """The sandbox's `superRefine`s (openclaw 2026.4.12 zod-schema.agent-runtime) for
    `agents.defaults.sandbox` and each `agents.list[].sandbox`, each with the object it refines.
    zod runs them in the schema's phase, only for an object no halting issue of `schema` lies in:
    a wrong type in the Docker settings skips their rules, one elsewhere does not."""
    if not isinstance(agents, dict):
        return []
    places: list[tuple[tuple[Segment, ...], Any]] = []
    defaults = agents.get("defaults")
    if isinstance(defaults, dict) and "sandbox" in defaults:
        places.append((("agents", "defaults", "sandbox"), defaults["sandbox"]))
    listed = agents.get("list")
    if isinstance(listed, list):
        places.extend((("agents", "list", i, "sandbox"), agent["sandbox"]) for i, agent in enumerate(listed)
                      if isinstance(agent, dict) and "sandbox" in agent)
    return [issue for at, sandbox in places if isinstance(sandbox, dict) for issue in _sandbox_rules(at, sandbox, schema)]


def _sandbox_rules(at: tuple[Segment, ...], sandbox: Mapping[str, Any],
                   schema: Sequence[GatewayIssue]) -> list[tuple[GatewayIssue, tuple[Segment, ...]]]:
    """One sandbox's rules, in zod's order: the Docker object's, the browser's, then the sandbox's own."""
    issues: list[tuple[GatewayIssue, tuple[Segment, ...]]] = []

    def clean(path: tuple[Segment, ...]) -> bool:
        return not any(i.halts and i.path[:len(path)] == path for i in schema)

    def refused(message: str, *where: Segment, owner: tuple[Segment, ...] = ()) -> None:
        issues.append((GatewayIssue((*at, *where), message, rule="refine"), (*at, *owner)))

    docker = sandbox.get("docker")
    docker = docker if isinstance(docker, dict) else None
    allow_join = docker is not None and docker.get("dangerouslyAllowContainerNamespaceJoin") is True
    if docker is not None and clean((*at, "docker")):
        for i, entry in enumerate(docker.get("binds") or ()):
            bind = js_trim(entry) if isinstance(entry, str) else ""
            if not bind:
                refused(SANDBOX_BIND_EMPTY, "docker", "binds", i, owner=("docker",))
                continue
            colon = bind.find(":")
            source = js_trim(bind if colon <= 0 else bind[:colon])
            if not source.startswith("/"):
                refused(f'Sandbox security: bind mount "{bind}" uses a non-absolute source path "{source}". Only '
                        "absolute POSIX paths are supported for sandbox binds.", "docker", "binds", i, owner=("docker",))
        block = _network_block(docker.get("network"), allow_join)
        if block is not None:
            refused(SANDBOX_HOST_NETWORK if block == "host" else SANDBOX_NAMESPACE_JOIN, "docker", "network",
                    owner=("docker",))
        if _js_lower(docker.get("seccompProfile")) == "unconfined":
            refused(SANDBOX_SECCOMP, "docker", "seccompProfile", owner=("docker",))
        if _js_lower(docker.get("apparmorProfile")) == "unconfined":
            refused(SANDBOX_APPARMOR, "docker", "apparmorProfile", owner=("docker",))
    browser = sandbox.get("browser")
    network = browser.get("network") if isinstance(browser, dict) else None
    if network is not None and clean((*at, "browser")) and _js_lower(network) == "host":
        refused(SANDBOX_BROWSER_HOST, "browser", "network", owner=("browser",))
    if network is not None and clean(at) and _network_block(network, allow_join) == "join":
        refused(SANDBOX_BROWSER_NAMESPACE_JOIN, "browser", "network")
    return issues


def _get(tree: Any, *keys: str) -> Any:
    for key in keys:
        tree = tree.get(key) if isinstance(tree, dict) else None
    return tree


def refinement_issues(tree: Mapping[str, Any], keys: Iterable[str] | None = None) -> list[GatewayIssue]:
    """The rules zod's `superRefine`s and the checks after the schema add (openclaw 2026.4.12's
    zod-schema.ts and validation.ts); the ones vora repeats are listed in docs/config.md."""
    wanted = set(tree if keys is None else keys)
    issues: list[GatewayIssue] = []
    gateway = tree.get("gateway") if isinstance(tree.get("gateway"), dict) else {}
    assert isinstance(gateway, dict)
    if "gateway" in wanted:
        stale = gateway.get("channelStaleEventThresholdMinutes")
        health = gateway.get("channelHealthCheckMinutes", 5)
        if isinstance(stale, int | float) and isinstance(health, int | float) and health != 0 and stale < health:
            issues.append(GatewayIssue(("gateway", "channelStaleEventThresholdMinutes"),
                                       "channelStaleEventThresholdMinutes should be >= channelHealthCheckMinutes "
                                       "to avoid delayed stale detection", rule="refine"))
    if wanted & {"broadcast", "agents"}:
        agents = _get(tree, "agents", "list")
        broadcast = tree.get("broadcast")
        if isinstance(agents, list) and agents and isinstance(broadcast, dict):
            ids = {a.get("id") for a in agents if isinstance(a, dict)}
            for peer, targets in broadcast.items():
                if peer == "strategy" or not isinstance(targets, list):
                    continue
                for i, agent_id in enumerate(targets):
                    if agent_id not in ids:
                        issues.append(GatewayIssue(("broadcast", peer, i),
                                                   f'Unknown agent id "{agent_id}" (not in agents.list).', rule="refine"))
    if issues:
        return issues
    if "gateway" in wanted:  # after the schema, in validateConfigObjectRaw
        mode = _get(gateway, "tailscale", "mode") or "off"
        bind = gateway.get("bind") or "loopback"
        host = gateway.get("customBindHost")
        loopback_custom = bind == "custom" and isinstance(host, str) and host.startswith("127.") and \
            host.count(".") == 3
        if mode in ("serve", "funnel") and bind != "loopback" and not loopback_custom:
            issues.append(GatewayIssue(("gateway", "bind"),
                                       f"gateway.bind must resolve to loopback when gateway.tailscale.mode={mode} "
                                       '(use gateway.bind="loopback" or gateway.bind="custom" with '
                                       'gateway.customBindHost="127.0.0.1")', rule="refine"))
    return issues


def loads_plugin_registry(tree: Mapping[str, Any]) -> bool:
    """Whether the gateway's validator loads its plugin registry for `tree`: for a `plugins` key, or
    to look up a channel (any `channels` key that is not blank). Only then does it say what the
    registry found (its diagnostics), before anything else of this phase."""
    channels = tree.get("channels")
    return "plugins" in tree or (isinstance(channels, dict) and any(js_trim(key) for key in channels))


def plugin_phase(tree: Mapping[str, Any], facts: FactsSource) -> tuple[list[GatewayIssue], list[GatewayIssue]]:
    """What the plugin registry said loading, channels, then (only when the file has a `plugins`
    key, as the gateway) plugin references and each enabled plugin's config against its schema.
    Returns (issues, warnings). When the gateway would not load its registry, `facts` (when a
    function) is not called. The gateway's heartbeat-target check is a documented gap
    (docs/config.md); adding it must come before that return."""
    issues: list[GatewayIssue] = []
    warnings: list[GatewayIssue] = []
    if not loads_plugin_registry(tree):
        return issues, warnings
    if callable(facts):
        facts = facts()
    for diagnostic in facts.diagnostics:  # pushed as the registry loads: before the first channel's issues
        (issues if diagnostic.level == "error" else warnings).append(diagnostic.issue)
    channels = tree.get("channels")
    if isinstance(channels, dict):
        bundled = facts.bundled_channels if facts.bundled_channels is not None else frozenset(bundled_channel_schemas())
        known_channels = {*CHANNEL_OWN_KEYS, *bundled, *(c for p in facts.plugins for c in p.channels)}
        for key in channels:
            trimmed = js_trim(key)
            if not trimmed:
                continue
            value = channels.get(trimmed)  # the gateway reads `channels[trimmed]`: a padded key's value is not it
            if trimmed not in known_channels:
                issues.append(GatewayIssue(("channels", trimmed), f"unknown channel id: {trimmed}", rule="plugins"))
                continue
            declared = facts.channel_schemas.get(trimmed)
            if declared is not None:
                issues.extend(_declared_channel_issues(trimmed, declared, value))
                continue
            schema = bundled_channel_schemas().get(trimmed)
            if schema is not None:
                issues.extend(ajv_issues(schema, value, ("channels", trimmed), "channel-schema", "channels"))
    if "plugins" not in tree:
        return issues, warnings
    plugins = tree.get("plugins") if isinstance(tree.get("plugins"), dict) else {}
    assert isinstance(plugins, dict)
    known = facts.known_ids
    entries = plugins.get("entries") if isinstance(plugins.get("entries"), dict) else {}
    assert isinstance(entries, dict)

    def missing(path: tuple[Segment, ...], pid: str, *, warn_only: bool) -> None:
        """The gateway's `pushMissingPluginIssue`: a plugin id it removed is a warning wherever it is named."""
        if pid in LEGACY_REMOVED_PLUGIN_IDS:
            warnings.append(GatewayIssue(path, f"plugin removed: {pid} (stale config entry ignored; remove it from "
                                         "plugins config)", rule="plugins"))
        elif warn_only:
            warnings.append(GatewayIssue(path, f"plugin not found: {pid} (stale config entry ignored; remove it from "
                                         "plugins config)", rule="plugins"))
        else:
            issues.append(GatewayIssue(path, f"plugin not found: {pid}", rule="plugins"))

    for pid in entries:
        if pid not in known:
            missing(("plugins", "entries", pid), pid, warn_only=True)
    for section, warn_only in (("allow", True), ("deny", False)):
        for pid in plugins.get(section) or []:
            if isinstance(pid, str) and pid.strip() and pid not in known:
                owner = command_owner(pid, facts) if section == "allow" else None
                if owner is not None and owner in known:
                    warnings.append(GatewayIssue(("plugins", "allow"), f'"{pid}" is not a plugin — it is a command '
                                                 f'provided by the "{owner}" plugin. Use "{owner}" in plugins.allow '
                                                 "instead.", rule="plugins"))
                else:
                    missing(("plugins", section), pid, warn_only=warn_only)
    slots = plugins.get("slots") if isinstance(plugins.get("slots"), dict) else {}
    assert isinstance(slots, dict)
    memory = slots.get("memory", "memory-core")
    memory_slot = None if isinstance(memory, str) and memory.strip().lower() == "none" else memory
    if "memory" in slots and isinstance(memory_slot, str) and memory_slot.strip() and memory_slot not in known:
        missing(("plugins", "slots", "memory"), memory_slot, warn_only=False)
    seen: set[str] = set()
    for plugin in facts.plugins:
        if plugin.id in seen:
            continue
        seen.add(plugin.id)
        entry = entries.get(plugin.id) if isinstance(entries.get(plugin.id), dict) else {}
        assert isinstance(entry, dict)
        config = entry.get("config")
        has_config = bool(config) or config == {}
        # `enabled` is the plugin's load verdict, the memory slot's choice included (core/plugins/activation.py)
        if (plugin.enabled or has_config) and plugin.config_schema is not None:
            try:
                issues.extend(ajv_issues(plugin.config_schema, config if config is not None else {},
                                         ("plugins", "entries", plugin.id, "config"), "plugin-schema"))
            except InvalidSchema as exc:  # the gateway: "read failed: Error: schema is invalid"
                issues.append(GatewayIssue(("plugins", "entries", plugin.id),
                                           exc.named(plugin.id, plugin.manifest_file).message, rule="plugin-schema"))
        if not plugin.enabled and _js_truthy(config):
            warnings.extend(_disabled_with_config(plugin.id, plugin.reason, plugins, facts))
    for pid, schema in bundled_plugin_schemas().items():  # bundled plugins: the ones it loads, and any config set
        if pid in seen:
            continue
        entry = entries.get(pid)
        config = entry.get("config") if isinstance(entry, dict) else None
        if isinstance(config, dict) or pid in facts.bundled_enabled:
            issues.extend(ajv_issues(schema, config if config is not None else {}, ("plugins", "entries", pid, "config"),
                                     "plugin-schema", "plugins"))
        if pid in facts.bundled_disabled and _js_truthy(config):
            warnings.extend(_disabled_with_config(pid, facts.bundled_disabled[pid], plugins, facts))
    return issues, warnings


def _declared_channel_issues(channel: str, schema: Mapping[str, Any], value: Any) -> list[GatewayIssue]:
    """`channels.<channel>` against the schema a plugin declares for it. One the validator cannot
    compile stops the gateway's validation outright (its ajv throws); vora names the channel."""
    try:
        return ajv_issues(schema, value, ("channels", channel), "channel-schema")
    except InvalidSchema as exc:
        return [GatewayIssue(("channels", channel), f"channel {channel}: channelConfigs.{channel}.schema"
                             f"{''.join(f'.{key}' for key in exc.where)}: {exc.reason}: not a valid JSON Schema",
                             rule="channel-schema")]


def _js_truthy(value: Any) -> bool:
    """JavaScript's truthiness (`Boolean(entry?.config)`): `{}` and `[]` are true."""
    return not (value is None or value is False or value == "" or (type(value) in (int, float) and not value))


def command_owner(name: str, facts: PluginFacts) -> str | None:
    """The plugin that provides the command `name` (`resolveManifestCommandAliasOwnerInRegistry`):
    none when a plugin has that id, in any case."""
    wanted = js_trim(name).lower()
    if not wanted or wanted in facts.lowered_ids:
        return None
    return next((owner for command, owner in facts.command_aliases if command == wanted), None)


def _disabled_with_config(pid: str, reason: str, plugins: Mapping[str, Any], facts: PluginFacts) -> list[GatewayIssue]:
    """The gateway's warning for settings kept for a plugin it does not load, but for a bundled web
    search plugin under a non-empty allow list (which lets it through) that no other copy overrides."""
    allow = plugins.get("allow")
    if isinstance(allow, list) and allow and pid in facts.web_search_ids and not any(
            d.plugin_id == pid and "duplicate plugin id detected" in d.message for d in facts.diagnostics):
        return []
    return [GatewayIssue(("plugins", "entries", pid), f"plugin disabled ({reason or 'disabled'}) but config is present",
                         rule="plugins")]


def legacy_refusals(tree: Any, keys: Iterable[str] | None = None) -> list[GatewayIssue]:
    """The legacy keys its migrations could not rewrite (`validateConfigObjectRaw`'s first step:
    any of them refuses the config before the schema is looked at), in `keys` when given."""
    from vora_cli.core.config.migrations import legacy_issues

    if not isinstance(tree, dict):
        return []
    wanted = None if keys is None else set(keys)
    return [GatewayIssue(path, message, rule="legacy") for path, message in legacy_issues(tree)
            if wanted is None or path[0] in wanted]


def gateway_verdict(migrated: Migrated, facts: FactsSource | None = None) -> GatewayVerdict:
    """The gateway's verdict on a whole (merged, `${VAR}`-resolved) config, in its order: legacy
    migrations (`migrated`: the config's `migrate_legacy`), what they left legacy, the schema
    (its issues alone when there are any), the rules after it, then channels and plugins
    (`facts`: the plugins the gateway would find, or a function called only if needed)."""
    tree = migrated.tree
    issues = legacy_refusals(tree) or schema_issues(tree)
    if not issues:
        assert isinstance(tree, dict)
        issues = refinement_issues(tree)
    warnings: list[GatewayIssue] = []
    if not issues:
        issues, warnings = plugin_phase(tree, facts or PluginFacts())
    return GatewayVerdict(tuple(issues), tuple(warnings), schema_version(), migrated.changes)


def migrated_keys(done: Migrated, keys: Iterable[str]) -> tuple[Any, list[str]]:
    """The config as the gateway validates it (`done`: its `migrate_legacy`), and `keys` with every
    top-level key its migrations changed (a legacy key moves across the top level: `memorySearch`
    into `agents`)."""
    tree, migrated = done.source, done.tree
    if migrated is tree:
        return tree, list(keys)
    moved = [k for k in {**tree, **migrated} if k not in tree or k not in migrated or tree[k] != migrated[k]]
    return migrated, list(dict.fromkeys([*keys, *moved]))


def touched_issues(done: Migrated, keys: Sequence[str], facts: PluginFacts | None) -> list[GatewayIssue]:
    """What the gateway would refuse in the top-level members `keys` of a config (a `config set`'s
    share of the verdict), after its migrations (`done`: the config's `migrate_legacy`): the legacy
    keys they leave, the schema of those keys, their rules and, when `plugins` or `channels` is
    among them, the plugin phase (whose facts the caller passes)."""
    tree, keys = migrated_keys(done, keys)
    issues = legacy_refusals(tree, keys) or schema_issues(tree, keys)
    if not issues:
        issues = refinement_issues(tree, keys)
    if not issues and facts is not None and {"plugins", "channels"} & set(keys):
        issues = plugin_phase(tree, facts)[0]
        if "plugins" not in keys:
            issues = [i for i in issues if i.path[:1] == ("channels",)]
        if "channels" not in keys:
            issues = [i for i in issues if i.path[:1] != ("channels",)]
    return issues
