"""The gateway's static scan of plugin code (openclaw 2026.4.12 `skill-scanner.ts`): its rules, walk,
limits and verdict; the one home of the "risky plugin code" patterns (install scan, `plugin-code` audit).

Rules, walk and limits: docs/plugins.md, "The install-time code scan"; docs/security.md, "Plugins".
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.paths import is_within
from vora_cli.core.records import dataclass
from vora_cli.core.text import JS_WHITESPACE, js_trim, utf16_len, utf16_slice

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES_FILE = Path(__file__).resolve().parent / "code_safety.json"
CRITICAL, WARN = "critical", "warn"
EVIDENCE_UNITS = 120  # the gateway's `truncateEvidence`, in UTF-16 units


@cache
def recorded() -> dict[str, Any]:
    """`code_safety.json` as recorded from the release, read once a run."""
    data = nesting.loads(RULES_FILE.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def js_pattern(source: str, flags: str) -> re.Pattern[str]:
    """A JavaScript regular expression (no flag but `i`) as Python's `re` reads it. Under `re.ASCII`,
    `\\b`, `\\w`, `\\d` and case folding of ASCII letters are JavaScript's already; `\\s`, `\\S`, `.`
    and `$` are spelled out. What cannot be kept is refused, so a new release's rule fails loudly."""
    if set(flags) - {"i"}:
        raise ValueError(f"/{source}/{flags}: flags other than i are not translated")
    if "i" in flags and not source.isascii():
        raise ValueError(f"/{source}/{flags}: JavaScript folds the case of non-ASCII letters otherwise")
    space = JS_WHITESPACE
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\" and i + 1 < len(source):
            escaped = source[i + 1]
            if escaped == "s":
                out.append(space if in_class else f"[{space}]")
            elif escaped == "S" and not in_class:
                out.append(f"[^{space}]")
            elif escaped == "S":
                raise ValueError(f"/{source}/: \\S inside a character class is not translated")
            else:
                out.append(source[i:i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        elif char == "." and not in_class:
            char = "[^\n\r\u2028\u2029]"
        elif char == "$" and not in_class:
            char = r"\Z"  # JavaScript's end (no `m` flag) is the text's end
        out.append(char)
        i += 1
    return re.compile("".join(out), re.ASCII | (re.IGNORECASE if "i" in flags else 0))


@dataclass(frozen=True)
class Rule:
    """One rule of the scanner: a pattern, and the pattern the same file must also hold for it to count."""
    id: str
    severity: str  # critical | warn
    message: str
    pattern: re.Pattern[str]
    context: re.Pattern[str] | None


@dataclass(frozen=True)
class Rules:
    """The recorded scanner: the release it came from, the files it reads, its rules."""
    version: str
    extensions: frozenset[str]
    max_files: int
    max_file_bytes: int
    standard_ports: frozenset[int]
    line_rules: tuple[Rule, ...]
    source_rules: tuple[Rule, ...]


@cache
def rules() -> Rules:
    """The scanner, its patterns compiled: once a run, by the first scan."""
    data = recorded()

    def compiled(entries: list[dict[str, Any]]) -> tuple[Rule, ...]:
        return tuple(Rule(e["id"], e["severity"], e["message"], js_pattern(**e["pattern"]),
                          js_pattern(**e["requiresContext"]) if e.get("requiresContext") else None) for e in entries)

    return Rules(data["version"], frozenset(data["extensions"]), data["maxFiles"], data["maxFileBytes"],
                 frozenset(data["standardPorts"]), compiled(data["lineRules"]), compiled(data["sourceRules"]))


@dataclass(frozen=True)
class CodeFinding:
    """One rule that matched in one file: the file (relative to the scanned folder, `/`-separated, as the
    gateway names it), the line, the rule, and the line itself (trimmed, cut at 120 UTF-16 units)."""
    rule: str
    severity: str  # critical | warn
    file: str
    line: int
    message: str
    evidence: str

    def __str__(self) -> str:
        return f"{self.message} ({self.file}:{self.line})"

    def to_dict(self) -> dict[str, Any]:
        # not the evidence: a flagged line can hold a key (the audit shows it masked)
        return {"rule": self.rule, "severity": self.severity, "file": self.file, "line": self.line,
                "message": self.message}


def _evidence(text: str) -> str:
    return text if utf16_len(text) <= EVIDENCE_UNITS else utf16_slice(text, 0, EVIDENCE_UNITS) + "…"


def _standard_port(digits: str, ports: frozenset[int]) -> bool:
    """`STANDARD_PORTS.has(parseInt(digits, 10))`: leading zeros read away, a longer run no port."""
    digits = digits.lstrip("0") or "0"
    return len(digits) <= 5 and int(digits) in ports


def scan_source(text: str, file: str) -> list[CodeFinding]:
    """The findings in one file's text: each rule at most once, at its first line (the gateway's `scanSource`)."""
    table = rules()
    found: list[CodeFinding] = []
    lines = text.split("\n")
    for rule in table.line_rules:
        if rule.context is not None and not rule.context.search(text):
            continue
        for number, line in enumerate(lines, 1):
            match = rule.pattern.search(line)
            if match is None:
                continue
            if rule.id == "suspicious-network" and _standard_port(match.group(1), table.standard_ports):
                continue  # the line's first match decides, as the gateway's `exec`
            found.append(CodeFinding(rule.id, rule.severity, file, number, rule.message, _evidence(js_trim(line))))
            break
    for rule in table.source_rules:
        if not rule.pattern.search(text) or (rule.context is not None and not rule.context.search(text)):
            continue
        at = next((n for n, line in enumerate(lines) if rule.pattern.search(line)), None)
        evidence = js_trim(lines[at]) if at is not None else utf16_slice(text, 0, EVIDENCE_UNITS)  # across lines
        found.append(CodeFinding(rule.id, rule.severity, file, (at or 0) + 1, rule.message, _evidence(evidence)))
    return found


def plugin_files(root: Path, entries: Sequence[str] = ()) -> tuple[Path, list[tuple[Path, str]]]:
    """The files the gateway scans for the plugin at `root`, in its order, each with its name relative to
    the folder returned first. `entries`: its extension entries, read first wherever they are in the
    folder. A single-file plugin is that file alone (the gateway's installer scans its folder with the
    file first; vora stages a file alone in a folder)."""
    table = rules()
    base = os.path.abspath(root)
    if not os.path.isdir(base):
        folder, name = os.path.split(base)
        scannable = os.path.splitext(name)[1].lower() in table.extensions
        return Path(folder), [(Path(base), name)] if scannable else []
    picked: list[tuple[Path, str]] = []
    seen: set[str] = set()
    for entry in entries:  # `resolveForcedFiles`
        path = os.path.normpath(os.path.join(base, entry))
        if not is_within(path, base) or os.path.splitext(path)[1].lower() not in table.extensions or path in seen:
            continue
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                continue
        except OSError:
            continue
        picked.append((Path(path), os.path.relpath(path, base).replace(os.sep, "/")))
        seen.add(path)
    if len(picked) >= table.max_files:
        return Path(base), picked[:table.max_files]
    for path, name in _walk(base, table):
        if len(picked) >= table.max_files:
            break
        if path not in seen:
            picked.append((Path(path), name))
            seen.add(path)
    return Path(base), picked


def _walk(base: str, table: Rules) -> list[tuple[str, str]]:
    """`walkDirWithLimit`: depth-first from a stack, a folder's files in the order listed, its folders
    pushed (so the last is walked first); node's `readdir` lists a folder in byte order."""
    files: list[tuple[str, str]] = []
    stack = [(base, "")]
    while stack and len(files) < table.max_files:
        here, prefix = stack.pop()
        try:
            with os.scandir(here) as listing:
                children = sorted(listing, key=lambda child: os.fsencode(child.name))
        except OSError:
            continue
        for child in children:
            if len(files) >= table.max_files:
                break
            if child.name.startswith(".") or child.name == "node_modules":
                continue
            if child.is_dir(follow_symlinks=False):
                stack.append((child.path, prefix + child.name + "/"))
            elif child.is_file(follow_symlinks=False) and os.path.splitext(child.name)[1].lower() in table.extensions:
                files.append((child.path, prefix + child.name))
    return files


def _read(path: Path, limit: int) -> bytes | None:
    """A regular file's bytes when it holds at most `limit` (the gateway's `scanFileWithCache`), else
    None; opened without blocking, so a FIFO put in a file's place is never waited on."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    with open(fd, "rb") as handle:
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            data = handle.read(limit + 1)
        except OSError:
            return None
    return data if len(data) <= limit else None  # grew past the limit since its size was read


@dataclass(frozen=True)
class CodeSafety:
    """A plugin's scan: the folder its findings name files from, the files read, every rule that matched."""
    root: Path
    scanned_files: int
    findings: tuple[CodeFinding, ...]

    @property
    def critical(self) -> tuple[CodeFinding, ...]:
        return tuple(f for f in self.findings if f.severity == CRITICAL)

    @property
    def warnings(self) -> tuple[CodeFinding, ...]:
        return tuple(f for f in self.findings if f.severity == WARN)

    @property
    def verdict(self) -> str | None:
        """`critical` or `warn` as the gateway rates the plugin; None when nothing matched."""
        return CRITICAL if self.critical else WARN if self.warnings else None

    def path(self, finding: CodeFinding) -> Path:
        return self.root / finding.file


def scan_files(root: Path, files: Sequence[tuple[Path, str]]) -> CodeSafety:
    """Scan `files` (from `plugin_files`) as the gateway's `scanDirectoryWithSummary` reads them: a file
    over the size limit, gone, or not a regular file is not read (nor counted)."""
    limit = rules().max_file_bytes
    found: list[CodeFinding] = []
    scanned = 0
    for path, name in files:
        data = _read(path, limit)
        if data is None:
            continue
        scanned += 1
        found += scan_source(data.decode("utf-8", "replace"), name)
    return CodeSafety(root, scanned, tuple(found))


def scan_plugin_code(root: Path, entries: Sequence[str] = ()) -> CodeSafety:
    """The gateway's scan of the plugin at `root` (a folder, or a single-file plugin); `entries`: its
    extension entries, read first wherever they are in the folder."""
    base, files = plugin_files(root, entries)
    return scan_files(base, files)
