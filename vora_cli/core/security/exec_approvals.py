"""The exec approvals file as the gateway reads it (`~/.vora/exec-approvals.json`, in the home
whatever the state dir): what it lets run on the host unasked. The approvals part of the gateway's
`collectExecRuntimeFindings` (openclaw 2026.4.12), with its table.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.doctor.model import WARN, Install
from vora_cli.core.security.model import Finding, as_dict, finding
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_APPROVALS_BYTES = 16 * 1024 * 1024  # a list of command patterns; more is no file the gateway wrote

# exec-approvals.ts: INTERPRETER_ALLOWLIST_NAMES, the programs that run code given inline (-c, -e, a script).
INLINE_EVAL_PROGRAMS = frozenset((
    "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "bun", "deno", "awk", "gawk", "mawk", "nawk",
    "ruby", "perl", "php", "lua", "osascript", "find", "make", "gmake", "sed", "gsed", "xargs"))


def approvals_path(install: Install) -> str:
    """The exec approvals file: always in the home (`~/.vora`), whatever the state dir, as the gateway reads it."""
    return os.path.join(install.env.get("HOME") or str(install.paths.home), ".vora", "exec-approvals.json")


def _approvals(install: Install, problems: list[str]) -> dict[str, Any]:
    """`loadExecApprovals`: the file as the gateway takes it (a legacy `default` agent merged into
    `main`); nothing when it is missing, unparsable, not version 1 or not a shape the gateway reads
    (when it cannot be read, why is added to `problems`)."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    try:
        data = read_bytes(Path(approvals_path(install)), MAX_APPROVALS_BYTES + 1)
    except VoraError as error:
        problems.append(error.message)
        return {}
    if data is None:
        return {}
    if len(data) > MAX_APPROVALS_BYTES:
        problems.append(f"{approvals_path(install)} is over the {MAX_APPROVALS_BYTES // 1048576} MiB an approvals "
                        "file can hold")
        return {}
    try:
        doc = nesting.loads(data.decode("utf-8"))
    except ValueError:
        return {}
    if not isinstance(doc, dict) or doc.get("version") != 1:
        return {}
    agents = dict(as_dict(doc.get("agents")))
    if any(a is None for a in agents.values()):
        return {}  # the gateway's normalizer throws on a null agent and keeps an empty file
    if isinstance(legacy := agents.pop("default", None), dict):
        main = agents.get("main")
        if isinstance(main, dict):
            seen: set[tuple[str, str]] = set()
            merged = []
            # the merge keeps only {pattern} entries: plain strings in either list are dropped
            for entry in (*_allowlist(main, objects_only=True), *_allowlist(legacy, objects_only=True)):
                key = (js_trim(entry["pattern"]).lower(), js_trim(entry.get("argPattern") or ""))
                if key not in seen:
                    seen.add(key)
                    merged.append(entry)
            auto = main.get("autoAllowSkills")
            agents["main"] = {"autoAllowSkills": legacy.get("autoAllowSkills") if auto is None else auto,
                              "allowlist": merged}
        else:
            agents["main"] = legacy
    return {"defaults": as_dict(doc.get("defaults")), "agents": agents}


def _allowlist(agent: Any, *, objects_only: bool = False) -> list[dict[str, Any]]:
    """`coerceAllowlistEntries`: `{pattern}` entries with a pattern, and plain strings as patterns."""
    raw = agent.get("allowlist") if isinstance(agent, dict) else None
    if not isinstance(raw, list):
        return []
    return [{"pattern": e.strip()} if isinstance(e, str) else e for e in raw
            if (isinstance(e, str) and e.strip() and not objects_only)
            or (isinstance(e, dict) and isinstance(e.get("pattern"), str) and e["pattern"].strip())]


def inline_eval_pattern(pattern: str) -> bool:
    """`isInterpreterLikeAllowlistPattern`: an allowlist pattern naming a program that runs code
    handed to it on the command line (its path, `.exe` and wildcards aside)."""
    text = js_trim(pattern).lower()
    if not text:
        return False
    base = re.split(r"[\\/]", text)[-1]
    if re.sub(r"\.(?:exe|cmd|bat|com)$", "", base) in INLINE_EVAL_PROGRAMS:
        return True
    return re.sub(r"[*?\[\]{}()]", "", base.removesuffix(".exe")) in INLINE_EVAL_PROGRAMS


def approvals_findings(install: Install) -> list[Finding]:
    """What the exec approvals file lets run unasked: skills' binaries (`autoAllowSkills`), and
    interpreters allowlisted while `strictInlineEval` is off (so `python -c ...` needs no prompt)."""
    problems: list[str] = []
    approvals = _approvals(install, problems)
    path = approvals_path(install)
    if problems:
        from vora_cli.core.security.model import unreadable

        return [unreadable(path, problems[0])]
    if not approvals:
        return []
    config = install.runtime
    strict = as_dict(as_dict(config.get("tools")).get("exec")).get("strictInlineEval") is True
    agents = as_dict(config.get("agents")).get("list")
    listed: list[Any] = agents if isinstance(agents, list) else []
    agent_strict = {a["id"]: as_dict(as_dict(a.get("tools")).get("exec")).get("strictInlineEval") is True
                    for a in reversed(listed)
                    if isinstance(a, dict) and isinstance(a.get("id"), str)}
    auto = ["defaults.autoAllowSkills"] if approvals["defaults"].get("autoAllowSkills") is True else []
    auto += [f"agents.{i}.autoAllowSkills" for i, a in approvals["agents"].items()
             if isinstance(a, dict) and a.get("autoAllowSkills") is True]
    interpreters = [f"agents.{i}.allowlist: {e['pattern']}" for i, a in approvals["agents"].items()
                    if not (strict if i in ("*", "main") else agent_strict.get(i) or strict)
                    for e in _allowlist(a) if inline_eval_pattern(e["pattern"])]
    found: list[Finding] = []
    if auto:
        found.append(finding(WARN, "exec approvals allow every skill's programs unasked",
                             f"autoAllowSkills is on at {', '.join(auto)} in {path}: the programs any installed "
                             "skill names run on the host beyond the allow list you wrote",
                             f"set autoAllowSkills to false in {path} and allow the programs you need by path",
                             file=path, gateway=("tools.exec.auto_allow_skills_enabled",)))
    if interpreters:
        found.append(finding(WARN, "exec approvals allow interpreters without strictInlineEval",
                             f"{'; '.join(interpreters)} in {path}: an allowed interpreter runs any code given on "
                             "its command line (python -c, node -e) without a prompt",
                             "vora config set tools.exec.strictInlineEval true (or per agent), or take the "
                             "interpreters out of the allow list", file=path,
                             gateway=("tools.exec.allowlist_interpreter_without_strict_inline_eval",)))
    return found
