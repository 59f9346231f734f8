"""The gateway's static scan of plugin code (openclaw 2026.4.12 `skill-scanner.ts`): its one rule
table, its file walk, its per-plugin verdict. The one home of the "risky plugin code" patterns:
`security audit`'s `plugin-code` check reads it, and an install-time scan should too.

A rule is a regex, its severity and its words. Line rules (child processes with `child_process`
in the file, `eval`/`new Function`, mining pools, a WebSocket to a non-standard port) report the
first matching line; source rules (a file read with a network send, hex or base64 payloads, the
environment with a network send) match the whole file and report their first matching line. A
plugin is `critical` when any rule of that severity matched in any of its files, else `warn`
when a warn rule did: one verdict per plugin, as the gateway's `plugins.code_safety`.

The walk is the gateway's: the plugin folder depth-first (last entry first, as its stack pops),
dot folders and `node_modules` left out, `.js .ts .mjs .cjs .mts .cts .jsx .tsx` files, at most
500 files, a file over 1 MiB not scanned; extension entries inside the folder are scanned first
even where the walk would skip them. Every pattern is linear on a line: it starts at a literal.
"""

from __future__ import annotations

import bisect
import os
import re
from pathlib import Path

from vora_cli.core.records import dataclass

SCANNABLE = (".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx")
MAX_FILES = 500
MAX_FILE_BYTES = 1024 * 1024
CRITICAL, WARN = "critical", "warn"
_STANDARD_PORTS = frozenset((80, 443, 8080, 8443, 3000))
# JavaScript's `\b` and classes are ASCII: so are these (re.ASCII).
_NETWORK_SEND = re.compile(r"\bfetch\b|\bpost\b|http\.request", re.IGNORECASE | re.ASCII)


@dataclass(frozen=True)
class Rule:
    """One pattern of the scan: what it matches, how bad it is, what it means."""
    rule_id: str
    severity: str
    message: str
    pattern: re.Pattern[str]
    requires: re.Pattern[str] | None = None  # the file must also hold this


LINE_RULES = (
    Rule("dangerous-exec", CRITICAL, "Shell command execution detected (child_process)",
         re.compile(r"\b(exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(", re.ASCII),
         re.compile(r"child_process")),
    Rule("dynamic-code-execution", CRITICAL, "Dynamic code execution detected",
         re.compile(r"\beval\s*\(|new\s+Function\s*\(", re.ASCII)),
    Rule("crypto-mining", CRITICAL, "Possible crypto-mining reference detected",
         re.compile(r"stratum\+tcp|stratum\+ssl|coinhive|cryptonight|xmrig", re.IGNORECASE | re.ASCII)),
    # the gateway's /new\s+WebSocket\s*\(\s*["']wss?:\/\/[^"']*:(\d+)/, matched without its backtracking
    # (`_websocket_port`): the quote-free run after the scheme, and its last `:<digits>`
    Rule("suspicious-network", WARN, "WebSocket connection to non-standard port",
         re.compile(r"new\s+WebSocket\s*\(\s*[\"']wss?://", re.ASCII)),
)
SOURCE_RULES = (
    Rule("potential-exfiltration", WARN, "File read combined with network send — possible data exfiltration",
         re.compile(r"readFileSync|readFile"), _NETWORK_SEND),
    Rule("obfuscated-code", WARN, "Hex-encoded string sequence detected (possible obfuscation)",
         re.compile(r"(\\x[0-9a-fA-F]{2}){6,}", re.ASCII)),
    Rule("obfuscated-code", WARN, "Large base64 payload with decode call detected (possible obfuscation)",
         re.compile(r"(?:atob|Buffer\.from)\s*\(\s*[\"'][A-Za-z0-9+/=]{200,}[\"']", re.ASCII)),
    Rule("env-harvesting", CRITICAL, "Environment variable access combined with network send — possible credential "
         "harvesting", re.compile(r"process\.env"), _NETWORK_SEND),
)
_PORT = re.compile(r":[0-9]", re.ASCII)
_QUOTE = re.compile(r"[\"']")
_DIGITS = re.compile(r"[0-9]+", re.ASCII)


