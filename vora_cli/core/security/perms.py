"""Who else can read or change a file that holds (or leads to) a secret: one look per path, one rule per
kind of file, a fix that never changes a mode through a symlink out or a hard link (docs/security.md,
"Files").
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from vora_cli.core.doctor.model import WARN, ChmodOp, hard_link_remedy
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass, field, replace
from vora_cli.core.security.model import CRITICAL, Finding, finding
from vora_cli.core.shell import command_line

WORLD_WRITABLE = "world-writable"
GROUP_WRITABLE = "group-writable"
WORLD_READABLE = "world-readable"
GROUP_READABLE = "group-readable"
WRITABLE = "writable"  # by group or others
READABLE = "readable"  # by group or others
EXPOSURES = (WORLD_WRITABLE, GROUP_WRITABLE, WORLD_READABLE, GROUP_READABLE)  # worst first
WORDS = {WORLD_WRITABLE: "anyone on this host can change it", GROUP_WRITABLE: "its group can change it",
         WORLD_READABLE: "anyone on this host can read it", GROUP_READABLE: "its group can read it"}


@dataclass(frozen=True)
class Kind:
    """A kind of path and how exposed it may be: severity per exposure (absent: not a finding),
    the gateway's check id per exposure (its chain, first match), and the mode a fix sets."""

    what: str
    is_dir: bool
    severity: dict[str, str]
    gateway: tuple[tuple[str, str], ...] = ()  # (exposure or WRITABLE/READABLE, checkId), first match wins
    symlink_gateway: str | None = None
    why: str = ""
    mode: int = field(default=0)

    @property
    def fix_mode(self) -> int:
        return self.mode or (0o700 if self.is_dir else 0o600)


SECRET = {WORLD_WRITABLE: CRITICAL, GROUP_WRITABLE: CRITICAL, WORLD_READABLE: CRITICAL, GROUP_READABLE: WARN}
PRIVATE_DIR = {WORLD_WRITABLE: CRITICAL, GROUP_WRITABLE: WARN, WORLD_READABLE: WARN, GROUP_READABLE: WARN}
SENSITIVE = {WORLD_WRITABLE: CRITICAL, GROUP_WRITABLE: WARN, WORLD_READABLE: WARN, GROUP_READABLE: WARN}
NOT_WRITABLE = {WORLD_WRITABLE: CRITICAL, GROUP_WRITABLE: WARN}

STATE_DIR = Kind("state dir", True, PRIVATE_DIR, (
    (WORLD_WRITABLE, "fs.state_dir.perms_world_writable"), (GROUP_WRITABLE, "fs.state_dir.perms_group_writable"),
    (READABLE, "fs.state_dir.perms_readable")), "fs.state_dir.symlink",
    "it holds the config, the pairing store, credentials and transcripts")
CONFIG = Kind("config file", False, SECRET, (
    (WRITABLE, "fs.config.perms_writable"), (WORLD_READABLE, "fs.config.perms_world_readable"),
    (GROUP_READABLE, "fs.config.perms_group_readable")), "fs.config.symlink",
    "it holds the gateway's auth and tool policy, and often tokens")
INCLUDE = Kind("included config file", False, SECRET, (
    (WRITABLE, "fs.config_include.perms_writable"), (WORLD_READABLE, "fs.config_include.perms_world_readable"),
    (GROUP_READABLE, "fs.config_include.perms_group_readable")), None, "it is part of the config")
BACKUP = Kind("config backup", False, SECRET, why="it holds what the config held, secrets included")
ENV_FILE = Kind(".env file", False, SECRET, why="it holds secrets the gateway reads into its environment")
CREDENTIALS_DIR = Kind("credentials dir", True, {**PRIVATE_DIR, GROUP_WRITABLE: CRITICAL}, (
    (WRITABLE, "fs.credentials_dir.perms_writable"), (READABLE, "fs.credentials_dir.perms_readable")),
    why="it holds OAuth credentials and allow lists")
CREDENTIAL = Kind("credential file", False, SECRET, why="it holds an OAuth credential")
AUTH_PROFILES = Kind("auth-profiles.json", False, {**SENSITIVE, GROUP_WRITABLE: CRITICAL}, (
    (WRITABLE, "fs.auth_profiles.perms_writable"), (READABLE, "fs.auth_profiles.perms_readable")),
    why="it holds model API keys and OAuth tokens")
