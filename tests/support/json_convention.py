"""The JSON convention every `--json` document keeps (docs/exit-codes-and-json.md, "One
convention"), as a checker the command walk runs on every success document.

`violations(doc, command)` lists each place a document breaks a rule, as `where: what`. Records
vora shows as their owner wrote them (config values, a plugin's manifest, the gateway's own
answers, a transcript's header line) keep their owner's names and are not checked: `VERBATIM`.
"""

from __future__ import annotations

import re
from typing import Any

ISO_AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
# Text that reads as a moment: a date, T, a time with colons (archive names use dashes).
LOOKS_ISO = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d)?(\.\d+)?(Z|[+-]\d\d:?\d\d)?")
EPOCH_MS = 100_000_000_000  # 1973 in epoch ms: a bigger number outside a …Ms field is a moment in disguise
RETIRED = {"before", "after", "ts", "time", "timestamp", "gatewayPath"}

# (command, key path) of records shown as their owner wrote them; `*` matches one list item or key.
VERBATIM: tuple[tuple[str, str], ...] = (
    ("gateway call", ""),  # the method's payload, as is
    ("config schema", ""),  # a JSON Schema document
    ("config get", "value"),
    ("*", "changes.*.old"), ("*", "changes.*.new"), ("*", "config.changes.*.old"), ("*", "config.changes.*.new"),
    ("*", "manifest"), ("*", "package"), ("*", "record"), ("*", "install"),
    ("sessions show", "transcript.header"),
    ("context json", "report"), ("context list", "report"), ("context detail", "report"),
    ("gateway status", "server"), ("gateway status", "health"), ("gateway status", "memory"),
    # a member of the archive, named as the gateway's manifest names it (relative to the archive)
    ("backup create", "assets.*.archivePath"), ("backup restore", "targets.*.archivePath"),
)


def _verbatim(command: str, where: str) -> bool:
    for cmd, pattern in VERBATIM:
        if cmd not in ("*", command):
            continue
        if pattern == "":
            return True
        regex = "^" + re.escape(pattern).replace(r"\*", r"[^.]+") + r"(\.|$)"
        if re.match(regex, where):
            return True
    return False


def _is_file_key(key: str) -> bool:
    return key == "path" or key.endswith("Path")


def violations(doc: Any, command: str) -> list[str]:
    found: list[str] = []

    def walk(value: Any, where: str, key: str, item: bool = False) -> None:
        if where and _verbatim(command, where):
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, f"{where}.{k}" if where else k, k)
        elif isinstance(value, list):
            for i, element in enumerate(value):
                walk(element, f"{where}.{i}", key, item=True)
        else:
            check(value, where, key, item)

    def check(value: Any, where: str, key: str, item: bool) -> None:
        is_number = isinstance(value, int | float) and not isinstance(value, bool)
        if key in RETIRED:
            found.append(f"{where}: {key!r} is a retired name")
        if key.endswith("At") and value is not None and not (isinstance(value, str) and ISO_AT.fullmatch(value)):
            found.append(f"{where}: an …At field holds ISO 8601 UTC text with milliseconds, not {value!r}")
        if key.endswith("Ms") and value is not None and not is_number:
            found.append(f"{where}: an …Ms field holds a number of milliseconds, not {value!r}")
        if is_number and not key.endswith("Ms") and abs(value) >= EPOCH_MS:
            found.append(f"{where}: {value!r} looks like epoch ms outside a …Ms field")
        if isinstance(value, str) and not key.endswith("At") and LOOKS_ISO.fullmatch(value):
            found.append(f"{where}: a moment as text outside an …At field ({value!r})")
        if _is_file_key(key) and isinstance(value, str) and not value.startswith("/"):
            found.append(f"{where}: a path field holds an absolute file path, not {value!r}")
        if key == "kind" and command.startswith("plugins") and not item:
            found.append(f"{where}: a plugin's kind is a list, not {value!r}")

    walk(doc, "", "")
    return found
