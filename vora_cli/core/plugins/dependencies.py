"""Do a plugin's declared `dependencies` resolve, the way Node resolves a bare import? No code runs
(docs/plugins.md, "What is accepted").
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.manifest import PluginSource
from vora_cli.core.reading import read_bytes


def _package_resolves(folder: Path) -> bool:
    manifest = folder / "package.json"
    if not manifest.is_file():
        return False
    try:
        raw = read_bytes(manifest)
        data = nesting.loads(raw.decode("utf-8")) if raw is not None else None
    except (VoraError, ValueError):
        return False
    if not isinstance(data, dict):
        return False
    if data.get("exports") is not None:
        return True  # the exports map names the files; that it is there is enough (no code runs)
    main = data.get("main")
    candidates = [main, f"{main}.js", f"{main}/index.js"] if isinstance(main, str) and main else []
    candidates.append("index.js")
    return any((folder / candidate).is_file() for candidate in candidates)


def resolves_from(start: Path, name: str) -> bool:
    """Whether a bare `import "name"` in a file of folder `start` finds a package (Node's lookup)."""
    for folder in (start, *start.parents):
        if folder.name == "node_modules":
            continue  # Node skips `node_modules/node_modules`
        if _package_resolves(folder / "node_modules" / name):
            return True
    return False


def missing_dependencies(source: PluginSource) -> tuple[str, ...]:
    """The declared `dependencies` that do not resolve from the plugin's entry files (the root when
    it has none), in the order package.json lists them."""
    if source.package is None or not source.package.dependencies:
        return ()
    starts = {entry.path.parent for entry in source.entries} or {source.root}
    return tuple(name for name in source.package.dependencies
                 if not all(resolves_from(start, name) for start in starts))
