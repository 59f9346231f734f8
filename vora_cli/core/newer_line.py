"""A state dir a newer gateway line wrote: what vora cannot see there, and why it does not write
(docs/architecture.md, "A newer gateway line").
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SQLITE = Path("state") / "openclaw.sqlite"
FIRST_NEWER = (2026, 5)  # the first release line vora does not follow
FOLLOWED = "openclaw 2026.4.12"
_VERSION = re.compile(r"^\s*v?(\d{1,6})\.(\d{1,4})(?:[.\-+]|\s*$)")


@dataclass(frozen=True)
class NewerLine:
    """What marks a state dir as a newer gateway line's, and what vora cannot see in it."""

    state_dir: str
    version: str | None = None  # meta.lastTouchedVersion, when it is 2026.5 or later
    sqlite: str | None = None  # the SQLite state, when it is there
    agent_entries: int = 0  # agents under `agents.entries` (the newer line's agent list)

    @property
    def written_by(self) -> str:
        marks = [f"gateway {self.version}" if self.version else None, str(SQLITE) if self.sqlite else None]
        return ", ".join(m for m in marks if m)

    def unseen(self) -> tuple[str, ...]:
        """What vora cannot see there, in words."""
        out = []
        if self.agent_entries:
            out.append(f"{plural(self.agent_entries, 'agent')} under agents.entries")
        else:
            out.append("agents under agents.entries")
        out.append(f"pairing requests, paired devices and plugin install records in {SQLITE}")
        return tuple(out)

    def summary(self) -> str:
        """One line: whose state dir this is and what vora does not see."""
        return (f"{self.state_dir} was written by a newer gateway line ({self.written_by}); vora follows "
                f"{FOLLOWED} and does not see {' nor '.join(self.unseen())}")

    def to_dict(self) -> dict[str, Any]:
        return {"stateDir": self.state_dir, "version": self.version, "sqlite": self.sqlite,
                "agentEntries": self.agent_entries, "unseen": list(self.unseen())}


def is_newer_version(value: Any) -> bool:
    """Whether a version string names a release of 2026.5 or later (`2026.9.1`, `v2026.5.0-beta.2`)."""
    match = _VERSION.match(value) if isinstance(value, str) else None
    return match is not None and (int(match.group(1)), int(match.group(2))) >= FIRST_NEWER


def detect_newer_line(state_dir: Path, config: Any) -> NewerLine | None:
    """The newer line's marks in `state_dir` and its config (the parsed tree, or None when there is
    none), or None when there are none. One stat and a few lookups."""
    sqlite = state_dir / SQLITE
    found_sqlite = str(sqlite) if os.path.isfile(sqlite) else None
    meta = config.get("meta") if isinstance(config, dict) else None
    touched = meta.get("lastTouchedVersion") if isinstance(meta, dict) else None
    version = touched.strip() if isinstance(touched, str) and is_newer_version(touched) else None
    if found_sqlite is None and version is None:
        return None
    agents = config.get("agents") if isinstance(config, dict) else None
    entries = agents.get("entries") if isinstance(agents, dict) else None
    count = len(entries) if isinstance(entries, dict | list) else 0
    return NewerLine(str(state_dir), version, found_sqlite, count)


def may_hold_mark(config_path: Path) -> bool:
    """Whether the config file could hold the mark, for a run that parsed none (`config file`): JSON5
    spells the key as written, escaped, or in an included file. True when unreadable."""
    from vora_cli.core.reading import read_bytes

    try:
        text = read_bytes(config_path)
    except VoraError:
        return True
    return text is not None and any(word in text for word in (b"lastTouchedVersion", b"\\", b"$include"))


def refuse_write(newer: NewerLine | None, what: str, *, forced: bool) -> None:
    """Raise `refused` when `what` would write into a newer line's state dir without `--force`."""
    if newer is None or forced:
        return
    raise VoraError("refused", f"not writing to a state dir a newer gateway line wrote ({newer.written_by}): {what} "
                    "could contradict state vora does not see there; nothing was written",
                    "use the newer gateway's own CLI for this install, or add --force to write anyway "
                    "(vora doctor lists what vora cannot see)")
