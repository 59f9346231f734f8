"""`vora context list|detail|json|preview`: the offline report of an install's workspace, as one
operation each (spec context.md). The workspace is the agent's (core/agents.py) unless
`--workspace` names one; the caps come from the config unless a what-if flag gives them."""

from __future__ import annotations

from vora_cli.core.context.files import check_session
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.agents import WorkspaceChoice
    from vora_cli.core.context.caps import Caps
    from vora_cli.core.context.report import ContextReport
    from vora_cli.core.install import Install


def _inputs(install: Install, *, workspace: str | None, agent: str | None, kind: str, max_chars: int | None,
            total_max_chars: int | None) -> tuple[WorkspaceChoice, Caps]:
    from vora_cli.core.context.caps import resolve_caps

    check_session(kind)
    install.require_config()
    caps = resolve_caps(install.effective, max_chars, total_max_chars)
    return install.agents.choose_workspace(install.paths, agent=agent, flag=workspace), caps


def context_report(install: Install, *, workspace: str | None = None, agent: str | None = None, kind: str = "main",
                   max_chars: int | None = None, total_max_chars: int | None = None) -> ContextReport:
    """What the gateway injects for `kind` from the workspace: each file's sizes, the cuts, the skills."""
    choice, caps = _inputs(install, workspace=workspace, agent=agent, kind=kind, max_chars=max_chars,
                           total_max_chars=total_max_chars)
    return report_for(install, choice, caps, kind)


def report_for(install: Install, choice: WorkspaceChoice, caps: Caps, kind: str) -> ContextReport:
    """The report of one chosen workspace (`context_report`, and `--session`'s offline estimate)."""
    from vora_cli.core.context.report import build_context_report
    from vora_cli.core.context.skills import load_skills

    paths = install.paths
    skills = load_skills(install.effective, home=paths.home, workspace=choice.path, config_dir=paths.config_dir)
    return build_context_report(choice.path, caps, session=kind, skills=skills)


@dataclass(frozen=True)
class Preview:
    """`vora context preview`: the text the gateway would inject (one file, or all of them)."""

    workspace: str
    name: str | None
    chars: int  # UTF-16 units, as the gateway counts
    text: str  # printable: a surrogate half left by the per-file trim is U+FFFD, as a UTF-8 writer makes it

    def to_dict(self) -> dict[str, object]:
        return {"workspace": self.workspace, "name": self.name, "chars": self.chars, "text": self.text}


def context_preview(install: Install, name: str | None = None, *, workspace: str | None = None,
                    agent: str | None = None, kind: str = "main", max_chars: int | None = None,
                    total_max_chars: int | None = None) -> Preview:
    from vora_cli.core.context.budget import injected_text
    from vora_cli.core.text import utf16_len

    choice, caps = _inputs(install, workspace=workspace, agent=agent, kind=kind, max_chars=max_chars,
                           total_max_chars=total_max_chars)
    text = injected_text(choice.path, caps, session=kind, name=name)
    printable = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return Preview(str(choice.path), name, utf16_len(text), printable)