MODELS_JSON = Kind("models.json", False, SECRET, why="it holds the providers' API keys")
SECRET_DIR = Kind("folder", True, PRIVATE_DIR, why="it leads to files that hold secrets")
DEVICE_FILE = Kind("device file", False, SECRET, why="it holds device tokens or this host's private key")
SESSIONS_STORE = Kind("session store", False, SENSITIVE, ((READABLE, "fs.sessions_store.perms_readable"),),
                      why="routing and transcript metadata can be sensitive")
TRANSCRIPT = Kind("transcript", False, SENSITIVE, why="it holds the conversation, tool output included")
TRANSCRIPT_WITH_SECRET = Kind("transcript", False, SECRET, why="it holds a secret-shaped string")
LOG_FILE = Kind("log file", False, SENSITIVE, ((READABLE, "fs.log_file.perms_readable"),),
                why="logs can hold private messages and tool output")
VORA_LOG = Kind("vora log", False, SENSITIVE, why="it records config and device changes")
SETTINGS = Kind("vora settings file", False, NOT_WRITABLE, why="it names the editor and pager vora runs")
SETTINGS_DIR = Kind("vora settings dir", True, NOT_WRITABLE, why="whoever can write it can replace the settings")
CACHE_DIR = Kind("vora cache", True, NOT_WRITABLE, why="vora installs plugin packages from it")


@dataclass(frozen=True)
class Look:
    """What `lstat` (and `stat` of a link's target) says about one path."""

    path: Path
    is_link: bool
    target: Path | None  # a link's real target (None: dangling)
    is_dir: bool
    mode: int  # permission bits of the path, or of a link's target
    uid: int
    links: int = 1  # names of a regular file (st_nlink); a folder's count says nothing of the kind

    @property
    def other_names(self) -> int:
        """How many other names (hard links) the file has, somewhere on its filesystem."""
        return 0 if self.is_dir else max(self.links - 1, 0)

    def exposures(self) -> tuple[str, ...]:
        bits = {WORLD_WRITABLE: 0o002, GROUP_WRITABLE: 0o020, WORLD_READABLE: 0o004, GROUP_READABLE: 0o040}
        return tuple(e for e in EXPOSURES if self.mode & bits[e])


def look(path: Path) -> Look | None:
    """None when nothing is there (or it cannot be looked at)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISLNK(st.st_mode):
        return Look(path, False, None, stat.S_ISDIR(st.st_mode), stat.S_IMODE(st.st_mode), st.st_uid, st.st_nlink)
    try:
        target_st = os.stat(path)
    except OSError:
        return Look(path, True, None, False, 0, st.st_uid)
    return Look(path, True, Path(os.path.realpath(path)), stat.S_ISDIR(target_st.st_mode),
                stat.S_IMODE(target_st.st_mode), target_st.st_uid, target_st.st_nlink)


def inside(path: Path, root: Path) -> bool:
    return is_within(os.path.realpath(path), os.path.realpath(root))


def _matches(exposure: str, found: tuple[str, ...]) -> bool:
    if exposure == WRITABLE:
        return WORLD_WRITABLE in found or GROUP_WRITABLE in found
    if exposure == READABLE:
        return WORLD_READABLE in found or GROUP_READABLE in found
    return exposure in found


@dataclass(frozen=True)
class Rated:
    """The findings about one path's mode, and the chmod that fixes them."""
    findings: tuple[Finding, ...]
    chmod: ChmodOp | None