def _websocket_port(line: str) -> int | None:
    """The port the gateway's WebSocket rule reads on `line`, at its first match (None: no match).
    For a match's start, the regex's greedy `[^"']*:(\\d+)` takes the last `:<digit>` before the
    next quote; the positions are looked up, not re-scanned, so many starts on one line stay linear."""
    ports = [m.start() for m in _PORT.finditer(line)]
    quotes = [m.start() for m in _QUOTE.finditer(line)]
    for start in LINE_RULES[3].pattern.finditer(line):
        run_end = quotes[bisect.bisect_left(quotes, start.end())] if quotes and quotes[-1] >= start.end() \
            else len(line)
        at = bisect.bisect_left(ports, run_end) - 1
        if at >= 0 and ports[at] >= start.end():
            digits = _DIGITS.match(line, ports[at] + 1)
            assert digits is not None
            return int(digits.group())
    return None


@dataclass(frozen=True)
class CodeFinding:
    """One rule that matched in one file: where, and the line it matched (trimmed, cut at 120)."""
    rule_id: str
    severity: str
    file: Path
    line: int
    message: str
    evidence: str


def _evidence(text: str) -> str:
    return text if len(text) <= 120 else text[:120] + "…"


def scan_source(source: str, file: Path) -> list[CodeFinding]:
    """The gateway's `scanSource`: each line rule once, each source rule once, in table order."""
    found: list[CodeFinding] = []
    lines = source.split("\n")
    for rule in LINE_RULES:
        if rule.requires is not None and not rule.requires.search(source):
            continue
        for i, line in enumerate(lines):
            if rule.rule_id == "suspicious-network":
                port = _websocket_port(line) if "WebSocket" in line else None
                if port is None or port in _STANDARD_PORTS:
                    continue
            elif rule.pattern.search(line) is None:
                continue
            found.append(CodeFinding(rule.rule_id, rule.severity, file, i + 1, rule.message, _evidence(line.strip())))
            break
    for rule in SOURCE_RULES:
        if not rule.pattern.search(source) or (rule.requires is not None and not rule.requires.search(source)):
            continue
        at = next((i for i, line in enumerate(lines) if rule.pattern.search(line)), None)
        evidence = lines[at].strip() if at is not None else source[:120]
        found.append(CodeFinding(rule.rule_id, rule.severity, file, (at or 0) + 1, rule.message, _evidence(evidence)))
    return found


def _scannable(name: str) -> bool:
    return os.path.splitext(name)[1].lower() in SCANNABLE


def _walk(root: Path) -> list[Path]:
    """`walkDirWithLimit`: depth-first from a stack, a folder's entries in their listing order."""
    files: list[Path] = []
    stack = [root]
    while stack and len(files) < MAX_FILES:
        here = stack.pop()
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if len(files) >= MAX_FILES:
                break
            if entry.name.startswith(".") or entry.name == "node_modules":
                continue
            if entry.is_dir(follow_symlinks=False):
                stack.append(Path(entry.path))
            elif entry.is_file(follow_symlinks=False) and _scannable(entry.name):
                files.append(Path(entry.path))
    return files


def _inside(root: Path, path: Path) -> bool:
    base = os.path.abspath(root)
    return os.path.abspath(path) == base or os.path.abspath(path).startswith(base.rstrip(os.sep) + os.sep)


@dataclass(frozen=True)
class CodeSafety:
    """A plugin folder's scan: the files scanned, and every rule that matched."""
    scanned_files: int
    findings: tuple[CodeFinding, ...]

    def count(self, severity: str) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    @property
    def verdict(self) -> str | None:
        """`critical` or `warn` as the gateway rates the plugin; None when nothing matched."""
        return CRITICAL if self.count(CRITICAL) else WARN if self.count(WARN) else None


def scan_plugin_code(root: Path, entries: tuple[str, ...] = ()) -> CodeSafety:
    """The gateway's `scanDirectoryWithSummary` of one plugin folder (`entries`: its extension
    entries, scanned first, as the gateway forces them into the scan)."""
    forced: list[Path] = []
    for entry in entries:
        path = Path(os.path.normpath(root / entry))
        if _inside(root, path) and _scannable(path.name) and path not in forced and path.is_file():
            forced.append(path)
    files = forced[:MAX_FILES]
    seen = {os.path.abspath(p) for p in files}
    for path in _walk(root) if len(files) < MAX_FILES else ():
        if len(files) >= MAX_FILES:
            break
        if os.path.abspath(path) not in seen:
            files.append(path)
            seen.add(os.path.abspath(path))
    found: list[CodeFinding] = []
    scanned = 0
    for path in files:
        try:
            if os.stat(path).st_size > MAX_FILE_BYTES:
                continue
            with open(path, "rb") as handle:
                source = handle.read(MAX_FILE_BYTES + 1).decode("utf-8", "replace")
        except OSError:
            continue
        scanned += 1
        found += scan_source(source, path)
    return CodeSafety(scanned, tuple(found))
