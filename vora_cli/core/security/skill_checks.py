"""The skills agents load: workspace skills whose real path is outside their workspace, and risky code in a
skill's folder (openclaw 2026.4.12; docs/security.md, `skills`).
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import is_within
from vora_cli.core.security.model import CRITICAL, Finding, check_result, finding, skipped
from vora_cli.core.wording import plural

MAX_SKILL_FILES = 2000  # per workspace, as the gateway stops


def _skill_files(workspace: Path) -> list[str]:
    """`listWorkspaceSkillMarkdownFiles`: the SKILL.md files under `skills/`, breadth first,
    following symlinked folders once each (by real path), skipping dot names and node_modules."""
    root = workspace / "skills"
    if not root.is_dir():
        return []
    found: list[str] = []
    queue, visited = deque([str(root)]), set()
    while queue and len(found) < MAX_SKILL_FILES:
        folder = queue.popleft()
        real = os.path.realpath(folder)
        if real in visited:
            continue
        visited.add(real)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name == "node_modules":
                continue
            try:
                if entry.is_symlink():
                    if entry.is_dir(follow_symlinks=True):
                        queue.append(entry.path)
                    elif entry.is_file(follow_symlinks=True) and entry.name == "SKILL.md":
                        found.append(entry.path)
                elif entry.is_dir(follow_symlinks=False):
                    queue.append(entry.path)
                elif entry.is_file(follow_symlinks=False) and entry.name == "SKILL.md":
                    found.append(entry.path)
            except OSError:
                continue
    return found


def check_skills(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("skills")
    escapes: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    workspaces = dict.fromkeys(os.path.abspath(c.path) for _a, c in install.workspaces if not isinstance(c, Exception))
    for workspace in workspaces:
        workspace_real = os.path.realpath(workspace)
        for skill in _skill_files(Path(workspace)):
            if skill in seen:
                continue
            seen.add(skill)
            if not os.path.exists(skill):
                continue
            real = os.path.realpath(skill)
            if not is_within(real, workspace_real):
                escapes.append((workspace, skill, real))
    found: list[Finding] = []
    if escapes:
        named = "; ".join(f"{os.path.relpath(s, w)} in {w} is {r}" for w, s, r in escapes)
        found.append(finding(WARN, "workspace skills live outside their workspace", f"{named}: the agent loads "
                             "skill instructions from a place the workspace does not hold, and they change with it",
                             "copy the skill into the workspace in place of the symlink, or install shared skills as "
                             "managed skills", file=escapes[0][1], gateway=("skills.workspace.symlink_escape",)))
    found += _skill_code(install, list(workspaces))
    return check_result("skills", found, "every workspace skill is inside its workspace, none has risky code")


def _skill_code(install: Install, workspaces: list[str]) -> list[Finding]:
    """One finding per skill folder (each once, whichever agent loads it) with code the gateway's
    scan rates critical or warn; a skill inside the extensions folder is its plugin's, scanned there."""
    from vora_cli.core.context.skills import load_skills
    from vora_cli.core.gateway.shown import Masker
    from vora_cli.core.plugins.code_safety import scan_plugin_code

    extensions = os.path.abspath(install.paths.extensions_dir)
    masker = Masker()
    reads: dict[Path, list[tuple[str, object]]] = {}
    scanned: set[str] = set()
    out: list[Finding] = []
    for workspace in workspaces:
        try:
            report = load_skills(install.effective, home=install.paths.home, workspace=Path(workspace),
                                 config_dir=install.paths.config_dir, reads=reads)
        except VoraError:
            continue  # skills.load.extraDirs that is not a list of paths: doctor's config check says so
        for skill in report.skills:
            folder = os.path.abspath(skill.path.parent)
            real = os.path.realpath(folder)  # a folder linked into two workspaces is one skill
            if real in scanned or is_within(folder, extensions):
                continue
            scanned.add(real)
            scan = scan_plugin_code(Path(folder))
            if scan.verdict is None:
                continue
            hits = scan.critical if scan.verdict == CRITICAL else scan.warnings
            lines = [f"[{f.rule}] {f.message} ({f.file}:{f.line}: `{masker.code(f.evidence)}`)" for f in hits]
            out.append(finding(
                scan.verdict, f"skill {skill.name} has {'dangerous' if scan.verdict == CRITICAL else 'suspicious'} code",
                f"{plural(len(hits), 'critical pattern' if scan.verdict == CRITICAL else 'suspicious pattern')} in "
                f"{plural(scan.scanned_files, 'file')} under {folder}: " + "; ".join(lines[:12])
                + (f"; and {len(lines) - 12} more" if len(lines) > 12 else ""),
                f"read the code there; if you do not trust it, remove {folder}", file=scan.path(hits[0]),
                line=hits[0].line, gateway=("skills.code_safety",)))
    return out
