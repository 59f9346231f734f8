"""The doctor's data: the install snapshot checks look at, and the frozen results they return.

Spec: doctor.md. A check is a pure function `Install -> CheckResult`; it reads files but never
writes, never prompts, never touches the network. The CLI only renders a `DoctorReport`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths
from vora_cli.core.shell import shell_quote

if TYPE_CHECKING:
    from vora_cli.core.config.loading import LoadedConfig
    from vora_cli.core.context.workspace import WorkspaceChoice
    from vora_cli.core.plugins.discovery import Discovery
    from vora_cli.core.sessions.agents import StoreTarget
    from vora_cli.core.sessions.store import Store, StoreError

# The ids of the checks that read the gateway's log or ask the gateway itself (spec gateway.md).
LOG_CHECK_ID = "last-gateway-start"
LIVE_CHECK_IDS = ("gateway-reachable", "gateway-live-auth", "gateway-version", "live-slot-context-engine",
                  "live-slot-memory", "live-memory")

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
    path: str
    old_mode: int
    new_mode: int
    # Change exactly this file or dir, never what a symlink there points to, and only while it
    # is still the one the check looked at (`vora security audit`: a folder others can write to
    # is where a file gets swapped for a link between the check and the fix).
    nofollow: bool = False

    def describe(self) -> str:
        return f"chmod {self.new_mode:o} {shell_quote(self.path)}   (now {self.old_mode:04o})"

    def to_dict(self) -> dict[str, Any]:
        return {"op": "chmod", "path": self.path, "from": f"{self.old_mode:04o}", "to": f"{self.new_mode:04o}"}


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
    description: str
    command: str | None = None
    chmod: tuple[ChmodOp, ...] = ()
    unset: tuple[tuple[str | int, ...], ...] = ()  # config paths to remove (kind "config")
    remove: tuple[RemoveOp, ...] = ()  # files to delete (kind "remove")
    # config paths to set (kind "config"); the value NEW_SECRET means "a new random token, made
    # when the fix is applied" (it never sits in a report)
    set: tuple[tuple[tuple[str | int, ...], Any], ...] = ()

    @property
    def automatic(self) -> bool:
        return self.kind in (FIX_CONFIG, FIX_CHMOD, FIX_REMOVE)

    def to_dict(self) -> dict[str, Any]:
        from vora_cli.core.config.path_syntax import format_config_path

        ops: list[dict[str, Any]] = [op.to_dict() for op in self.chmod]
        ops += [{"op": "unset", "path": format_config_path(p)} for p in self.unset]
        ops += [{"op": "set", "path": format_config_path(p), "value": _shown_value(p, v)} for p, v in self.set]
        ops += [op.to_dict() for op in self.remove]
        return {
            "id": self.id,
            "kind": self.kind,
            "automatic": self.automatic,
            "description": self.description,
            "command": self.command,
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
    state_dir: Path
    config_path: Path
    checks: tuple[CheckResult, ...]
    fail_on: str = ERROR  # the severity that fails the run (`--fail-on`); `ok` and the exit code agree

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


@dataclass(frozen=True)
class Install:
    """One look at an install: where it is, its config (or why the config cannot be read), env.

    Derived facts several checks share (the effective config, the agents' workspaces) are
    computed once, on first use.
    """

    paths: VoraPaths
    env: Mapping[str, str]
    config: LoadedConfig | None
    config_error: VoraError | None
    now_ms: int = 0  # the clock, for pending pairing requests (an input, so checks stay pure)

    @cached_property
    def effective(self) -> dict[str, Any]:
        """The config as the gateway sees it (`${VAR}` resolved, VORA_GATEWAY_TOKEN applied)."""
        return self.config.effective if self.config is not None else {}

    @cached_property
    def plugins(self) -> Discovery:
        """Every plugin the gateway would find, with its enable decision (core/plugins)."""
        from vora_cli.core.plugins.discovery import discover_plugins

        return discover_plugins(self.paths, self.effective)

    @cached_property
    def workspaces(self) -> tuple[tuple[str, WorkspaceChoice | VoraError], ...]:
        """Each agent's workspace (the implicit agent `main` when agents.list is empty)."""
        from vora_cli.core.context.workspace import resolve_workspace

        config = self.effective
        agents = config.get("agents")
        raw = agents.get("list") if isinstance(agents, dict) else None
        ids: list[str] = []
        if isinstance(raw, list):
            for entry in raw:
                if isinstance(entry, dict) and isinstance(entry.get("id"), str) and entry["id"].strip():
                    ids.append(entry["id"].strip().lower())
        if not ids:
            ids = ["main"]
        seen: list[tuple[str, WorkspaceChoice | VoraError]] = []
        for agent_id in dict.fromkeys(ids):
            try:
                choice: WorkspaceChoice | VoraError = resolve_workspace(
                    config,
                    agent_id=agent_id,
                    workspace_flag=None,
                    home=self.paths.home,
                    state_dir=self.paths.state_dir,
                    profile=self.paths.profile,
                    config_dir=self.paths.config_dir,
                )
            except VoraError as error:
                choice = error
            seen.append((agent_id, choice))
        return tuple(seen)

    @cached_property
    def session_stores(self) -> tuple[tuple[StoreTarget, Store | StoreError], ...]:
        """Every discovered session store (configured agents and stores on disk), read once."""
        from vora_cli.core.sessions.agents import store_targets
        from vora_cli.core.sessions.store import read_store

        targets = store_targets(self.effective, self.paths, all_agents=True)
        return tuple((target, read_store(target)) for target in targets)



def read_install(paths: VoraPaths, env: Mapping[str, str], now_ms: int | None = None) -> Install:
    """Snapshot an install; a config that cannot be read is recorded, not raised."""
    from vora_cli.core import clock
    from vora_cli.core.config.loading import load_config

    now = clock.now_ms(env) if now_ms is None else now_ms
    try:
        loaded = load_config(paths, env)
    except VoraError as error:
        return Install(paths, env, None, error, now)
    except OSError as error:
        error_ = VoraError("io_error", f"{paths.config_path}: {error.strerror}", None)
        return Install(paths, env, None, error_, now)
    return Install(paths, env, loaded, None, now)
