"""Skills the gateway lists in the system prompt, and the size of each listing in UTF-16 code units (spec
``context.md`` § Skills).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import expand_path
from vora_cli.core.records import dataclass, field
from vora_cli.core.text import estimate_tokens, js_trim, utf16_len, utf16_sort_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Spec § Skills: a SKILL.md over this many bytes is not a skill.
SKILL_FILE_MAX_BYTES = 256_000

# Root labels, lowest precedence first (a later root wins on a name clash).
ROOT_EXTRA = "extra"
ROOT_MANAGED = "managed"
ROOT_PERSONAL = "personal"
ROOT_WORKSPACE_AGENTS = "workspace-agents"
ROOT_WORKSPACE = "workspace"


@dataclass(frozen=True)
class SkillRoot:
    """A folder skills were read from, and which rule named it."""
    path: Path
    source: str


@dataclass(frozen=True)
class Skill:
    """One skill listed in the prompt; ``chars`` is the size of its prompt block."""

    name: str
    description: str
    path: Path
    source: str
    root: Path
    block: str
    chars: int


@dataclass(frozen=True)
class DroppedSkill:
    """A skill folder that is not listed in the prompt, and why."""

    name: str
    path: Path
    source: str
    reason: str  # too_large | unreadable | no_description | hidden | disabled | overridden
    detail: str = ""


@dataclass(frozen=True)
class SkillsReport:
    """The skills the context lists, and the ones left out."""
    skills: tuple[Skill, ...] = ()
    dropped: tuple[DroppedSkill, ...] = ()
    roots: tuple[SkillRoot, ...] = field(default=())

    @property
    def count(self) -> int:
        return len(self.skills)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.skills]

    @property
    def total_chars(self) -> int:
        return sum(s.chars for s in self.skills)

    def to_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "names": self.names,
            "totalChars": self.total_chars,
            "totalTokensEstimate": estimate_tokens(self.total_chars),
            "items": [
                {
                    "name": s.name,
                    "path": str(s.path),
                    "chars": s.chars,
                    "tokensEstimate": estimate_tokens(s.chars),
                    "source": s.source,
                    "root": str(s.root),
                }
                for s in self.skills
            ],
            "dropped": [
                {
                    "name": d.name,
                    "path": str(d.path),
                    "source": d.source,
                    "reason": d.reason,
                    "detail": d.detail,
                }
                for d in self.dropped
            ],
            "roots": [{"path": str(r.path), "source": r.source} for r in self.roots],
        }


def escape_xml(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def display_location(path: Path, home: Path) -> str:
    """The skill's location as the prompt shows it: the home prefix becomes ``~/``."""
    text = str(path)
    prefix = str(home).rstrip(os.sep) + os.sep
    if text.startswith(prefix):
        return "~/" + text[len(prefix) :]
    return text


def skill_prompt_block(name: str, description: str, location: str) -> str:
    """One skill's block in the prompt (spec § Skills), without a trailing newline."""
    return "\n".join(
        [
            "  <skill>",
            f"    <name>{escape_xml(name)}</name>",
            f"    <description>{escape_xml(description)}</description>",
            f"    <location>{escape_xml(location)}</location>",
            "  </skill>",
        ]
    )


def _unquote(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] and v[0] in "\"'":
        inner = v[1:-1]
        if v[0] == "'":
            return inner.replace("''", "'")
        return inner.replace('\\"', '"').replace("\\n", "\n").replace("\\t", "\t").replace("\\\\", "\\")
    # An unquoted YAML scalar ends at " #" (a comment).
    hash_at = v.find(" #")
    if hash_at >= 0:
        v = v[:hash_at].rstrip()
    return v


def parse_front_matter(text: str) -> dict[str, str]:
    """The ``key: value`` pairs of a leading ``---`` block; ``{}`` when there is none. A forgiving
    YAML subset: one key per line, values optionally quoted, block scalars (``|``, ``>``) with
    indented continuation lines; nested mappings are skipped."""
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        return {}
    out: dict[str, str] = {}
    i = 1
    while i < len(lines):
        line = lines[i]
        if line.strip() in ("---", "..."):
            return out
        i += 1
        if not line.strip() or line.lstrip().startswith("#") or line[:1] in (" ", "\t"):
            continue
        key, sep, rest = line.partition(":")
        if not sep:
            continue
        key = key.strip()
        rest = rest.strip()
        if rest[:1] in ("|", ">"):
            block: list[str] = []
            while i < len(lines) and (not lines[i].strip() or lines[i][:1] in (" ", "\t")):
                if lines[i].strip() in ("---", "..."):
                    break
                block.append(lines[i].strip())
                i += 1
            while block and not block[-1]:
                block.pop()
            out[key] = ("\n" if rest[0] == "|" else " ").join(block)
        else:
            out[key] = _unquote(rest)
    # No closing fence: not a front-matter block.
    return {}