def rate(path: Path, kind: Kind, *, state_dir: Path, me: int, fix_command: str, known_names: int = 1) -> Rated:
    """The findings for one path of `kind`, and the chmod that would fix its mode (if one may).
    `known_names`: how many of the file's names are paths this audit sets to the same mode."""
    seen = look(path)
    if seen is None or (seen.is_link and seen.target is None):
        return Rated((), None)
    found = seen.exposures()
    out: list[Finding] = []
    if kind.what == "folder":
        kind = replace(kind, what=f"folder {path.name}/")
    gid = next((g for exposure, g in kind.gateway if _matches(exposure, found)), None) if found else None
    gateway = (gid,) if gid else ()
    shown = f"{seen.target} (through the symlink {path})" if seen.is_link else str(path)
    # Where a chmod may go: the path itself, or a link's target while it stays inside the state dir.
    change: Path | None = path
    if seen.is_link:
        change = seen.target if seen.target is not None and inside(seen.target, state_dir) else None
    elif not inside(path.parent, state_dir) and is_within(os.path.abspath(path), os.path.abspath(state_dir),
                                                          strict=True):
        change = None  # lexically below the state dir, but a folder on the way is a symlink out of it
    linked = seen.other_names
    # every name is one this audit rates for the same mode (two names of one archive): no name
    # elsewhere changes with it
    all_known = bool(linked) and not seen.is_link and seen.links <= known_names
    if linked and not all_known:
        change = None  # its other names would change too: the operator decides (hard_link_remedy)
    op = ChmodOp(str(change), seen.mode, kind.fix_mode, nofollow=True, links=seen.links if all_known else 1) \
        if change is not None else None
    if seen.is_link:
        where = "inside" if seen.target is not None and inside(seen.target, state_dir) else "outside"
        out.append(finding(
            WARN, f"the {kind.what} is a symlink", f"{path} -> {seen.target} ({where} the state dir); make sure "
            "you trust its target and everyone who can change it", None if where == "inside" else
            f"keep the real file in the state dir, or check {seen.target} yourself: ls -l {seen.target}",
            file=path, gateway=(kind.symlink_gateway,) if kind.symlink_gateway else ()))
    if seen.uid not in (me, 0):
        out.append(finding(
            CRITICAL, f"the {kind.what} belongs to another user", f"{shown} is owned by uid {seen.uid}: that user can "
            f"read and change it ({kind.why})", f"make it yours: {command_line('chown', str(me), change or path)}",
            file=path))
    exposure = next((e for e in found if e in kind.severity), None)
    if exposure is not None:
        severity = kind.severity[exposure]
        wanted = f"{kind.fix_mode:04o}"
        if op is not None:
            remedy = fix_command
        elif linked:
            remedy = hard_link_remedy(seen.target or path, kind.fix_mode)
        else:
            remedy = f"{command_line('chmod', f'{kind.fix_mode:o}', seen.target or path)} " \
                "(vora does not follow a symlink out of the state dir)"
        writable = next((e for e in found if e in (WORLD_WRITABLE, GROUP_WRITABLE)), None)
        readable = next((e for e in found if e in (WORLD_READABLE, GROUP_READABLE)), None)
        others = ", ".join(WORDS[e] for e in (writable, readable) if e is not None)
        names = f"; it is one file with {linked} other name{'s' if linked > 1 else ''} (hard links, " \
            f"{seen.links} in all): a chmod changes every one of them" if linked else ""
        if all_known:
            names += ", and each is rated here"
        out.append(finding(severity, f"the {kind.what} is {exposure}",
                           f"{shown} has mode {seen.mode:04o}: {others} ({kind.why}); it should be {wanted}{names}",
                           remedy, file=path, gateway=gateway))
    return Rated(tuple(out), op if exposure is not None and op is not None and seen.mode != kind.fix_mode else None)


@dataclass
class Targets:
    """The paths a check rates, in order, each once (a path two checks list is rated by the first)."""

    items: list[tuple[Path, Kind]] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def add(self, path: Path, kind: Kind) -> None:
        key = os.path.abspath(path)
        if key not in self.seen:
            self.seen.add(key)
            self.items.append((path, kind))

    def add_all(self, paths: Iterable[Path], kind: Kind) -> None:
        for path in paths:
            self.add(path, kind)


def rate_all(targets: Iterable[tuple[Path, Kind]], *, state_dir: Path, me: int,
             fix_command: Callable[[], str]) -> tuple[list[Finding], list[ChmodOp]]:
    findings: list[Finding] = []
    ops: list[ChmodOp] = []
    command = fix_command()
    rated_paths = list(targets)
    names = _names_by_file(rated_paths)
    for path, kind in rated_paths:
        key = _file_key(path)
        known = names.get((*key, kind.fix_mode), 1) if key is not None else 1
        rated = rate(path, kind, state_dir=state_dir, me=me, fix_command=command, known_names=known)
        findings += rated.findings
        if rated.chmod is not None:
            ops.append(rated.chmod)
    return findings, ops


def _file_key(path: Path) -> tuple[int, int] | None:
    """(device, inode) of a regular file with more than one name; None otherwise."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISREG(st.st_mode) and st.st_nlink > 1 else None


def _names_by_file(targets: list[tuple[Path, Kind]]) -> dict[tuple[int, int, int], int]:
    """How many of the paths rated are names of one hard-linked file, per the mode they are set to."""
    counts: dict[tuple[int, int, int], int] = {}
    for path, kind in targets:
        key = _file_key(path)
        if key is not None:
            counts[(*key, kind.fix_mode)] = counts.get((*key, kind.fix_mode), 0) + 1
    return counts
