"""`vora context list|detail|json --session KEY`: the gateway's own `/context` reply for a
stored session, rebuilt from its run report; without one, the offline estimate (spec
sessions.md, "`vora context list | detail | json --session KEY`")."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from vora_cli.core.errors import VoraError

if TYPE_CHECKING:
    import typer

    from vora_cli.cli.output import Output

_KINDS = ("subagent", "cron")


def _check_flags(session: str, *, kind: str | None, workspace: str | None, max_chars: int | None,
                 total_max_chars: int | None) -> None:
    if session.strip().lower() in _KINDS:
        raise VoraError("usage", f"--session now takes a session key, not the kind {session!r}",
                        f"use --kind {session.strip().lower()} for the {session.strip().lower()} file list")
    given = [flag for flag, value in (("--kind", kind), ("--workspace", workspace), ("--max-chars", max_chars),
                                      ("--total-max-chars", total_max_chars)) if value is not None]
    if given:
        raise VoraError("usage", f"{', '.join(given)} cannot be used with --session",
                        "the session's kind and workspace come from its key and run report (a record, not a what-if)")


def session_context(
    ctx: typer.Context,
    out: Output,
    mode: str,
    session: str,
    offline: Callable[[str | None, str, str, dict[str, Any] | None], int],
    *,
    agent: str | None,
    kind: str | None,
    workspace: str | None,
    max_chars: int | None,
    total_max_chars: int | None,
    fail_on_truncation: bool,
) -> int:
    """Print the session's /context reply (or the offline estimate); the exit code.

    `offline(workspace, agent, kind, extra JSON)` prints the offline report (`context.py` owns it).
    """
    from vora_cli.cli.common import paths_of
    from vora_cli.cli.output import write_stdout
    from vora_cli.core.config.loading import load_config
    from vora_cli.core.sessions.resolve import resolve_session
    from vora_cli.core.sessions.store import report_source

    _check_flags(session, kind=kind, workspace=workspace, max_chars=max_chars, total_max_chars=total_max_chars)
    paths = paths_of(ctx)
    config = load_config(paths).effective
    resolved = resolve_session(config, paths, session, agent=agent, whole_store=False)
    row = resolved.row
    mode = "json" if out.json_mode else mode
    report = resolved.entry.get("systemPromptReport")
    if isinstance(report, dict) and report_source(resolved.entry) == "run":
        write_stdout(_reply(ctx, mode, report, resolved.entry, config, row.agent_id))
        files = report.get("injectedWorkspaceFiles")
        truncated = [f for f in files if isinstance(f, dict) and f.get("truncated") is True] if isinstance(files, list) else []
        if fail_on_truncation and truncated:
            out.note(f"error: {len(truncated)} bootstrap file(s) truncated in the last run of {row.key}")
            return 1
        return 0
    file_kind = row.kind if row.kind in _KINDS else "main"
    out.note(f"session {row.key} has no run report; showing the offline estimate")
    extra = {"source": "offline-estimate", "session": {"key": row.key, "agentId": row.agent_id, "kind": row.kind}}
    shown = extra if out.json_mode else None
    try:
        return offline(None, row.agent_id, file_kind, shown)
    except VoraError as error:  # an agent found only on disk: its workspace by the spec's rule 3
        if error.code != "not_found":
            raise
        return offline(_agent_workspace(ctx, config, row.agent_id), row.agent_id, file_kind, shown)


def _reply(ctx: typer.Context, mode: str, report: dict[str, Any], entry: dict[str, Any], config: dict[str, Any],
           agent_id: str) -> str:
    from vora_cli.cli.output import safe_text
    from vora_cli.core.sessions.context_reply import ReplyInputs, render_reply
    from vora_cli.core.sessions.jsfmt import is_finite_number, well_formed

    def stored(name: str) -> bool:
        value = report.get(name)
        return is_finite_number(value) and value > 0

    max_file = max_total = 0  # not used when the report holds both caps (the usual case)
    if not (stored("bootstrapMaxChars") and stored("bootstrapTotalMaxChars")):
        from vora_cli.core.context.caps import resolve_caps  # the context.md caps from the config

        caps = resolve_caps(config, None, None)
        max_file, max_total = caps.max_chars, caps.total_max_chars
    workspace = report.get("workspaceDir")
    fallback = workspace if isinstance(workspace, str) and workspace else _agent_workspace(ctx, config, agent_id)
    inputs = ReplyInputs(entry, config, fallback, max_file, max_total)
    text = well_formed(render_reply(mode, report, inputs))
    return text if mode == "json" else "\n".join(safe_text(line) for line in text.split("\n"))


def _agent_workspace(ctx: typer.Context, config: dict[str, Any], agent_id: str) -> str:
    from vora_cli.cli.common import paths_of
    from vora_cli.core.context.workspace import agents_defaults, resolve_workspace

    paths = paths_of(ctx)
    try:
        choice = resolve_workspace(config, agent_id=agent_id, workspace_flag=None, home=paths.home,
                                   state_dir=paths.state_dir, profile=paths.profile, config_dir=paths.config_dir)
    except VoraError:
        base = agents_defaults(config).get("workspace")
        if isinstance(base, str) and base.strip():
            from vora_cli.core.paths import expand_path

            return str(expand_path(base, paths.home, paths.config_dir) / agent_id)
        return str(paths.state_dir / f"workspace-{agent_id}")
    return str(choice.path)
