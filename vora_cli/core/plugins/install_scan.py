"""The scan the gateway's installer runs on a plugin package, run by vora before it installs one.

The dependency denylist, then `code_safety.py`; `install_rules` decides (docs/plugins.md,
"The install-time code scan").
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.code_safety import CodeFinding, CodeSafety, recorded, scan_plugin_code
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The gateway's walk of a package's manifests for the denylist (its limits, `OPENCLAW_INSTALL_SCAN_MAX_*`).
MAX_DEPTH, MAX_DIRECTORIES, MAX_MANIFESTS = 64, 10_000, 10_000
_DEPENDENCY_FIELDS = ("dependencies", "optionalDependencies", "peerDependencies")


@dataclass(frozen=True)
class InstallScan:
    """What the scan found in a package, and whether the gateway's installer would block it."""
    code: CodeSafety
    blocked_dependencies: tuple[str, ...] = ()  # why the denylist refuses it (never overridable)

    @property
    def findings(self) -> tuple[CodeFinding, ...]:
        return self.code.findings

    @property
    def critical(self) -> tuple[CodeFinding, ...]:
        return self.code.critical

    @property
    def warnings(self) -> tuple[CodeFinding, ...]:
        return self.code.warnings

    def to_dict(self) -> dict[str, Any]:
        return {"findings": [f.to_dict() for f in self.findings], "scannedFiles": self.code.scanned_files,
                "critical": len(self.critical), "warn": len(self.warnings),
                "blockedDependencies": list(self.blocked_dependencies)}


def scan_package(root: Path, entries: Sequence[str] = (), *, dependencies: bool = True) -> InstallScan:
    """Scan the package at `root` (a folder, or a single-file plugin) as the gateway's installer does;
    `entries`: its package.json's extension entries, always read; `dependencies`: walk it for the
    denylist too (a link's development folder, with its whole `node_modules`, is not walked)."""
    code = scan_plugin_code(root, entries)
    return InstallScan(code, blocked_dependencies(root) if dependencies and root.is_dir() else ())


def blocked_packages() -> frozenset[str]:
    """The names the gateway's installer never installs (`blockedInstallDependencyPackageNames`)."""
    return frozenset(recorded()["blockedPackages"])


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
    blocked = blocked_packages()
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
    blocked = {name.lower() for name in blocked_packages()}
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


def too_deep(here: str) -> VoraError:
    """A plugin folder deeper than the gateway's scan walks: refused, by the scan and by the copy before it."""
    return VoraError("refused", f"the plugin folder goes deeper than {MAX_DEPTH} folders at {here}",
                     "a plugin package is not that deep; nothing was installed")


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
            raise too_deep(here)
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
                    raw = read_bytes(child.path)
                    manifest = nesting.loads(raw.decode("utf-8")) if raw is not None else None
                except (VoraError, ValueError):
                    continue
                if isinstance(manifest, dict):
                    reasons.extend(_manifest_reasons(manifest, relative))
    return tuple(dict.fromkeys(reasons))
