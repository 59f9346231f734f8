"""The `sessions-*` checks (spec sessions.md, "Doctor: the `sessions` group"): they never write or take a
lock; the one repair, removing stale lock files, is applied by `fixes.py` after judging each lock again.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from vora_cli.core.agents import StoreTarget
from vora_cli.core.doctor.model import (
    ERROR,
    FIX_COMMAND,
    FIX_REMOVE,
    INFO,
    PASS,
    SHOWN,
    WARN,
    CheckResult,
    Evidence,
    Fix,
    RemoveOp,
    named,
)
from vora_cli.core.gateway_locks import judge_lock
from vora_cli.core.install import Install
from vora_cli.core.paths import names_a_file
from vora_cli.core.sessions.store import Store, StoreError
from vora_cli.core.shell import shell_quote
from vora_cli.core.wording import plural

CONTEXT_WARN_RATIO = 0.9


def _stores(install: Install) -> Iterator[tuple[StoreTarget, Store]]:
    for target, store in install.session_stores:
        if isinstance(store, Store):
            yield target, store


def _evidence(install: Install) -> Evidence:
    return Evidence(("session.store", "agents.list"), tuple(str(t.path) for t, _s in install.session_stores))


def _row_paths(install: Install, store: Store) -> Iterator[tuple[str, Path | None]]:
    from vora_cli.core.sessions.store import transcript_path

    for key, entry in store.entries.items():
        yield key, transcript_path(entry, store.target.sessions_dir, install.paths.state_dir)


def check_sessions_store(install: Install) -> CheckResult:
    errors = [e for _t, e in install.session_stores if isinstance(e, StoreError)]
    if errors:
        details = tuple(f"{e.location}: {e.message}" for e in errors)
        return CheckResult("sessions-store", ERROR, f"session store does not parse: {details[0]}", details,
                           _evidence(install))
    stores = list(_stores(install))
    present = [s for _t, s in stores if s.exists]
    if not present:
        return CheckResult("sessions-store", PASS, "no sessions yet", (), _evidence(install))
    count = sum(len(s.entries) for s in present)
    return CheckResult("sessions-store", PASS, f"{plural(len(present), 'store')}, {plural(count, 'session')}", (),
                       _evidence(install))


def _show_command(install: Install, target: StoreTarget, key: str) -> str:
    """`vora sessions show KEY` that finds KEY in `target`'s store: `--agent` when the key does
    not name that agent itself (`global`, a request key), and `--agent` can take it."""
    from vora_cli.core.sessions.store import parse_key

    parsed = parse_key(key)
    command = f"vora sessions show {shell_quote(key)}"
    if (parsed is None or parsed[0] != target.agent_id) and install.agents.knows(target.agent_id):
        command += f" --agent {shell_quote(target.agent_id)}"
    return command


def check_sessions_transcripts(install: Install) -> CheckResult:
    missing: list[str] = []
    first: str | None = None
    for target, store in _stores(install):
        for key, path in _row_paths(install, store):
            if path is None or not path.is_file():
                missing.append(key)
                first = first or _show_command(install, target, key)
    if not missing or first is None:
        return CheckResult("sessions-transcripts", PASS, "every session's transcript is present", (),
                           _evidence(install))
    fix = Fix("sessions-transcripts", FIX_COMMAND, "see what the store still records for it", command=first)
    return CheckResult("sessions-transcripts", WARN,
                       f"{plural(len(missing), 'session')} without a transcript file: {named(missing)}",
                       tuple(missing[:SHOWN]), _evidence(install), fix)


def _referenced(install: Install, store: Store) -> tuple[set[str], set[str]]:
    """(real paths of the entries' transcripts, real paths of checkpoint snapshots)."""
    transcripts = {os.path.realpath(p) for _k, p in _row_paths(install, store) if p is not None}
    snapshots: set[str] = set()
    sessions_dir = store.target.sessions_dir
    for entry in store.entries.values():
        checkpoints = entry.get("compactionCheckpoints")
        for cp in checkpoints if isinstance(checkpoints, list) else []:
            pre = cp.get("preCompaction") if isinstance(cp, dict) else None
            name = pre.get("sessionFile") if isinstance(pre, dict) else None
            if isinstance(name, str) and name and names_a_file(name):
                snapshots.add(os.path.realpath(name if os.path.isabs(name) else sessions_dir / name))
    return transcripts, snapshots


def _jsonl_files(folder: Path) -> list[Path]:
    from vora_cli.core.sessions.store import is_archive_name

    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [folder / n for n in names if n.endswith(".jsonl") and not is_archive_name(n) and (folder / n).is_file()]


def check_sessions_orphans(install: Install) -> CheckResult:
    from vora_cli.core.sessions.store import is_checkpoint_name

    orphans: list[str] = []
    snapshots: list[str] = []
    seen_dirs: set[str] = set()
    for _target, store in _stores(install):
        folder = store.target.sessions_dir
        if not os.path.isdir(folder):  # no folder: no transcripts, no locks (and no link to resolve)
            continue
        real_folder = install.real_path(folder)
        if real_folder in seen_dirs:
            continue
        seen_dirs.add(real_folder)
        transcripts, referenced_snapshots = _referenced(install, store)
        for path in _jsonl_files(folder):
            real = os.path.realpath(path)
            if real in transcripts or real in referenced_snapshots:
                continue
            (snapshots if is_checkpoint_name(path.name) else orphans).append(str(path))
    if orphans:
        fix = Fix("sessions-orphans", FIX_COMMAND, "archive an orphan the way the gateway does (nothing reads it)",
                  command=f"mv {shell_quote(orphans[0])} {shell_quote(orphans[0] + '.deleted.' + _stamp(install.now_ms))}")
        details = tuple(orphans[:SHOWN]) + tuple(f"unreferenced checkpoint snapshot: {p}" for p in snapshots[:SHOWN])
        return CheckResult("sessions-orphans", WARN,
                           f"{plural(len(orphans), 'transcript')} no session references: {named(orphans)}",
                           details, _evidence(install), fix)
    if snapshots:
        return CheckResult("sessions-orphans", INFO,
                           f"{plural(len(snapshots), 'checkpoint snapshot')} no checkpoint references: {named(snapshots)}",
                           tuple(snapshots[:SHOWN]), _evidence(install))
    return CheckResult("sessions-orphans", PASS, "every transcript belongs to a session", (), _evidence(install))


def _stamp(now_ms: int) -> str:
    """The gateway's archive timestamp: `YYYY-MM-DDTHH-MM-SS.mmmZ`."""
    from vora_cli.core.clock import iso_utc

    return iso_utc(now_ms).replace(":", "-")


def check_sessions_jsonl(install: Install) -> CheckResult:
    from vora_cli.core.sessions.transcript import scan_transcript

    headless: list[str] = []
    bad: list[str] = []
    seen: set[str] = set()
    for _target, store in _stores(install):
        for _key, path in _row_paths(install, store):
            if path is None:
                continue
            real = os.path.realpath(path)
            if real in seen or not path.is_file():
                continue
            seen.add(real)
            scan = scan_transcript(path, previews=False, max_bad=SHOWN)
            if not scan.first_line_is_header:
                headless.append(f"{path}:1: the first line is not a session header")
            bad += [f"{path}:{n}" for n in scan.bad_lines]
    if not headless and not bad:
        said = (f"{plural(len(seen), 'transcript')} {'parses' if len(seen) == 1 else 'parse'} line by line" if seen
                else "no transcript files to read")
        return CheckResult("sessions-jsonl", PASS, said, (),
                           _evidence(install))
    parts = []
    if bad:
        parts.append(f"{plural(len(bad), 'transcript line')} that do not parse (the gateway skips them): {named(bad)}")
    if headless:
        parts.append(f"{plural(len(headless), 'transcript')} without a header: {named(headless)}")
    return CheckResult("sessions-jsonl", WARN, "; ".join(parts), tuple(bad[:SHOWN] + headless[:SHOWN]),
                       _evidence(install))


def check_sessions_context(install: Install) -> CheckResult:
    from vora_cli.core.sessions.store import context_percent, context_window, fresh_total

    full: list[str] = []
    first: str | None = None
    for target, store in _stores(install):
        for key, entry in store.entries.items():
            used = fresh_total(entry)
            window = context_window(entry, install.effective)
            if used is None or window is None or used < CONTEXT_WARN_RATIO * window:
                continue
            full.append(f"{key} ({context_percent(used, window)}%)")
            first = first or _show_command(install, target, key)
    if not full or first is None:
        return CheckResult("sessions-context", PASS, "no session is at 90% of its context window", (),
                           _evidence(install))
    fix = Fix("sessions-context", FIX_COMMAND, "see what fills it (largest segments last)", command=first)
    return CheckResult("sessions-context", WARN,
                       f"{plural(len(full), 'session')} at >= 90% of the context window: {named(full)}",
                       tuple(full[:SHOWN]), _evidence(install), fix)


# -- lock files ---------------------------------------------------------------------------------

def lock_files(install: Install) -> list[Path]:
    found: list[Path] = []
    seen: set[str] = set()
    for target, _store in install.session_stores:
        folder = target.sessions_dir
        if not os.path.isdir(folder):  # no folder: no transcripts, no locks (and no link to resolve)
            continue
        real_folder = install.real_path(folder)
        if real_folder in seen:
            continue
        seen.add(real_folder)
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        found += [folder / n for n in names if n.endswith(".jsonl.lock") or n == "sessions.json.lock"]
    return found


def check_sessions_locks(install: Install) -> CheckResult:
    judged = [j for j in (judge_lock(p, install.now_ms) for p in lock_files(install)) if j is not None]
    evidence = Evidence(("session.store",), tuple(str(j.path) for j in judged))
    stale = [j for j in judged if j.stale]
    live = [j for j in judged if not j.stale]
    if stale:
        ops = tuple(RemoveOp(str(j.path), j.mtime_ns, j.size, j.reason) for j in stale)
        fix = Fix("sessions-locks", FIX_REMOVE, "remove the stale lock files (never a live one)", remove=ops,
                  command="vora doctor --fix sessions-locks")
        return CheckResult("sessions-locks", WARN,
                           f"{plural(len(stale), 'stale lock file')}: {named([str(j.path) for j in stale])}",
                           tuple(f"{j.path}: {j.reason}" for j in stale[:SHOWN]), evidence, fix)
    if live:
        return CheckResult("sessions-locks", INFO,
                           f"the gateway is writing: {named([str(j.path) for j in live])}",
                           tuple(f"{j.path}: {j.reason}" for j in live[:SHOWN]), evidence)
    return CheckResult("sessions-locks", PASS, "no lock files", (), evidence)