def skill_roots(
    config: Mapping[str, Any], *, home: Path, workspace: Path, config_dir: Path
) -> list[SkillRoot]:
    """Skill roots, lowest precedence first (spec § Skills).

    ``~/.vora/skills`` is taken literally from the spec (under ``home``, not the state dir).
    """
    roots: list[SkillRoot] = []
    skills_cfg = config.get("skills") if isinstance(config, Mapping) else None
    load = skills_cfg.get("load") if isinstance(skills_cfg, Mapping) else None
    extra = load.get("extraDirs") if isinstance(load, Mapping) else None
    if extra is not None:
        if not isinstance(extra, list):
            raise VoraError("invalid", "skills.load.extraDirs must be a list of paths", None)
        for i, entry in enumerate(extra):
            if not isinstance(entry, str):
                raise VoraError("invalid", f"skills.load.extraDirs[{i}] must be a string", None)
            if js_trim(entry):
                roots.append(SkillRoot(expand_path(entry, home, config_dir, key=f"skills.load.extraDirs[{i}]"), ROOT_EXTRA))
    roots.append(SkillRoot(home / ".vora" / "skills", ROOT_MANAGED))
    roots.append(SkillRoot(home / ".agents" / "skills", ROOT_PERSONAL))
    roots.append(SkillRoot(workspace / ".agents" / "skills", ROOT_WORKSPACE_AGENTS))
    roots.append(SkillRoot(workspace / "skills", ROOT_WORKSPACE))
    return roots


def _disabled_names(config: Mapping[str, Any]) -> set[str]:
    skills_cfg = config.get("skills") if isinstance(config, Mapping) else None
    entries = skills_cfg.get("entries") if isinstance(skills_cfg, Mapping) else None
    if not isinstance(entries, Mapping):
        return set()
    return {
        name
        for name, entry in entries.items()
        if isinstance(entry, Mapping) and entry.get("enabled") is False
    }


def _scan_root(root: SkillRoot) -> list[tuple[str, Path]]:
    try:
        children = [e for e in os.scandir(root.path)]
    except (OSError, UnicodeEncodeError):  # a name no file system holds (a lone surrogate): no folder
        return []
    found: list[tuple[str, Path]] = []
    for entry in sorted(children, key=lambda e: utf16_sort_key(e.name)):
        if entry.name.startswith(".") or entry.name == "node_modules":
            continue
        try:
            if not entry.is_dir():
                continue
        except OSError:
            continue
        skill_file = Path(entry.path) / "SKILL.md"
        if skill_file.is_file():
            found.append((entry.name, skill_file))
    return found


def _read_root(root: SkillRoot) -> list[tuple[str, Any]]:
    """What one skill root holds, in order: ("skill", (name, description, SKILL.md, hidden)) for
    each skill it offers, ("dropped", DroppedSkill) for each the gateway drops as it reads it."""
    out: list[tuple[str, Any]] = []
    for folder, skill_file in _scan_root(root):
        try:
            info = skill_file.stat()
        except OSError as exc:
            out.append(("dropped", DroppedSkill(folder, skill_file, root.source, "unreadable", str(exc))))
            continue
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block the read forever
            out.append(("dropped", DroppedSkill(folder, skill_file, root.source, "unreadable", "not a regular file")))
            continue
        size = info.st_size
        if size > SKILL_FILE_MAX_BYTES:
            out.append(("dropped", DroppedSkill(folder, skill_file, root.source, "too_large",
                                                f"{size} bytes > {SKILL_FILE_MAX_BYTES}")))
            continue
        try:
            text = skill_file.read_bytes().decode("utf-8", "replace")
        except OSError as exc:
            out.append(("dropped", DroppedSkill(folder, skill_file, root.source, "unreadable", str(exc))))
            continue
        meta = parse_front_matter(text)
        name = meta.get("name", "").strip() or folder
        description = meta.get("description", "").strip()
        if not description:
            out.append(("dropped", DroppedSkill(name, skill_file, root.source, "no_description")))
            continue
        hidden = meta.get("disable-model-invocation", "").strip().lower() == "true"
        out.append(("skill", (name, description, skill_file, hidden)))
    return out


def load_skills(config: Mapping[str, Any], *, home: Path, workspace: Path, config_dir: Path,
                reads: dict[Path, list[tuple[str, Any]]] | None = None) -> SkillsReport:
    """Every skill the gateway would list in the prompt for this workspace, in prompt order.
    `reads`: what each root held, kept by a caller that loads many workspaces' skills (doctor),
    so shared roots are read once."""
    roots = skill_roots(config, home=home, workspace=workspace, config_dir=config_dir)
    dropped: list[DroppedSkill] = []
    # name -> (description, path, source, root, hidden). Like a JS Map, a later root replaces
    # the value but the name keeps the position where it was first seen.
    merged: dict[str, tuple[str, Path, str, Path, bool]] = {}
    for root in roots:
        found = reads.get(root.path) if reads is not None else None
        if found is None:
            found = _read_root(root)
            if reads is not None:
                reads[root.path] = found
        for kind, item in found:
            if kind == "dropped":
                dropped.append(item)
                continue
            name, description, skill_file, hidden = item
            if name in merged:
                old = merged[name]
                dropped.append(
                    DroppedSkill(name, old[1], old[2], "overridden", f"by {skill_file} ({root.source})")
                )
            merged[name] = (description, skill_file, root.source, root.path, hidden)

    disabled = _disabled_names(config)
    skills: list[Skill] = []
    for name, (description, path, source, root_path, hidden) in merged.items():
        if name in disabled:
            dropped.append(
                DroppedSkill(name, path, source, "disabled", f"skills.entries.{name}.enabled is false")
            )
            continue
        if hidden:
            dropped.append(DroppedSkill(name, path, source, "hidden", "disable-model-invocation: true"))
            continue
        block = skill_prompt_block(name, description, display_location(path, home))
        skills.append(Skill(name, description, path, source, root_path, block, utf16_len(block)))
    return SkillsReport(tuple(skills), tuple(dropped), tuple(roots))
