"""Checks on the agents' workspaces: workspace, bootstrap-size and skills (spec doctor.md)."""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_COMMAND,
    INFO,
    PASS,
    SEVERITY,
    SKIP,
    WARN,
    CheckResult,
    Evidence,
    Fix,
    Location,
)
from vora_cli.core.errors import VoraError
from vora_cli.core.install import Install
from vora_cli.core.shell import command_line, shell_quote
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.context.skills import SkillsReport

WORKSPACE_KEYS = ("agents.defaults.workspace", "agents.list")
CAP_KEYS = ("agents.defaults.bootstrapMaxChars", "agents.defaults.bootstrapTotalMaxChars")


def _fresh(install: Install) -> bool:
    """No state dir and no config: a machine where Vora has not been set up yet."""
    return not install.paths.state_dir.exists() and not install.paths.config_path.exists()


def _worst(statuses: list[str]) -> str:
    return max(statuses, key=lambda s: SEVERITY[s]) if statuses else PASS


def _existing_workspaces(install: Install) -> list[tuple[str, Path]]:
    found = []
    for agent_id, choice in install.workspaces:
        if not isinstance(choice, VoraError) and choice.path.is_dir():
            found.append((agent_id, choice.path))
    return found


def check_workspace(install: Install) -> CheckResult:
    if install.config is None:
        return CheckResult("workspace", SKIP, "skipped: the config does not parse (see config-syntax)",
                           evidence=Evidence(config=WORKSPACE_KEYS))
    statuses: list[str] = []
    details: list[str] = []
    files: list[str] = []
    first_problem: tuple[str, str, Fix | None] | None = None
    missing_status: str | None = None  # a fresh machine's missing workspace is news, not a warning (once)
    for agent_id, choice in install.workspaces:
        if isinstance(choice, VoraError):
            statuses.append(ERROR)
            details.append(f"agent {agent_id}: {choice.message}")
            first_problem = first_problem or (ERROR, f"agent {agent_id}: {choice.message}",
                                              Fix("workspace", FIX_COMMAND, "fix the workspace setting",
                                                  "vora config validate"))
            continue
        path = choice.path
        files.append(str(path))
        if not path.is_dir():
            if missing_status is None:
                missing_status = INFO if _fresh(install) else WARN
            status = missing_status
            statuses.append(status)
            details.append(f"agent {agent_id}: {path} does not exist")
            if first_problem is None or SEVERITY[status] > SEVERITY[first_problem[0]]:
                first_problem = (status, f"agent {agent_id}: workspace {path} does not exist",
                                 Fix("workspace", FIX_COMMAND, "create the workspace", command_line("mkdir", "-p", path)))
            continue
        agents_md = path / "AGENTS.md"
        files.append(str(agents_md))
        if not agents_md.is_file():
            statuses.append(INFO)
            details.append(f"agent {agent_id}: {path} has no AGENTS.md")
            if first_problem is None:
                first_problem = (INFO, f"agent {agent_id}: no AGENTS.md in {path}",
                                 Fix("workspace", FIX_COMMAND, "write the agent's instructions",
                                     f"$EDITOR {shell_quote(agents_md)}"))
            continue
        statuses.append(PASS)
        details.append(f"agent {agent_id}: {path}")
    evidence = Evidence(config=WORKSPACE_KEYS, files=tuple(files))
    worst = _worst(statuses)
    if worst == PASS or first_problem is None:
        n = len(statuses)
        message = details[0].split(": ", 1)[1] if n == 1 else f"{n} agent workspaces, each with AGENTS.md"
        return CheckResult("workspace", PASS, message, tuple(details), evidence)
    if worst == INFO and _fresh(install):
        return CheckResult("workspace", INFO, "no workspace yet (Vora is not set up on this machine)",
                           tuple(details), evidence, first_problem[2])
    return CheckResult("workspace", worst, first_problem[1], tuple(details), evidence, first_problem[2])


def _n(value: int) -> str:
    return f"{value:,}"


