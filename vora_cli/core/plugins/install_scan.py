"""The code scan the gateway's installer runs on a plugin package, run by vora before it installs one.

openclaw 2026.4.12 scans every package it installs (`scanPackageInstallSource`): first the dependency
denylist (a package named in `dependencies`, `optionalDependencies`, `peerDependencies` or `overrides`,
or present under `node_modules`, that it never installs: refused, even when forced), then its scanner
over the package's code: line rules (a shell command run through `child_process`, `eval` or
`new Function`, a crypto-mining pool, a WebSocket to a non-standard port) and whole-file rules (a file
read with a network send, hex or base64 payloads, the environment read with a network send), each
`critical` or `warn`. Any `critical` finding blocks the install unless forced. Its files: the
package's entry files wherever they are, then the `.js .ts .mjs .cjs .mts .cts .jsx .tsx` files of the
package, dot-named entries and `node_modules` passed over, at most 500, none over 1 MiB.

The rules, the limits and the names are the release's, recorded with its version in
`install_scan.json` (`scripts/gen_install_scan_rules.py`); the patterns are its own JavaScript
patterns, read with JavaScript's meaning of `\\s`, `\\d` and `\\b`. `tests/core/plugins/test_install_scan.py`
holds the findings and the decision to the gateway's answers on the same packages. vora walks folders
in name order (the gateway in the file system's order, which only matters past 500 files).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Sequence
from functools import cache
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

RULES = Path(__file__).resolve().parent / "install_scan.json"
CRITICAL, WARN = "critical", "warn"
# The gateway's walk of a package's manifests for the denylist (its limits, `OPENCLAW_INSTALL_SCAN_MAX_*`).
MAX_DEPTH, MAX_DIRECTORIES, MAX_MANIFESTS = 64, 10_000, 10_000
_DEPENDENCY_FIELDS = ("dependencies", "optionalDependencies", "peerDependencies")
# JavaScript's `\s`, `\d` and `\b` (ASCII words) for Python's `re`, which reads them more widely.
_JS_ESCAPES = {"s": "[\t\n\v\f\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]", "d": "[0-9]",
               "b": r"(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))"}


@dataclass(frozen=True)
class ScanFinding:
    """One pattern the scan found: where (the file relative to the package, its line) and the rule."""
    rule: str
    severity: str  # critical | warn
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.message} ({self.file}:{self.line})"

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "severity": self.severity, "file": self.file, "line": self.line,
                "message": self.message}


@dataclass(frozen=True)
class InstallScan:
    """What the scan found in a package, and whether the gateway's installer would block it."""
    findings: tuple[ScanFinding, ...] = ()
    scanned_files: int = 0
    blocked_dependencies: tuple[str, ...] = ()  # why the denylist refuses it (never overridable)

    @property
    def critical(self) -> tuple[ScanFinding, ...]:
        return tuple(f for f in self.findings if f.severity == CRITICAL)

    @property
    def warnings(self) -> tuple[ScanFinding, ...]:
        return tuple(f for f in self.findings if f.severity == WARN)

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [f.to_dict() for f in self.findings], "scannedFiles": self.scanned_files,
                "critical": len(self.critical), "warn": len(self.warnings),
                "blockedDependencies": list(self.blocked_dependencies)}


def js_pattern(source: str, flags: str) -> re.Pattern[str]:
    """A JavaScript regular expression (no `u` or `y` flag) as Python's `re` reads it."""
    out: list[str] = []
    in_class = False
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\" and i + 1 < len(source):
            escaped = source[i + 1]
            if escaped in _JS_ESCAPES and not in_class:
                out.append(_JS_ESCAPES[escaped])
            elif escaped in _JS_ESCAPES and escaped != "b":
                raise ValueError(f"/{source}/: \\{escaped} inside a character class is not translated")
            else:
                out.append(source[i:i + 2])
            i += 2
            continue
        if char == "[" and not in_class:
            in_class = True
        elif char == "]" and in_class:
            in_class = False
        out.append("\\Z" if char == "$" and not in_class else char)  # JavaScript's end is the text's end
        i += 1
    if set(flags) - {"i"}:
        raise ValueError(f"/{source}/{flags}: flags other than i are not translated")
    return re.compile("".join(out), re.ASCII | (re.IGNORECASE if "i" in flags else 0))


@dataclass(frozen=True)
class _Rule:
    """One rule of the scanner: a pattern, and the pattern the same file must also hold for it to count."""
    id: str
    severity: str
    message: str
    pattern: re.Pattern[str]
    context: re.Pattern[str] | None


