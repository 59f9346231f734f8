"""`vora context list|detail|json --session KEY`: the gateway's own `/context` reply for a stored
session, rebuilt from its run report; without one, the offline estimate for the session's agent.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.context.report import ContextReport
    from vora_cli.core.install import Install
    from vora_cli.core.sessions.listing import SessionRow

# The kinds that get the subagent/cron file list (spec context.md, "Which files").
_SHORT_KINDS = ("subagent", "cron")


class SessionContext(NamedTuple):
    """The session's context: the reply rebuilt from its run report, or else the offline estimate."""

    row: SessionRow
    reply: str | None  # the /context reply text (list, detail or json); None: no run report
    truncated_files: int  # files the last run truncated (with a reply)
    estimate: ContextReport | None  # the offline estimate (without a run report)
    run_at_ms: int | None = None  # when the gateway made the run report (its `generatedAt`), when known

    @property
    def estimate_extra(self) -> dict[str, Any]:
        """What `--json` adds to the offline estimate: that it is one, and for which session."""
        row = self.row
        return {"source": "offline-estimate", "session": {"key": row.key, "agentId": row.agent_id, "kind": row.kind}}


def check_session_flags(session: str, *, kind: str | None, workspace: str | None, max_chars: int | None,
                        total_max_chars: int | None) -> None:
    """`--session` names a stored session: what-if flags and the old `--session KIND` are refused."""
    if session.strip().lower() in _SHORT_KINDS:
        raise VoraError("usage", f"--session now takes a session key, not the kind {session!r}",
                        f"use --kind {session.strip().lower()} for the {session.strip().lower()} file list")
    given = [flag for flag, value in (("--kind", kind), ("--workspace", workspace), ("--max-chars", max_chars),
                                      ("--total-max-chars", total_max_chars)) if value is not None]
    if given:
        raise VoraError("usage", f"{', '.join(given)} cannot be used with --session",
                        "the session's kind and workspace come from its key and run report (a record, not a what-if)")


def session_context(install: Install, key: str, *, mode: str, agent: str | None = None) -> SessionContext:
    """The context of the stored session `key` (`mode`: list, detail or json, the reply's form)."""
    from vora_cli.core.context.caps import resolve_caps
    from vora_cli.core.context.operations import report_for
    from vora_cli.core.sessions.resolve import resolve_session
    from vora_cli.core.sessions.store import report_source

    resolved = resolve_session(install, key, agent=agent, whole_store=False)
    row = resolved.row
    report = resolved.entry.get("systemPromptReport")
    if isinstance(report, dict) and report_source(resolved.entry) == "run":
        files = report.get("injectedWorkspaceFiles")
        truncated = [f for f in files if isinstance(f, dict) and f.get("truncated") is True] \
            if isinstance(files, list) else []
        from vora_cli.core.sessions.jsfmt import is_finite_number

        generated = report.get("generatedAt")
        run_at = int(generated) if is_finite_number(generated) and abs(generated) < 8.64e15 else None
        return SessionContext(row, _reply(install, mode, report, resolved.entry, row.agent_id), len(truncated), None,
                              run_at)
    kind = row.kind if row.kind in _SHORT_KINDS else "main"
    choice = install.agents.workspace(row.agent_id, install.paths)  # configured or found only on disk
    estimate = report_for(install, choice, resolve_caps(install.effective, None, None), kind)
    return SessionContext(row, None, 0, estimate)


def _reply(install: Install, mode: str, report: dict[str, Any], entry: dict[str, Any], agent_id: str) -> str:
    from vora_cli.core.sessions.context_reply import ReplyInputs, render_reply
    from vora_cli.core.sessions.jsfmt import is_finite_number, well_formed

    def stored(name: str) -> bool:
        value = report.get(name)
        return is_finite_number(value) and value > 0

    config = install.effective
    max_file = max_total = 0  # not used when the report holds both caps (the usual case)
    if not (stored("bootstrapMaxChars") and stored("bootstrapTotalMaxChars")):
        from vora_cli.core.context.caps import resolve_caps  # the context.md caps from the config

        caps = resolve_caps(config, None, None)
        max_file, max_total = caps.max_chars, caps.total_max_chars
    workspace = report.get("workspaceDir")
    if not (isinstance(workspace, str) and workspace):
        try:
            workspace = str(install.agents.workspace(agent_id, install.paths).path)
        except VoraError:  # a workspace setting of the wrong type (`vora config validate` names it)
            workspace = str(install.paths.state_dir / f"workspace-{agent_id}")
    return well_formed(render_reply(mode, report, ReplyInputs(entry, config, workspace, max_file, max_total)))
