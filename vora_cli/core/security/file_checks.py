"""Files that hold secrets, by owner, mode and symlink, each check with its paths and one chmod fix
(docs/security.md, "Files").
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from vora_cli.core.doctor.model import FIX_CHMOD, CheckResult, Evidence, Fix, Install
from vora_cli.core.secrets import MIN_KNOWN_VALUE_LENGTH
from vora_cli.core.security import perms
from vora_cli.core.security.model import check_result
from vora_cli.core.security.perms import Kind, Targets
from vora_cli.core.wording import plural

FIX_TEXT = "make them private to you (folders 0700, files 0600; no symlink followed out of the state dir)"


def _me() -> int:
    return os.getuid() if hasattr(os, "getuid") else 0


def _children(folder: Path, keep: Iterable[str] = (), suffixes: tuple[str, ...] = ()) -> list[Path]:
    """What `folder` holds, sorted: all of it, or the names in `keep` and those ending in `suffixes`."""
    wanted = set(keep)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    if not wanted and not suffixes:
        return [folder / n for n in names]
    return [folder / n for n in names if n in wanted or (suffixes and n.endswith(suffixes))]


def _under_state(install: Install, path: Path) -> list[Path]:
    """The folders from the state dir (exclusive) down to `path`'s folder: the dirs on the way."""
    state = os.path.abspath(install.paths.state_dir)
    folder = os.path.abspath(path.parent)
    chain: list[Path] = []
    while folder.startswith(state + os.sep):
        chain.append(Path(folder))
        folder = os.path.dirname(folder)
    return list(reversed(chain))


def rate_files(check_id: str, install: Install, targets: Targets, ok: str) -> CheckResult:
    command = f"vora security audit --fix {check_id}"
    findings, ops = perms.rate_all(targets.items, state_dir=install.paths.state_dir, me=_me(),
                                   fix_command=lambda: command)
    fix = Fix(check_id, FIX_CHMOD, FIX_TEXT, command, chmod=tuple(ops)) if ops else None
    evidence = Evidence(files=tuple(str(p) for p, _ in targets.items))
    return check_result(check_id, findings, ok, evidence=evidence, fix=fix)


def _with_folders(install: Install, targets: Targets, files: Iterable[tuple[Path, Kind]]) -> None:
    for path, kind in files:
        for folder in _under_state(install, path):
            targets.add(folder, perms.SECRET_DIR)
        targets.add(path, kind)


def check_state_dir(install: Install) -> CheckResult:
    targets = Targets()
    targets.add(install.paths.state_dir, perms.STATE_DIR)
    return rate_files("state-dir", install, targets, "only you can read and change the state dir")


def config_file_targets(install: Install) -> list[tuple[Path, Kind]]:
    from vora_cli.core.config.landing import backup_paths

    main = install.paths.config_path
    files: list[tuple[Path, Kind]] = [(main, perms.CONFIG)]
    included = [f.path for f in install.config.files[1:]] if install.config is not None else []
    files += [(p, perms.INCLUDE) for p in included]
    for path in (main, *included):
        files += [(b, perms.BACKUP) for b in (*backup_paths(path), path.with_name(path.name + ".bak.new"))]
    files.append((install.paths.config_dir / ".env", perms.ENV_FILE))
    return files


def check_config_files(install: Install) -> CheckResult:
    targets = Targets()
    _with_folders(install, targets, config_file_targets(install))
    return rate_files("config-files", install, targets, "only you can read and change the config, its includes and backups")


def agent_ids(install: Install) -> list[str]:
    """The agents with a folder under `<state>/agents` (every file these checks rate or read is in
    it): the default agent, every configured one, then the other folders. An agent that never ran
    has no folder and nothing to look at (thousands of configured agents cost one listing)."""
    try:
        present = sorted(os.listdir(install.paths.state_dir / "agents"))
    except OSError:
        return []
    there = set(present)
    return [i for i in dict.fromkeys(["main", *install.agents.ids, *present]) if i in there]


def check_credentials(install: Install) -> CheckResult:
    state = install.paths.state_dir
    targets = Targets()
    targets.add(state / "credentials", perms.CREDENTIALS_DIR)
    targets.add_all(_children(state / "credentials", suffixes=(".json",)), perms.CREDENTIAL)
    for agent_id in agent_ids(install):  # agents/ and agents/<id>/ are the sessions check's
        agent_dir = state / "agents" / agent_id / "agent"
        targets.add(agent_dir, perms.SECRET_DIR)
        targets.add(agent_dir / "auth-profiles.json", perms.AUTH_PROFILES)
        targets.add(agent_dir / "models.json", perms.MODELS_JSON)
    return rate_files("credentials", install, targets, "credentials and auth profiles are private to you")


