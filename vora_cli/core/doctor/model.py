"""The doctor's data: the frozen results its checks return (spec doctor.md). A check is a pure function
`Install -> CheckResult`: it reads files but never writes, prompts or touches the network.
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.install import (
    Install as Install,  # re-exported: checks written against the doctor's first Install
)
from vora_cli.core.json5.path_syntax import ConfigPath
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line, shell_quote

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PASS = "pass"
INFO = "info"
WARN = "warn"
ERROR = "error"
SKIP = "skip"
STATUSES = (PASS, INFO, WARN, ERROR, SKIP)
# How bad a status is, for "the worst of several findings" and for --fail-on.
SEVERITY = {SKIP: 0, PASS: 0, INFO: 1, WARN: 2, ERROR: 3}

FIX_CONFIG = "config"
FIX_CHMOD = "chmod"
FIX_REMOVE = "remove"  # delete files (stale lock files only)
FIX_RECOVER = "recover"  # finish or roll back an interrupted `vora backup restore` (its journal)
FIX_COMMAND = "command"  # a next step for the operator; `--fix` cannot apply it


@dataclass(frozen=True)
class Evidence:
    """What a check looked at: config paths (never their values) and files."""

    config: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, list[str]]:
        return {"config": list(self.config), "files": list(self.files)}


@dataclass(frozen=True)
class ChmodOp:
    """A mode change a fix makes to one path."""
    path: str
    old_mode: int
    new_mode: int
    # Change exactly this file or dir, never what a symlink there points to, and only while it
    # is still the one the check looked at (`vora security audit`: a folder others can write to
    # is where a file gets swapped for a link between the check and the fix).
    nofollow: bool = False
    # The names (st_nlink) the file may have: more than one only when the check saw every one of
    # them among the paths it sets to this mode (two names of one backup archive); a file that
    # gained a name since is refused.
    links: int = 1

    def describe(self) -> str:
        return f"chmod {self.new_mode:o} {shell_quote(self.path)}   (now {self.old_mode:04o})"

    def to_dict(self) -> dict[str, Any]:
        return {"op": "chmod", "path": self.path, "from": f"{self.old_mode:04o}", "to": f"{self.new_mode:04o}"}


def other_names(path: Path) -> int:
    """How many other names (hard links) the regular file at `path` has (0 when none, or unreadable)."""
    import os
    import stat as stat_module

    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return 0
    return st.st_nlink - 1 if stat_module.S_ISREG(st.st_mode) and st.st_nlink > 1 else 0


def file_mode(path: Path) -> int | None:
    """The permission bits of the file at `path` (a link followed), or None when it cannot be read."""
    import os
    import stat

    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return None


def own_file_fix(check_id: str, path: Path, mode: int) -> Fix:
    """The next step for a file whose mode must change but that has other names (hard links): a chmod
    would change them too, so `--fix` does not offer one; the operator gives this name a file of its own."""
    own = f"{path}.own"
    return Fix(check_id, FIX_COMMAND, f"give {path.name} a file of its own, then chmod it (vora does not chmod a "
               "file that has other names)",
               f"{command_line('cp', '-p', path, own)} && {command_line('mv', own, path)} && "
               f"{command_line('chmod', f'{mode:o}', path)}",
               alternatives=(f"find its other names first: {command_line('find', '/', '-xdev', '-samefile', path)}",))


def linked_text(path: Path, links: int) -> str:
    """The words for a file with `links` other names, as the audit says them."""
    return (f"{path} is one file with {links} other name{'s' if links > 1 else ''} (hard links, {links + 1} in all): "
            "a chmod would change every one of them")


def hard_link_remedy(path: Path, mode: int) -> str:
    """The next step for a file with other names: find them, then give this name a file of its own
    (a copy, then chmod it) or, if every name is yours to change, chmod it yourself."""
    return (f"find its other names: {command_line('find', '/', '-xdev', '-samefile', path)}; give this one a "
            f"file of its own: {command_line('cp', '-p', path, f'{path}.own')} && "
            f"{command_line('mv', f'{path}.own', path)} && {command_line('chmod', f'{mode:o}', path)} "
            "(vora does not chmod a file that has other names)")



@dataclass(frozen=True)
class RemoveOp:
    """Remove one file, judged at check time by its mtime and size (re-judged before removing)."""

    path: str
    mtime_ns: int
    size: int
    reason: str

    def describe(self) -> str:
        return f"rm {shell_quote(self.path)}   ({self.reason})"

    def to_dict(self) -> dict[str, Any]:
        return {"op": "remove", "path": self.path, "reason": self.reason}


# How many keys, paths or lines a message names; the details list them all.
SHOWN = 5


def named(items: list[str]) -> str:
    """The first few of `items` for a one-line message, and how many more there are: a message
    is one line however many findings a check has (12,000 stale plugin entries), and renderers
    compare each detail with it."""
    more = f" (+{len(items) - SHOWN} more)" if len(items) > SHOWN else ""
    return ", ".join(items[:SHOWN]) + more


# The value of a `Fix.set` that asks for a fresh secret (core/doctor/fixes.py makes it).
NEW_SECRET = "<a new random token>"


def _shown_value(path: tuple[str | int, ...], value: Any) -> Any:
    from vora_cli.core.secrets import redact

    return value if value == NEW_SECRET else redact(value, path)


@dataclass(frozen=True)
class Fix:
    """The next step for a finding: a repair `--fix` applies, or a command to run by hand.

    `kind` is "config" (config paths to remove, in one lossless write), "chmod" (file modes)
    or "command" (only a command to show). `id` is the check id `--fix-id` selects.
    """

    id: str
    kind: str
    description: str  # what to do, in words (the commands say how)
    command: str | None = None  # one command to type, never prose
    chmod: tuple[ChmodOp, ...] = ()
    unset: tuple[ConfigPath, ...] = ()  # config paths to remove (kind "config")
    remove: tuple[RemoveOp, ...] = ()  # files to delete (kind "remove")
    # config paths to set (kind "config"); the value NEW_SECRET means "a new random token, made
    # when the fix is applied" (it never sits in a report)
    set: tuple[tuple[tuple[str | int, ...], Any], ...] = ()
    alternatives: tuple[str, ...] = ()  # other commands that do it another way ("or: ...")
    journals: tuple[str, ...] = ()  # restore journals to finish or roll back (kind "recover")

    @property
    def automatic(self) -> bool:
        return self.kind in (FIX_CONFIG, FIX_CHMOD, FIX_REMOVE, FIX_RECOVER)

    def to_dict(self) -> dict[str, Any]:
        from vora_cli.core.json5.path_syntax import format_config_path

        ops: list[dict[str, Any]] = [op.to_dict() for op in self.chmod]
        # a config change names its `key`; a file operation (chmod, remove) its `path`
        ops += [{"op": "unset", "key": format_config_path(p)} for p in self.unset]
        ops += [{"op": "set", "key": format_config_path(p), "value": _shown_value(p, v)} for p, v in self.set]
        ops += [op.to_dict() for op in self.remove]
        ops += [{"op": "recover", "path": journal} for journal in self.journals]
        return {
            "id": self.id,
            "kind": self.kind,
            "automatic": self.automatic,
            "description": self.description,
            "command": self.command,
            "alternatives": list(self.alternatives),
            "operations": ops,
        }


@dataclass(frozen=True)
class Location:
    """Where a finding is: a file, and the 1-based line and column when the finding has them
    (a parse error, a schema problem). `message` says what is wrong there, when a check has
    several findings (one per location in GitHub annotations and SARIF results)."""

    file: str
    line: int | None = None
    col: int | None = None
    message: str | None = None
    status: str | None = None  # this finding's own status when milder than the check's (a warn in an error check)
    key: str | None = None  # the config path the finding is about (`gateway.auth.token`), when it is one
    next: str | None = None  # this finding's own next step, when it differs from the check's fix

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "col": self.col, "message": self.message, "status": self.status}


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one doctor check."""
    id: str
    status: str
    message: str
    details: tuple[str, ...] = ()
    evidence: Evidence = field(default_factory=Evidence)
    fix: Fix | None = None
    locations: tuple[Location, ...] = ()  # the first is the check's own `file`/`line`/`col`

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown check status {self.status!r}")

    @property
    def location(self) -> Location | None:
        return self.locations[0] if self.locations else None

    def to_dict(self) -> dict[str, Any]:
        where = self.location
        return {
            "id": self.id,
            "status": self.status,
            "message": self.message,
            "file": where.file if where else None,
            "line": where.line if where else None,
            "col": where.col if where else None,
            "locations": [loc.to_dict() for loc in self.locations],
            "evidence": self.evidence.to_dict(),
            "details": list(self.details),
            "fix": self.fix.to_dict() if self.fix is not None else None,
        }


