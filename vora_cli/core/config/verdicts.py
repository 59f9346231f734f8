"""What the gateway's JSON Schema has accepted before: vora's own cache of "no errors" verdicts, trusted
only as vora's own file (docs/config.md, "Accepted before: the verdict cache").
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from vora_cli.core.digests import sha256
from vora_cli.core.errors import VoraError
from vora_cli.core.reading import read_own_file

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FILE_NAME = "schema-verdicts"
MAX_LINES = 4096
_FORMAT = "v1"

_state: dict[str, Any] = {}


def digest(schema_identity: str, value: Any) -> str | None:
    """The key of (schema, value, validator), or None when the value has no JSON text.
    `schema_identity` is `file_identity(...)` of a shipped schema or `schema_text(...)` of another."""
    try:
        value_text = json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        return None
    parts = (_FORMAT, _validator_identity(), schema_identity, value_text)
    key: str = sha256("\0".join(parts).encode("utf-8")).hexdigest()
    return key


def file_identity(*paths: Path) -> str:
    """A schema shipped with vora, by its file and the code that reads it (their sizes and times:
    regenerating or editing either forgets the verdicts); a stat each, the schema is not read."""
    marks = []
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            return f"unreadable:{path}"
        marks.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
    return "file|" + "|".join(marks)


def schema_text(schema: Any) -> str:
    """A schema that is not a shipped file (a plugin's `configSchema`), by its JSON text, once per
    schema object of this run."""
    texts: dict[int, tuple[Any, str]] = _state.setdefault("schemas", {})
    found = texts.get(id(schema))
    if found is None or found[0] is not schema:
        found = (schema, "json|" + json.dumps(schema, sort_keys=True, separators=(",", ":")))
        texts[id(schema)] = found
    return found[1]


def look_up(schema_identity: str, value: Any) -> tuple[bool, str | None]:
    """Whether the validator accepted `value` under this schema before, and the digest to
    `remember` it by (None: a value with no JSON text, never cached)."""
    key = digest(schema_identity, value)
    return key is not None and accepted(key), key


def accepted(key: str) -> bool:
    """Whether the validator accepted this (schema, value, validator) before."""
    return key in _known()


def remember(key: str) -> None:
    """Record that the validator accepted it (best effort: a cache that cannot be written is skipped)."""
    known = _known()
    if key in known or not _state["writable"]:
        return
    from vora_cli.core.writer import append_line

    path = _state["path"]
    try:
        if len(known) >= MAX_LINES:
            path.unlink(missing_ok=True)  # started afresh: the digests are cheap to learn again
            known.clear()
        append_line(path, key)
    except (OSError, VoraError):  # an unwritable cache dir is not this command's failure
        _state["writable"] = False
        return
    known.add(key)


def _known() -> set[str]:
    """The digests of the cache file of this environment's cache dir, read once per process."""
    from vora_cli.core.userdirs import cache_dir

    path = cache_dir() / FILE_NAME
    if _state.get("path") != path:
        _state["known"], _state["writable"] = _read(path)
        _state["path"] = path
    known: set[str] = _state["known"]
    return known


def _read(path: Path) -> tuple[set[str], bool]:
    """The digests in the file and whether vora may append to it; nothing from a file that is not
    vora's own (another owner, group- or world-writable, not a regular file)."""
    status, data, _size = read_own_file(path, (MAX_LINES + 1) * 65)
    if status != "ok":
        return set(), status == "missing"
    lines = data.decode("ascii", "replace").split("\n")
    return {line for line in lines if len(line) == 64}, True


def _validator_identity() -> str:
    """The installed jsonschema-rs, by its files' sizes and times (found without importing it)."""
    identity: str | None = _state.get("validator")
    if identity is None:
        folder = _package_folder("jsonschema_rs")
        marks = []
        if folder is not None:
            try:
                for entry in sorted(os.scandir(folder), key=lambda e: e.name):
                    if entry.is_file():
                        info = entry.stat()
                        marks.append(f"{entry.name}:{info.st_size}:{info.st_mtime_ns}")
            except OSError:
                marks.append("unreadable")
        identity = _state["validator"] = f"{folder}|{'|'.join(marks)}"
    return identity


def _package_folder(name: str) -> Path | None:
    """Where the package `name` would be imported from: the first `sys.path` entry holding it as a
    folder (as the import system's path finder looks), else what `find_spec` says (a zip, a
    custom finder). The look-up without `importlib.util`, which `doctor` would otherwise import."""
    import sys

    for entry in sys.path:
        folder = os.path.join(entry or os.curdir, name)
        if os.path.isfile(os.path.join(folder, "__init__.py")):
            return Path(folder)
    from importlib.util import find_spec

    spec = find_spec(name)
    return Path(spec.origin).parent if spec is not None and spec.origin else None