@dataclass(frozen=True)
class _Rules:
    """The recorded scanner: the release it came from, its files' limits, its rules, the denylist."""
    version: str
    extensions: frozenset[str]
    max_files: int
    max_file_bytes: int
    standard_ports: frozenset[int]
    line_rules: tuple[_Rule, ...]
    source_rules: tuple[_Rule, ...]
    blocked_packages: frozenset[str]


@cache
def rules() -> _Rules:
    data = nesting.loads(RULES.read_text(encoding="utf-8"))

    def compiled(entries: list[dict[str, Any]]) -> tuple[_Rule, ...]:
        return tuple(_Rule(e["id"], e["severity"], e["message"], js_pattern(**e["pattern"]),
                           js_pattern(**e["requiresContext"]) if e.get("requiresContext") else None) for e in entries)

    return _Rules(data["version"], frozenset(data["extensions"]), data["maxFiles"], data["maxFileBytes"],
                  frozenset(data["standardPorts"]), compiled(data["lineRules"]), compiled(data["sourceRules"]),
                  frozenset(data["blockedPackages"]))


def scan_source(text: str, file: str) -> list[ScanFinding]:
    """The findings in one file's text: each rule at most once, at its first line (the gateway's `scanSource`)."""
    table = rules()
    found: list[ScanFinding] = []
    lines = text.split("\n")
    for rule in table.line_rules:
        if rule.context is not None and not rule.context.search(text):
            continue
        for number, line in enumerate(lines, 1):
            match = rule.pattern.search(line)
            if match is None:
                continue
            if rule.id == "suspicious-network" and _standard_port(match.group(1), table.standard_ports):
                continue
            found.append(ScanFinding(rule.id, rule.severity, file, number, rule.message))
            break
    for rule in table.source_rules:
        if not rule.pattern.search(text) or (rule.context is not None and not rule.context.search(text)):
            continue
        number = next((n for n, line in enumerate(lines, 1) if rule.pattern.search(line)), 1)
        found.append(ScanFinding(rule.id, rule.severity, file, number, rule.message))
    return found


def _standard_port(digits: str, ports: frozenset[int]) -> bool:
    return len(digits) < 6 and int(digits) in ports  # a longer run is no port (and no int to make)


