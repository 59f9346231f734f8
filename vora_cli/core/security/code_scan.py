"""vora's own two looks at plugin code, beside the gateway's scan (`core/plugins/code_safety.py`): the
state dir's secret files read by name, and hosts the plugin does not name. Linear and bounded
(docs/security.md, "Plugins").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from vora_cli.core.records import dataclass

MAX_FILE_BYTES = 4 * 1024 * 1024  # the gateway skips files over 1 MiB whole; vora scans their start
MAX_PLUGIN_BYTES = 32 * 1024 * 1024
LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0")

# JavaScript names are case-sensitive: no IGNORECASE (it makes each alternative a slower class).
_NETWORK = re.compile(r"\b(?:fetch\s*+\(|https?\.(?:request|get)\s*+\(|axios\b|net\.connect\s*+\(|undici\b|got\s*+\()"
                      r"|new\s++WebSocket\s*+\(|XMLHttpRequest")
_READ = re.compile(r"\breadFile(?:Sync)?\s*+\(|\bcreateReadStream\s*+\(|\bopenSync\s*+\(")
_SECRET_FILES = re.compile(r"paired\.json|pending\.json|device-auth\.json|device\.json|auth-profiles\.json|"
                           r"openclaw\.json|vora\.json|credentials/|\.openclaw\b|\.vora\b")
# A URL in a string literal: the scheme is the literal start, the host one class run.
_URL = re.compile(r"[\"'`](?:https?|wss?)://([A-Za-z0-9.\-]++|\[[0-9A-Fa-f:.]++\])")
_ANY_URL = re.compile(r"(?:https?|wss?)://([A-Za-z0-9.\-]++)")


@dataclass(frozen=True)
class CodeHit:
    """One risky pattern found in a plugin's code (`file`: its name in the plugin folder, `/`-separated)."""
    rule: str
    file: str
    line: int
    col: int
    message: str


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def declared_hosts(root: Path, problems: list[str] | None = None) -> set[str]:
    """Hosts the plugin names itself: any URL in its manifest or package.json (why one of them
    could not be read is added to `problems`)."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    hosts: set[str] = set()
    for name in ("vora.plugin.json", "openclaw.plugin.json", "package.json"):
        try:
            data = read_bytes(root / name, 1024 * 1024)
        except VoraError as error:
            if problems is not None and not (root / name).is_dir():
                problems.append(error.message)
            continue
        if data is None:
            continue
        hosts.update(m.group(1).lower() for m in _ANY_URL.finditer(data.decode("utf-8", "replace")))
    return hosts


def _host_declared(host: str, declared: set[str]) -> bool:
    host = host.lower().rstrip(".")
    if host in LOOPBACK:
        return True
    return any(host == d or host.endswith("." + d) or d.endswith("." + host) for d in declared)


def scan_source(text: str, file: str, declared: set[str]) -> list[CodeHit]:
    hits: list[CodeHit] = []

    def hit(rule: str, match: re.Match[str] | None, message: str) -> None:
        if match is not None:
            line, col = _position(text, match.start())
            hits.append(CodeHit(rule, file, line, col, message))

    if _NETWORK.search(text) is not None:
        for match in _URL.finditer(text):
            if not _host_declared(match.group(1), declared):
                hit("undeclared-host", match, f"talks to {match.group(1)}, a host its manifest and package.json "
                    "do not name")
                break
    if _READ.search(text):
        hit("secret-files", _SECRET_FILES.search(text), "reads files by the names of the state dir's secrets "
            "(config, pairing store, identity, credentials)")
    return hits


@dataclass(frozen=True)
class PluginScan:
    """What the code scan found in one plugin."""
    hits: tuple[CodeHit, ...]
    files: int
    cut: bool  # a cap stopped the scan
    unreadable: tuple[str, ...] = ()  # why a file it needed could not be read


def scan_plugin(folder: Path, files: Sequence[tuple[Path, str]]) -> PluginScan:
    """vora's looks at `files` (from `code_safety.plugin_files`) of the plugin in `folder`."""
    from vora_cli.core.errors import VoraError
    from vora_cli.core.plugins.code_safety import rules
    from vora_cli.core.reading import read_bytes

    problems: list[str] = []
    declared = declared_hosts(folder, problems)
    hits: list[CodeHit] = []
    budget = MAX_PLUGIN_BYTES
    read = 0
    cut = False
    for path, name in files:
        if budget <= 0:
            cut = True
            break
        try:
            data = read_bytes(path, min(MAX_FILE_BYTES, budget) + 1)
        except VoraError as error:
            problems.append(error.message)
            continue
        if data is None:
            continue
        if len(data) > min(MAX_FILE_BYTES, budget):
            data, cut = data[:-1], True
        budget -= len(data)
        read += 1
        hits += scan_source(data.decode("utf-8", "replace"), name, declared)
    return PluginScan(tuple(hits), read, cut or len(files) >= rules().max_files, tuple(problems))