def check_bootstrap_size(install: Install) -> CheckResult:
    from vora_cli.core.context.caps import resolve_caps
    from vora_cli.core.context.report import CAUSE_MAX_FILE, build_context_report

    evidence_files: list[str] = []
    if install.config is None:
        return CheckResult("bootstrap-size", SKIP, "skipped: the config does not parse (see config-syntax)",
                           evidence=Evidence(config=CAP_KEYS))
    workspaces = _existing_workspaces(install)
    if not workspaces:
        return CheckResult("bootstrap-size", INFO, "no workspace to measure (see workspace)",
                           evidence=Evidence(config=CAP_KEYS))
    caps = resolve_caps(install.effective, None, None)
    statuses: list[str] = []
    details: list[str] = []
    locations: list[tuple[str, Location]] = []  # (status, where)
    headline: tuple[str, str] | None = None
    needed = 0  # the per-file cap the largest file cut by it would need
    for agent_id, path in workspaces:
        report = build_context_report(path, caps, with_lines=False)
        prefix = f"agent {agent_id}: " if len(workspaces) > 1 else ""
        for f in report.files:
            if f.missing_reason is None:
                evidence_files.append(str(f.path))
            if f.status == "TRUNCATED":
                lost = f.raw_chars - f.injected_chars
                if CAUSE_MAX_FILE in f.causes:
                    cap = f"the {_n(caps.max_chars)}-char per-file cap (bootstrapMaxChars)"
                else:
                    cap = f"the {_n(caps.total_max_chars)}-char total cap (bootstrapTotalMaxChars)"
                if CAUSE_MAX_FILE in f.causes:
                    needed = max(needed, f.raw_chars)
                line = (f"{prefix}{f.name} is truncated by {cap}: {_n(f.raw_chars)} chars, "
                        f"{_n(f.injected_chars)} injected, {_n(lost)} lost")
                details.append(line)
                locations.append((WARN, Location(str(f.path), message=line)))
                statuses.append(WARN)
                if headline is None or headline[0] != WARN:
                    headline = (WARN, line)
            elif f.near_limit:
                line = (f"{prefix}{f.name} is near the per-file cap: {_n(f.raw_chars)} of "
                        f"{_n(caps.max_chars)} chars")
                details.append(line)
                locations.append((INFO, Location(str(f.path), message=line)))
                statuses.append(INFO)
                headline = headline or (INFO, line)
        if report.totals.near_limit and not report.truncated:
            line = (f"{prefix}the injected total is near the total cap: {_n(report.totals.injected_chars)} of "
                    f"{_n(caps.total_max_chars)} chars")
            details.append(line)
            statuses.append(INFO)
            headline = headline or (INFO, line)
    evidence = Evidence(config=CAP_KEYS, files=tuple(evidence_files))
    worst = _worst(statuses)
    if headline is None:
        return CheckResult("bootstrap-size", PASS,
                           f"every bootstrap file fits its cap ({_n(caps.max_chars)} per file, "
                           f"{_n(caps.total_max_chars)} total)", (), evidence)
    truncated = sum(1 for s in statuses if s == WARN)
    message = headline[1] if truncated <= 1 else f"{truncated} bootstrap files are truncated; {headline[1]}"
    fix = Fix("bootstrap-size", FIX_COMMAND, "see what is cut, then shorten the file or raise the cap",
              "vora context detail", alternatives=_raise_cap(install, needed)) if worst == WARN else None
    # The truncated files first: the check's own location is its worst finding.
    ordered = tuple(loc for _, loc in sorted(locations, key=lambda item: -SEVERITY[item[0]]))
    return CheckResult("bootstrap-size", worst, message, tuple(details), evidence, fix, ordered)


def _raise_cap(install: Install, needed: int) -> tuple[str, ...]:
    """The command that raises the per-file cap enough for the largest file it cuts, when one is
    cut by it: with headroom (the raw size + 10 %, and past where the file would count as near the
    cap, so the next run does not flag the cap it suggested), rounded up to a round number."""
    from vora_cli.core.context.report import NEAR_LIMIT_RATIO
    from vora_cli.core.wording import round_up

    if not needed:
        return ()
    cap = round_up(max(needed * 1.1, needed / NEAR_LIMIT_RATIO + 1))
    return (command_line("vora", "config", "set", "agents.defaults.bootstrapMaxChars", str(cap)),)


def check_skills(install: Install) -> CheckResult:
    from vora_cli.core.context.skills import load_skills

    keys = ("skills.load.extraDirs", "skills.entries")
    if install.config is None:
        return CheckResult("skills", SKIP, "skipped: the config does not parse (see config-syntax)",
                           evidence=Evidence(config=keys))
    workspaces = [(a, c.path) for a, c in install.workspaces if not isinstance(c, VoraError)]
    listed: dict[str, None] = {}
    problems: dict[str, str] = {}  # SKILL.md path -> why the gateway drops it
    roots: dict[str, None] = {}
    reads: dict[Path, list[tuple[str, Any]]] = {}  # the roots the agents share, read once
    without: SkillsReport | None = None  # a workspace that does not exist holds no skill of its own
    for _agent, path in workspaces:
        try:
            if os.path.isdir(path):
                report = load_skills(install.effective, home=install.paths.home, workspace=path,
                                     config_dir=install.paths.config_dir, reads=reads)
            else:
                if without is None:
                    without = load_skills(install.effective, home=install.paths.home, workspace=path,
                                          config_dir=install.paths.config_dir, reads=reads)
                report = without
        except VoraError as error:
            return CheckResult("skills", ERROR, error.message, evidence=Evidence(config=keys),
                               fix=Fix("skills", FIX_COMMAND, "fix skills.load.extraDirs", "vora config validate"))
        for root in report.roots:
            roots[str(root.path)] = None
        if report is without:  # its own two roots, where this agent's skills would be
            for own in (os.path.join(path, ".agents", "skills"), os.path.join(path, "skills")):
                roots[own] = None
        for s in report.skills:
            listed[s.name] = None
        for d in report.dropped:
            if d.reason == "no_description":
                problems[str(d.path)] = f"{d.path}: no description in the front matter, so the gateway drops {d.name}"
            elif d.reason in ("too_large", "unreadable"):
                problems[str(d.path)] = f"{d.path}: {d.reason.replace('_', ' ')} ({d.detail}), so the gateway drops it"
    evidence = Evidence(config=keys, files=tuple(roots))
    if problems:
        n = len(problems)
        first = next(iter(problems.values()))
        message = first if n == 1 else f"{n} skills are dropped by the gateway; {first}"
        first_file = next(iter(problems))
        how = ("add a description: line to its front matter" if "no description" in problems[first_file]
               else "make it readable and under 256,000 bytes")
        return CheckResult("skills", WARN, message, tuple(problems.values()), evidence,
                           Fix("skills", FIX_COMMAND, f"{how}: {first_file}"
                               + (f" (and the {plural(n - 1, 'other file')} above)" if n > 1 else ""),
                               f"$EDITOR {shell_quote(first_file)}"),
                           tuple(Location(path, message=text) for path, text in problems.items()))
    if not listed:
        return CheckResult("skills", PASS, "no skills installed", evidence=evidence)
    names = ", ".join(listed)
    return CheckResult("skills", PASS, f"{plural(len(listed), 'skill')} listed: {names}", evidence=evidence)
