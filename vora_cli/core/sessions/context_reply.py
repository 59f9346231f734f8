"""The gateway's own `/context list|detail|json` reply, rebuilt byte for byte from a stored run report
(spec sessions.md, "`vora context list | detail | json --session KEY`").
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from vora_cli.core.records import dataclass
from vora_cli.core.sessions.jsfmt import format_number, is_finite_number, js_stringify
from vora_cli.core.sessions.store import defaults_context_tokens, fresh_total

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SKILL_NAMES_CAP = 20
TOOL_NAMES_CAP = 30
TOP_CAP = 30
PARAMS_CAP = 30


def _num(value: Any) -> int | float:
    return value if is_finite_number(value) else 0


def tok(n: Any) -> int:
    return math.ceil(max(0, _num(n)) / 4)


def ct(n: Any) -> str:
    return f"{format_number(_num(n))} chars (~{format_number(tok(n))} tok)"


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _name(entry: Mapping[str, Any]) -> str:
    value = entry.get("name")
    return value if isinstance(value, str) else str(value)


def _names_line(label: str, names: list[str], cap: int) -> str:
    if not names:
        return f"{label}: (none)"
    shown = ", ".join(names[:cap])
    if len(names) > cap:
        shown += f", … (+{len(names) - cap} more)"
    return f"{label}: {shown}"


def _top(entries: list[dict[str, Any]], field: str, what: str) -> list[str]:
    ranked = sorted(entries, key=lambda e: -_num(e.get(field)))  # stable: ties keep report order
    lines = [f"- {_name(e)}: {ct(e.get(field))}" for e in ranked[:TOP_CAP]]
    if len(ranked) > TOP_CAP:
        lines.append(f"… (+{len(ranked) - TOP_CAP} more {what})")
    return lines


@dataclass(frozen=True)
class ReplyInputs:
    """What the reply needs besides the report: the entry and the offline stand-ins."""

    entry: Mapping[str, Any]
    config: Mapping[str, Any]
    workspace_fallback: str
    max_file_fallback: int
    max_total_fallback: int

    @property
    def context_tokens(self) -> int | float | None:
        """Config `agents.defaults.contextTokens`, else the entry's (the gateway's window lookup)."""
        configured = defaults_context_tokens(self.config)
        if configured is not None:
            return configured
        own = self.entry.get("contextTokens")
        return own if is_finite_number(own) and own > 0 else None


def _cap(value: Any, fallback: int) -> int | float:
    return value if is_finite_number(value) and value > 0 else fallback


def _shared(report: Mapping[str, Any], inputs: ReplyInputs) -> list[str]:
    workspace = report.get("workspaceDir")
    workspace_label = workspace if isinstance(workspace, str) and workspace else inputs.workspace_fallback
    max_file = _cap(report.get("bootstrapMaxChars"), inputs.max_file_fallback)
    max_total = _cap(report.get("bootstrapTotalMaxChars"), inputs.max_total_fallback)
    sandbox = _dict(report.get("sandbox"))
    mode = sandbox.get("mode") if isinstance(sandbox.get("mode"), str) and sandbox.get("mode") else "unknown"
    sandboxed = "true" if sandbox.get("sandboxed") is True else "false"
    prompt = _dict(report.get("systemPrompt"))
    lines = [
        f"Workspace: {workspace_label}",
        f"Bootstrap max/file: {format_number(max_file)} chars",
        f"Bootstrap max/total: {format_number(max_total)} chars",
        f"Sandbox: mode={mode} sandboxed={sandboxed}",
        f"System prompt (run): {ct(prompt.get('chars'))} (Project Context {ct(prompt.get('projectContextChars'))})",
    ]
    files = _list(report.get("injectedWorkspaceFiles"))
    present = [f for f in files if f.get("missing") is not True]
    raw_total = sum(_num(f.get("rawChars")) for f in present)
    injected_total = sum(_num(f.get("injectedChars")) for f in present)
    truncated = [f for f in present if f.get("truncated") is True]
    if truncated:
        per_file = sum(1 for f in truncated if _num(f.get("rawChars")) > math.floor(max_file))
        by_total = len(truncated) if injected_total >= math.floor(max_total) else 0
        lines += [
            "",
            f"⚠ Bootstrap context is over configured limits: {len(truncated)} file(s) truncated "
            f"({format_number(raw_total)} raw chars -> {format_number(injected_total)} injected chars).",
        ]
        causes = []
        if per_file:
            causes.append(f"{per_file} file(s) exceeded max/file")
        if by_total:
            causes.append(f"{by_total} file(s) hit max/total")
        if causes:
            lines.append("Causes: " + "; ".join(causes) + ".")
        lines.append(
            "Tip: increase `agents.defaults.bootstrapMaxChars` and/or `agents.defaults.bootstrapTotalMaxChars` "
            "if this truncation is not intentional."
        )
    lines += ["", "Injected workspace files:"]
    for f in files:
        if f.get("missing") is True:
            lines.append(f"- {_name(f)}: MISSING | raw 0 | injected 0")
        else:
            status = "TRUNCATED" if f.get("truncated") is True else "OK"
            lines.append(f"- {_name(f)}: {status} | raw {ct(f.get('rawChars'))} | injected {ct(f.get('injectedChars'))}")
    skills = _dict(report.get("skills"))
    names = list(dict.fromkeys(_name(e) for e in _list(skills.get("entries"))))
    lines += [
        "",
        f"Skills list (system prompt text): {ct(skills.get('promptChars'))} ({len(names)} skills)",
        _names_line("Skills", names, SKILL_NAMES_CAP),
    ]
    return lines


def _totals_line(inputs: ReplyInputs) -> str:
    cached = fresh_total(inputs.entry)
    window = inputs.context_tokens
    ctx = format_number(window) if window is not None else "?"
    if cached is None:
        return f"Session tokens (cached): unknown / ctx={ctx}"
    return f"Session tokens (cached): {format_number(cached)} total / ctx={ctx}"


def render_reply(mode: str, report: Mapping[str, Any], inputs: ReplyInputs) -> str:
    """The reply text for `mode` (list, detail or json), ending with one newline."""
    if mode == "json":
        entry = inputs.entry
        session = {name: entry.get(name) for name in ("totalTokens", "totalTokensFresh", "inputTokens", "outputTokens")}
        session["contextTokens"] = inputs.context_tokens
        return js_stringify({"report": report, "session": session}, indent=2) + "\n"
    tools = _dict(report.get("tools"))
    tool_entries = _list(tools.get("entries"))
    tool_lines = [
        f"Tool list (system prompt text): {ct(tools.get('listChars'))}",
        f"Tool schemas (JSON): {ct(tools.get('schemaChars'))} (counts toward context; not shown as text)",
        _names_line("Tools", [_name(e) for e in tool_entries], TOOL_NAMES_CAP),
    ]
    if mode == "list":
        lines = ["🧠 Context breakdown", *_shared(report, inputs), *tool_lines, "", _totals_line(inputs)]
        return "\n".join(lines) + "\n"
    skill_entries = _list(_dict(report.get("skills")).get("entries"))
    lines = ["🧠 Context breakdown (detailed)", *_shared(report, inputs)]
    if skill_entries:
        lines += ["Top skills (prompt entry size):", *_top(skill_entries, "blockChars", "skills")]
    lines += tool_lines
    lines += ["Top tools (schema size):", *_top(tool_entries, "schemaChars", "tools")]
    lines += ["Top tools (summary text size):", *_top(tool_entries, "summaryChars", "tools")]
    counted = [e for e in tool_entries if is_finite_number(e.get("propertiesCount"))]
    if counted:
        ranked = sorted(counted, key=lambda e: -_num(e.get("propertiesCount")))
        lines.append("Tools (param count):")
        lines += [f"- {_name(e)}: {format_number(e['propertiesCount'])} params" for e in ranked[:PARAMS_CAP]]
    tracked = _num(_dict(report.get("systemPrompt")).get("chars")) + _num(tools.get("schemaChars"))
    lines.append(f"Tracked prompt estimate: {ct(tracked)}")
    cached = fresh_total(inputs.entry)
    if cached is None:
        lines.append("Actual context usage (cached): unavailable")
    else:
        lines.append(f"Actual context usage (cached): {format_number(cached)} tok")
        overhead = cached - tok(tracked)
        if overhead > 0:
            lines.append(f"Untracked provider/runtime overhead: ~{format_number(overhead)} tok")
        else:
            lines.append("Untracked provider/runtime overhead: not observed in cached usage")
    lines.append(_totals_line(inputs))
    return "\n".join(line for line in lines if line) + "\n"
