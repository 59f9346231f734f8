"""The fields of a command's `--json` document, as `--query` names them (`ok`, `summary.warn`,
`checks[].id`): read from real documents by the contract walk (tests/cli/common/test_json.py)
and recorded in `vora_cli/cli/json_fields.py`, which the CLI reference, the completion scripts and
`--query`'s hint read (docs/exit-codes-and-json.md, "Selecting fields")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

MODULE = Path(__file__).resolve().parents[2] / "vora_cli" / "cli" / "json_fields.py"
DEPTH = 3  # `a`, `a.b`, `a[].b.c`: deeper fields are reached through these
# Records another program wrote, shown as it wrote them (docs/exit-codes-and-json.md, "As written by
# their owner"), and maps whose keys are data (`byType`: a type's name): their keys are no fields.
OWNED = frozenset({"value", "old", "new", "record", "manifest", "package", "header", "server", "health",
                   "memory", "script", "config", "configSchema", "byType", "byRole", "byKind", "env", "params",
                   "payload", "plugins.failed", "evidence"})
# Whole documents another program wrote: `gateway call` prints the method's payload, `config schema`
# the JSON Schema.
UNRECORDED = frozenset({"gateway call", "config schema"})
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def fields_of(doc: Any, prefix: str = "", depth: int = 1) -> list[str]:
    """Every field of `doc` down to `DEPTH` levels, in document order: `key`, `key.sub`, `list[].key`."""
    found: list[str] = []
    if isinstance(doc, list):
        for item in doc:
            for field in fields_of(item, prefix + "[]", depth):
                if field not in found:
                    found.append(field)
        return found
    if not isinstance(doc, dict):
        return found
    for key, value in doc.items():
        if not _FIELD.match(key):
            continue  # a map's data key (a file name, a channel id): no field
        path = f"{prefix}.{key}" if prefix else key
        found.append(path)
        if depth < DEPTH and key not in OWNED:
            found += [f for f in fields_of(value, path, depth + 1) if f not in found]
    return found


def merge(into: dict[str, list[str]], command: str, doc: Any) -> None:
    if command in UNRECORDED:
        into.setdefault(command, [])
        return
    have = into.setdefault(command, [])
    have += [f for f in fields_of(doc) if f not in have]


def render(fields: dict[str, list[str]]) -> str:
    """The module's text: its docstring kept, the fields by command; a list two commands share
    (`context list`, `json` and `detail` print one report) is written once, named after the first."""
    import json

    text = MODULE.read_text(encoding="utf-8")
    future = "from __future__ import annotations\n\n"
    head = text[: text.index(future) + len(future)]
    first: dict[tuple[str, ...], str] = {}
    for command in sorted(fields):
        first.setdefault(tuple(fields[command]), command)
    names = {key: re.sub(r"\W", "_", command.upper()) for key, command in first.items()
             if key and sum(tuple(f) == key for f in fields.values()) > 1}
    lines: list[str] = []
    for key, name in names.items():
        lines += [f"{name} = (", *_wrapped(key, "   "), ")", ""]
    lines.append("FIELDS: dict[str, tuple[str, ...]] = {")
    for command in sorted(fields):
        key = tuple(fields[command])
        if key in names:
            lines.append(f"    {json.dumps(command)}: {names[key]},")
            continue
        lines.append(f"    {json.dumps(command)}: (")
        lines += _wrapped(key, "       ")
        lines.append("    ),")
    lines.append("}")
    return head + "\n".join(lines) + "\n"


def _wrapped(fields: tuple[str, ...], indent: str) -> list[str]:
    import json

    lines: list[str] = []
    current = indent
    for item in (json.dumps(f) + "," for f in fields):
        if len(current) + 1 + len(item) > 110:
            lines.append(current)
            current = indent
        current += " " + item
    if fields:
        lines.append(current)
    return lines
