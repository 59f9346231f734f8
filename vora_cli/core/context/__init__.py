"""What the gateway injects from the workspace bootstrap files, computed offline (spec ``context.md``).

Every number here must equal the gateway's. The package, by concern:

- ``text``: JavaScript's text rules (UTF-16 lengths and slices, ``trimEnd``, the sort key);
- ``workspace``: which workspace directory an agent uses; ``caps``: the two caps and their source;
- ``files``: which bootstrap files, in which order, and how each is read (or why it is missing);
- ``budget``: the per-file trim, the budget clamp, the walk, and the injected text;
- ``lines``: kept and dropped line ranges of a truncated file, and the headings lost;
- ``report``: the ``ContextReport`` (status, causes, totals);
- ``skills``: the skills listed in the prompt.

Import from the module that holds a name. The names are also reachable here, loaded on first
use, so importing one module (``vora doctor`` needs ``workspace`` alone) does not load the rest.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vora_cli.core.context.budget import (
        HEAD_RATIO,
        MIN_FILE_BUDGET_CHARS,
        TAIL_RATIO,
        BudgetStep,
        TrimResult,
        clamp_to_budget,
        injected_text,
        missing_marker,
        trim_bootstrap_text,
        truncation_marker,
        walk_budget,
    )
    from vora_cli.core.context.caps import DEFAULT_MAX_CHARS, DEFAULT_TOTAL_MAX_CHARS, Caps, resolve_caps
    from vora_cli.core.context.files import (
        BOOTSTRAP_FILE_NAMES,
        MAX_FILE_BYTES,
        MEMORY_FILE_NAMES,
        MINIMAL_SESSION_FILE_NAMES,
        MISSING_ABSENT,
        MISSING_HARDLINKED,
        MISSING_REASON_TEXT,
        MISSING_SYMLINK_OUTSIDE,
        MISSING_TOO_LARGE,
        MISSING_UNREADABLE,
        SESSIONS,
        bootstrap_file_names,
        check_session,
        read_bootstrap_file,
    )
    from vora_cli.core.context.lines import LineRange, kept_unit_ranges, line_ranges
    from vora_cli.core.context.report import (
        CAUSE_MAX_FILE,
        CAUSE_MAX_TOTAL,
        NEAR_LIMIT_RATIO,
        STATUS_MISSING,
        STATUS_OK,
        STATUS_TRUNCATED,
        ContextReport,
        FileReport,
        Totals,
        build_context_report,
    )
    from vora_cli.core.context.skills import (
        ROOT_EXTRA,
        ROOT_MANAGED,
        ROOT_PERSONAL,
        ROOT_WORKSPACE,
        ROOT_WORKSPACE_AGENTS,
        SKILL_FILE_MAX_BYTES,
        DroppedSkill,
        Skill,
        SkillRoot,
        SkillsReport,
        display_location,
        escape_xml,
        load_skills,
        parse_front_matter,
        skill_prompt_block,
        skill_roots,
    )
    from vora_cli.core.context.text import (
        JS_WHITESPACE,
        estimate_tokens,
        js_trim,
        js_trim_end,
        utf16_len,
        utf16_slice,
        utf16_sort_key,
    )
    from vora_cli.core.context.workspace import WorkspaceChoice, agents_defaults, resolve_workspace

__all__ = [
    "BOOTSTRAP_FILE_NAMES",
    "CAUSE_MAX_FILE",
    "CAUSE_MAX_TOTAL",
    "DEFAULT_MAX_CHARS",
    "DEFAULT_TOTAL_MAX_CHARS",
    "HEAD_RATIO",
    "JS_WHITESPACE",
    "MAX_FILE_BYTES",
    "MEMORY_FILE_NAMES",
    "MINIMAL_SESSION_FILE_NAMES",
    "MIN_FILE_BUDGET_CHARS",
    "MISSING_ABSENT",
    "MISSING_HARDLINKED",
    "MISSING_REASON_TEXT",
    "MISSING_SYMLINK_OUTSIDE",
    "MISSING_TOO_LARGE",
    "MISSING_UNREADABLE",
    "NEAR_LIMIT_RATIO",
    "ROOT_EXTRA",
    "ROOT_MANAGED",
    "ROOT_PERSONAL",
    "ROOT_WORKSPACE",
    "ROOT_WORKSPACE_AGENTS",
    "SESSIONS",
    "SKILL_FILE_MAX_BYTES",
    "STATUS_MISSING",
    "STATUS_OK",
    "STATUS_TRUNCATED",
    "TAIL_RATIO",
    "BudgetStep",
    "Caps",
    "ContextReport",
    "DroppedSkill",
    "FileReport",
    "LineRange",
    "Skill",
    "SkillRoot",
    "SkillsReport",
    "Totals",
    "TrimResult",
    "WorkspaceChoice",
    "agents_defaults",
    "bootstrap_file_names",
    "build_context_report",
    "check_session",
    "clamp_to_budget",
    "display_location",
    "escape_xml",
    "estimate_tokens",
    "injected_text",
    "js_trim",
    "js_trim_end",
    "kept_unit_ranges",
    "line_ranges",
    "load_skills",
    "missing_marker",
    "parse_front_matter",
    "read_bootstrap_file",
    "resolve_caps",
    "resolve_workspace",
    "skill_prompt_block",
    "skill_roots",
    "trim_bootstrap_text",
    "truncation_marker",
    "utf16_len",
    "utf16_slice",
    "utf16_sort_key",
    "walk_budget",
]

_HOME: dict[str, str] = {
    "JS_WHITESPACE": "text",
    "estimate_tokens": "text",
    "js_trim": "text",
    "js_trim_end": "text",
    "utf16_len": "text",
    "utf16_slice": "text",
    "utf16_sort_key": "text",
    "Caps": "caps",
    "DEFAULT_MAX_CHARS": "caps",
    "DEFAULT_TOTAL_MAX_CHARS": "caps",
    "resolve_caps": "caps",
    "WorkspaceChoice": "workspace",
    "agents_defaults": "workspace",
    "resolve_workspace": "workspace",
    "BOOTSTRAP_FILE_NAMES": "files",
    "MAX_FILE_BYTES": "files",
    "MEMORY_FILE_NAMES": "files",
    "MINIMAL_SESSION_FILE_NAMES": "files",
    "MISSING_ABSENT": "files",
    "MISSING_HARDLINKED": "files",
    "MISSING_REASON_TEXT": "files",
    "MISSING_SYMLINK_OUTSIDE": "files",
    "MISSING_TOO_LARGE": "files",
    "MISSING_UNREADABLE": "files",
    "SESSIONS": "files",
    "bootstrap_file_names": "files",
    "check_session": "files",
    "read_bootstrap_file": "files",
    "BudgetStep": "budget",
    "HEAD_RATIO": "budget",
    "MIN_FILE_BUDGET_CHARS": "budget",
    "TAIL_RATIO": "budget",
    "TrimResult": "budget",
    "clamp_to_budget": "budget",
    "injected_text": "budget",
    "missing_marker": "budget",
    "trim_bootstrap_text": "budget",
    "truncation_marker": "budget",
    "walk_budget": "budget",
    "LineRange": "lines",
    "kept_unit_ranges": "lines",
    "line_ranges": "lines",
    "CAUSE_MAX_FILE": "report",
    "CAUSE_MAX_TOTAL": "report",
    "ContextReport": "report",
    "FileReport": "report",
    "NEAR_LIMIT_RATIO": "report",
    "STATUS_MISSING": "report",
    "STATUS_OK": "report",
    "STATUS_TRUNCATED": "report",
    "Totals": "report",
    "build_context_report": "report",
    "DroppedSkill": "skills",
    "ROOT_EXTRA": "skills",
    "ROOT_MANAGED": "skills",
    "ROOT_PERSONAL": "skills",
    "ROOT_WORKSPACE": "skills",
    "ROOT_WORKSPACE_AGENTS": "skills",
    "SKILL_FILE_MAX_BYTES": "skills",
    "Skill": "skills",
    "SkillRoot": "skills",
    "SkillsReport": "skills",
    "display_location": "skills",
    "escape_xml": "skills",
    "load_skills": "skills",
    "parse_front_matter": "skills",
    "skill_prompt_block": "skills",
    "skill_roots": "skills",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