def check_devices(install: Install) -> CheckResult:
    targets = Targets()
    for folder, names in ((install.paths.devices_dir, ("paired.json", "pending.json")),
                          (install.paths.identity_path.parent, ("device.json", "device-auth.json"))):
        targets.add(folder, perms.SECRET_DIR)
        targets.add_all((folder / name for name in names), perms.DEVICE_FILE)
    return rate_files("devices", install, targets, "the pairing store and this host's identity are private to you")


def session_files(install: Install) -> list[Path]:
    """Every session store (and its `.bak.N` copies) and every transcript, checkpoint and
    archive in the sessions folders of every discovered agent."""

    found: list[Path] = []
    for target in install.agents.store_targets(install.paths, all_agents=True):
        if not os.path.isdir(target.sessions_dir):  # no folder: no store, no transcript
            continue
        found.append(target.path)
        for child in _children(target.sessions_dir):
            name = child.name
            if name.startswith(target.path.name + ".bak") or ".jsonl" in name:
                found.append(child)
    return list(dict.fromkeys(found))


def check_sessions(install: Install) -> CheckResult:
    from vora_cli.core.security.transcripts import scan_transcript

    known = known_secrets(install)
    targets = Targets()
    agents = install.paths.state_dir / "agents"
    targets.add(agents, perms.SECRET_DIR)
    for agent_id in agent_ids(install):
        targets.add(agents / agent_id, perms.SECRET_DIR)
        targets.add(agents / agent_id / "sessions", perms.SECRET_DIR)
    files: list[tuple[Path, Kind]] = []
    for path in session_files(install):
        if ".jsonl" not in path.name:
            files.append((path, perms.SESSIONS_STORE))
            continue
        seen = perms.look(path)
        exposed = seen is not None and bool(seen.exposures())
        scan = scan_transcript(path, known) if exposed else None  # a private one's content is transcript-secrets'
        files.append((path, perms.TRANSCRIPT_WITH_SECRET if scan is not None and scan.hits else perms.TRANSCRIPT))
    _with_folders(install, targets, files)
    return rate_files("sessions", install, targets, "session stores and transcripts are private to you")


def known_secrets(install: Install) -> frozenset[str]:
    """The secret values this install holds (config and environment), for content scans."""
    return frozenset(v for v in install.secret_values if len(v) >= MIN_KNOWN_VALUE_LENGTH)


def check_logs(install: Install) -> CheckResult:
    from vora_cli.core.gateway.logfile import configured_log_file
    from vora_cli.core.paths import expand_path

    targets = Targets()
    configured = configured_log_file(install.effective)
    if configured:  # first: a gateway log kept in <state>/logs is rated as the gateway's log
        targets.add(expand_path(configured, install.paths.home, install.paths.config_dir, key="logging.file"),
                    perms.LOG_FILE)
    logs = install.paths.logs_dir
    targets.add(logs, perms.SECRET_DIR)
    targets.add_all(_children(logs, suffixes=(".jsonl", ".log")), perms.VORA_LOG)
    return rate_files("logs", install, targets, "logs are private to you")


def check_vora_files(install: Install) -> CheckResult:
    """vora's own settings and download cache (under your home, not the state dir)."""
    from vora_cli.core.userdirs import cache_dir, settings_file

    targets = Targets()
    settings = settings_file()
    targets.add(settings.parent, perms.SETTINGS_DIR)
    targets.add(settings, perms.SETTINGS)
    targets.add(cache_dir(), perms.CACHE_DIR)
    return rate_files("vora-files", install, targets, "only you can change vora's settings and cache")


def check_transcript_secrets(install: Install) -> CheckResult:
    """Transcripts that hold a secret-shaped string (a pasted token), named by kind and line."""
    from vora_cli.core.doctor.model import WARN
    from vora_cli.core.security.model import CRITICAL, finding, unreadable
    from vora_cli.core.security.transcripts import MAX_FILE_BYTES, scan_transcript

    known = known_secrets(install)
    findings = []
    scanned = cut = 0
    for path in session_files(install):
        if ".jsonl" not in path.name:
            continue
        scan = scan_transcript(path, known)
        if scan is None:
            continue
        if scan.error is not None:
            findings.append(unreadable(path, scan.error))
            continue
        scanned += 1
        cut += scan.truncated
        seen = perms.look(path)
        exposed = seen is not None and bool(seen.exposures())
        for hit in scan.hits:
            readers = "; others can read the file" if exposed else ""
            findings.append(finding(
                CRITICAL if exposed else WARN, "a transcript holds a secret",
                f"{hit.kind} at line {hit.line} of {path.name}{readers}",
                "rotate that credential (it was sent to the model), then archive or delete the session's "
                "transcript once you no longer need it", file=path, line=hit.line))
    note = f" (the first {MAX_FILE_BYTES // 1048576} MiB of {plural(cut, 'large one')})" if cut else ""
    return check_result("transcript-secrets", findings,
                        f"no secret-shaped string in {plural(scanned, 'transcript')}{note}",
                        evidence=Evidence(files=(str(install.paths.state_dir / "agents"),)))
