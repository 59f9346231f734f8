"""The unified diff of a config write, as shown by `--dry-run`, `--diff` and `doctor --fix`.

Secrets are hidden by the one rule in `vora_cli.core.secrets`, applied to the diff lines only (the
text that is shown), never to the whole file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from vora_cli.core.secrets import order_for_scrub, redact_text


def unified_diff(old: str, new: str, name: str, secrets: Iterable[str] = ()) -> str:
    """A unified diff (3 lines of context), secrets redacted; the common leading and trailing
    lines are cut off before difflib runs and the hunk line numbers shifted back."""
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
    ordered = order_for_scrub(secrets)
    out = []
    for line in lines:
        if line.startswith("@@") and start:
            line = _HUNK_RE.sub(lambda m: _shift_hunk(m, start), line, count=1)
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(redact_text(line, ordered) if line[:1] in "+- " else line)
    return "".join(out)


_HUNK_RE = re.compile(r"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")


def _shift_hunk(m: re.Match[str], offset: int) -> str:
    return f"@@ -{int(m.group(1)) + offset}{m.group(2)} +{int(m.group(3)) + offset}{m.group(4)} @@"
