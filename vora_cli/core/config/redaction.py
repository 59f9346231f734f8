"""Secrets in vora.json: which keys are secret, and hiding their values in trees, text and diffs.

Spec config.md: secret paths are the known ones plus any key whose name contains `token`,
`password`, `secret`, `apiKey`/`api_key` or `privateKey` (case-insensitive), anywhere.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from vora_cli.core.config.keys import Segment, spec_for

# Secret paths: the known ones, plus any key whose name looks like a secret, anywhere.
SECRET_KEY_RE = re.compile(r"token|password|secret|api_?key|privatekey", re.IGNORECASE)
REDACTED = "<redacted>"


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



# `secretKey: value` anywhere in a line (several members may share a line).
_SECRET_MEMBER_RE = re.compile(
    r"""(?P<key>(?P<q>["']?)[A-Za-z0-9_$-]*(?:"""
    + SECRET_KEY_RE.pattern
    + r""")[A-Za-z0-9_$-]*(?P=q)\s*:\s*)(?P<val>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\s,{}\[\]/]+)""",
    re.IGNORECASE,
)


def redact_text_line(line: str, secrets: Sequence[str] = ()) -> str:
    """Hide secret values in a line of config text: `secretKey: value` members, and any
    literal occurrence of a known secret value (longest first)."""
    line = _SECRET_MEMBER_RE.sub(lambda m: f'{m.group("key")}"{REDACTED}"', line)
    for value in secrets:
        if value in line:
            line = line.replace(value, REDACTED)
    return line


def secret_strings(tree: Any) -> set[str]:
    """Every string value under a secret-looking key of `tree` (for scrubbing diffs).

    The known secret keys (`gateway.auth.token`, `.password`) match the name rule too, so one
    cheap test per key does: this runs on every write of a possibly 1 MB config.
    """
    found: set[str] = set()
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str):
                    if len(value) >= 3 and SECRET_KEY_RE.search(key):
                        found.add(value)
                elif isinstance(value, dict | list):
                    if SECRET_KEY_RE.search(key):
                        found.update(_all_strings(value))
                    else:
                        stack.append(value)
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return found


def _all_strings(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree} if len(tree) >= 3 else set()
    if isinstance(tree, dict):
        return set().union(*(_all_strings(v) for v in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_all_strings(v) for v in tree))
    return set()


def unified_diff(old: str, new: str, name: str, secrets: set[str] | None = None) -> str:
    """A unified diff (3 lines of context), secrets redacted.

    difflib is slow on a 1 MB file, so the common leading and trailing lines are cut off first
    and the hunk line numbers shifted back.
    """
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    start = max(0, prefix - 3)
    keep_end = max(0, suffix - 3)
    lines = difflib.unified_diff(
        a[start : len(a) - keep_end], b[start : len(b) - keep_end], fromfile=f"a/{name}", tofile=f"b/{name}"
    )
    ordered = sorted(secrets or (), key=len, reverse=True)
    out = []
    for line in lines:
        if line.startswith("@@") and start:
            line = _HUNK_RE.sub(lambda m: _shift_hunk(m, start), line, count=1)
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(redact_text_line(line, ordered) if line[:1] in "+- " else line)
    return "".join(out)


_HUNK_RE = re.compile(r"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")


def _shift_hunk(m: re.Match[str], offset: int) -> str:
    return f"@@ -{int(m.group(1)) + offset}{m.group(2)} +{int(m.group(3)) + offset}{m.group(4)} @@"