@dataclass(frozen=True)
class Summary:
    """How many checks ended in each status."""
    passed: int = 0
    info: int = 0
    warn: int = 0
    error: int = 0
    skip: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"pass": self.passed, "info": self.info, "warn": self.warn, "error": self.error, "skip": self.skip}

    def text(self) -> str:
        """`2 errors, 3 warnings, 11 passed` (zero counts left out, passed always shown)."""

        def count(n: int, one: str, many: str) -> str:
            return f"{n} {one if n == 1 else many}"

        parts = []
        if self.error:
            parts.append(count(self.error, "error", "errors"))
        if self.warn:
            parts.append(count(self.warn, "warning", "warnings"))
        parts.append(f"{self.passed} passed")
        if self.info:
            parts.append(f"{self.info} info")
        if self.skip:
            parts.append(f"{self.skip} skipped")
        return ", ".join(parts)


@dataclass(frozen=True)
class DoctorReport:
    """Every check of a `vora doctor` run, and the severity that fails it."""
    state_dir: Path
    config_path: Path
    checks: tuple[CheckResult, ...]
    fail_on: str = ERROR  # the severity that fails the run (`--fail-on`); `ok` and the exit code agree
    # (check id, what left it out: `--skip` or the `doctor.skip` setting), for checks added later (--live)
    skipped_by: tuple[tuple[str, str], ...] = ()

    @property
    def summary(self) -> Summary:
        n = {s: sum(1 for c in self.checks if c.status == s) for s in STATUSES}
        return Summary(n[PASS], n[INFO], n[WARN], n[ERROR], n[SKIP])

    @property
    def ok(self) -> bool:
        """No check at or above `fail_on`: what the exit code says (0), and `ok` in the JSON."""
        return not self.failed()

    def failed(self, fail_on: str | None = None) -> bool:
        """True when a check is at or above `fail_on` ("error" or "warn"; default: the report's)."""
        level = SEVERITY[fail_on or self.fail_on]
        return any(SEVERITY[c.status] >= level and c.status != SKIP for c in self.checks)

    def get(self, check_id: str) -> CheckResult | None:
        return next((c for c in self.checks if c.id == check_id), None)

    @property
    def fixes(self) -> tuple[Fix, ...]:
        return tuple(c.fix for c in self.checks if c.fix is not None and c.fix.automatic)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "stateDir": str(self.state_dir),
            "configPath": str(self.config_path),
            "summary": self.summary.to_dict(),
            "checks": [c.to_dict() for c in self.checks],
        }


def skipped_check(check_id: str, why: str) -> CheckResult:
    """The report's line for a check an option or a setting left out (`--skip`, `doctor.skip`):
    `skip`, what left it out, and how to run it anyway."""
    from vora_cli.core.shell import command_line

    return CheckResult(check_id, SKIP, f"skipped by {why}",
                       (f"to run it anyway: {command_line('vora', 'doctor', '--only', check_id)}",))