def _inside(root: str, path: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _files(root: Path, entries: Sequence[str]) -> list[Path]:
    """The files the gateway reads: the entry files first (wherever they are), then the walk."""
    table = rules()
    base = os.path.abspath(root)
    picked: list[Path] = []
    seen: set[str] = set()
    for entry in entries:
        path = os.path.abspath(os.path.join(base, entry))
        if not _inside(base, path) or os.path.splitext(path)[1].lower() not in table.extensions or path in seen:
            continue
        try:
            if not stat.S_ISREG(os.stat(path).st_mode):
                continue
        except OSError:
            continue
        picked.append(Path(path))
        seen.add(path)
    folders = [base]
    while folders and len(picked) < table.max_files:
        here = folders.pop(0)
        try:
            with os.scandir(here) as listing:
                children = sorted(listing, key=lambda entry: entry.name)
        except OSError:
            continue
        for child in children:
            if child.name.startswith(".") or child.name == "node_modules":
                continue
            if child.is_dir(follow_symlinks=False):
                folders.append(child.path)
            elif (child.is_file(follow_symlinks=False) and os.path.splitext(child.name)[1].lower() in table.extensions
                  and child.path not in seen):
                picked.append(Path(child.path))
                seen.add(child.path)
                if len(picked) >= table.max_files:
                    break
    return picked[:table.max_files]


def scan_package(root: Path, entries: Sequence[str] = (), *, dependencies: bool = True) -> InstallScan:
    """Scan the package at `root` (a folder, or a single-file plugin) as the gateway's installer does;
    `entries`: its package.json's extension entries, always read; `dependencies`: walk it for the
    denylist too (a link's development folder, with its whole `node_modules`, is not walked)."""
    if root.is_file():
        files, base = [root], root.parent
    else:
        files, base = _files(root, entries), root
    findings: list[ScanFinding] = []
    scanned = 0
    limit = rules().max_file_bytes
    for path in files:
        try:
            if os.stat(path).st_size > limit:
                continue
            text = path.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        scanned += 1
        findings.extend(scan_source(text, path.relative_to(base).as_posix()))
    return InstallScan(tuple(findings), scanned, blocked_dependencies(root) if dependencies and root.is_dir() else ())


def _alias_target(spec: object) -> str | None:
    """The package an `npm:` alias installs (`npm:plain-crypto-js@4` -> `plain-crypto-js`)."""
    if not isinstance(spec, str) or not spec.strip().startswith("npm:"):
        return None
    target = spec.strip()[4:].strip()
    at = target.find("@", 1 if target.startswith("@") else 0)
    return (target[:at] if at > 0 else target) or None


def _selector_name(selector: str) -> str | None:
    selector = selector.strip()
    if not selector or selector == ".":
        return None
    at = selector.find("@", 1 if selector.startswith("@") else 0)
    return selector[:at] if at > 0 else selector


def _manifest_reasons(manifest: dict[str, Any], where: str) -> list[str]:
    blocked = rules().blocked_packages
    reasons: list[str] = []
    if isinstance(manifest.get("name"), str) and manifest["name"] in blocked:
        reasons.append(f'"{manifest["name"]}" as package name in {where}')
    for field in _DEPENDENCY_FIELDS:
        deps = manifest.get(field)
        if not isinstance(deps, dict):
            continue
        for name in sorted(deps):
            target = _alias_target(deps[name])
            if name in blocked:
                reasons.append(f'"{name}" in {field} of {where}')
            elif target is not None and target in blocked:
                reasons.append(f'"{target}" via alias "{name}" in {field} of {where}')

    def overrides(value: object, path: list[str]) -> None:
        if isinstance(value, str):
            target = _alias_target(value)
            if target is not None and target in blocked:
                reasons.append(f'"{target}" via alias "{" > ".join(path)}" in overrides of {where}')
            return
        if isinstance(value, dict):
            for key in sorted(value):
                if _selector_name(key) in blocked:
                    reasons.append(f'"{_selector_name(key)}" in overrides of {where}')
                overrides(value[key], [*path, key])

    overrides(manifest.get("overrides"), [])
    return reasons


def _in_node_modules(parts: list[str]) -> str | None:
    """A blocked package's folder or file under `node_modules` (`node_modules/plain-crypto-js(.js)`)."""
    blocked = {name.lower() for name in rules().blocked_packages}
    for i, part in enumerate(parts[:-1]):
        if part.lower() != "node_modules":
            continue
        name = parts[i + 1]
        if name.startswith("@") and i + 2 < len(parts):
            name = f"{name}/{parts[i + 2]}"
        stem = re.sub(r"\.(js|json|node)$", "", name, flags=re.IGNORECASE)
        if name.lower() in blocked or stem.lower() in blocked:
            return name
    return None


def blocked_dependencies(root: Path) -> tuple[str, ...]:
    """Why the gateway's dependency denylist refuses the package at `root` (empty: it does not): every
    package.json in it, and what lies under its `node_modules` folders (`scanManifestDependencyDenylist`)."""
    reasons: list[str] = []
    queue: list[tuple[str, int]] = [(os.fspath(root), 0)]
    visited: set[str] = set()
    manifests = 0
    while queue:
        here, depth = queue.pop(0)
        if depth > MAX_DEPTH:
            raise VoraError("refused", f"the dependency scan went deeper than {MAX_DEPTH} folders at {here}",
                            "a plugin package is not that deep; nothing was installed")
        real = os.path.realpath(here)
        if real in visited:
            continue
        visited.add(real)
        if len(visited) > MAX_DIRECTORIES:
            raise VoraError("refused", f"the dependency scan passed {MAX_DIRECTORIES:,} folders under {root}",
                            "nothing was installed")
        try:
            with os.scandir(here) as listing:
                children = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            raise VoraError("io_error", f"the dependency scan cannot read {here}: {exc.strerror}") from exc
        for child in children:
            relative = os.path.relpath(child.path, root)
            hit = _in_node_modules(relative.replace(os.sep, "/").split("/"))
            if hit is not None:
                reasons.append(f'"{hit}" at {relative}')
            if child.is_dir(follow_symlinks=False):
                queue.append((child.path, depth + 1))
            elif child.name == "package.json" and child.is_file(follow_symlinks=False):
                manifests += 1
                if manifests > MAX_MANIFESTS:
                    raise VoraError("refused", f"the dependency scan passed {MAX_MANIFESTS:,} package.json files "
                                    f"under {root}", "nothing was installed")
                try:
                    manifest = nesting.loads(Path(child.path).read_text(encoding="utf-8"))
                except (OSError, ValueError, UnicodeDecodeError):
                    continue
                if isinstance(manifest, dict):
                    reasons.extend(_manifest_reasons(manifest, relative))
    return tuple(dict.fromkeys(reasons))
