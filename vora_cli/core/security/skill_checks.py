"""Workspace skills that are not in their workspace (the gateway's
`collectWorkspaceSkillSymlinkEscapeFindings`, openclaw 2026.4.12): a `skills/**/SKILL.md` whose
real path is outside the agent's workspace loads instructions nobody reviewed in that workspace,
and changes whenever the place it points to does.
"""

from __future__ import annotations

import os
from collections import deque
from pathlib import Path

from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.security.model import Finding, check_result, finding, skipped

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


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


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
            if not _inside(workspace_real, real):
                escapes.append((workspace, skill, real))
    found: list[Finding] = []
    if escapes:
        named = "; ".join(f"{os.path.relpath(s, w)} in {w} is {r}" for w, s, r in escapes)
        found.append(finding(WARN, "workspace skills live outside their workspace", f"{named}: the agent loads "
                             "skill instructions from a place the workspace does not hold, and they change with it",
                             "copy the skill into the workspace in place of the symlink, or install shared skills as "
                             "managed skills", file=escapes[0][1], gateway=("skills.workspace.symlink_escape",)))
    return check_result("skills", found, "every workspace skill is inside its workspace")
