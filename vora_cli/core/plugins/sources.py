"""What the SOURCE of `vora plugins install` names: a folder, an archive, a script file or an npm spec."""

from __future__ import annotations

import os
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import expand_path, resolve_home
from vora_cli.core.plugins.manifest import SCRIPT_SUFFIXES
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.plugins.npm import NpmSpec

SOURCE_DIR = "directory"
SOURCE_ARCHIVE = "archive"
SOURCE_FILE = "file"
SOURCE_NPM = "npm"


@dataclass(frozen=True)
class ResolvedSource:
    """What the SOURCE argument names."""

    type: str  # directory, archive, file, npm
    spec: str  # as given
    path: Path | None  # local path (directory, archive, file)
    npm: NpmSpec | None = None


def resolve_source(source: str, cwd: Path | None = None, home: Path | None = None) -> ResolvedSource:
    """Classify SOURCE: `file:` spec, existing path (folder, archive, script), or npm spec.

    A path wins only when it exists (`@scope/name` is npm unless such a path is there). What is
    written as a path (`file:`, `./`, `../`, `/`, `~`) or names an archive is never sent to npm:
    a missing one is `not_found`.
    """
    raw = source
    if not source.strip():
        raise VoraError("usage", "SOURCE is empty", "give a folder, an archive, a script file or an npm spec "
                        "(`.` for the current folder)")
    if source.startswith("file://"):
        source = source[len("file://"):]
        if not source.startswith("/"):
            raise VoraError("usage", f"{raw}: a file:// URL needs an absolute path (file:///abs/path)")
    elif source.startswith("file:"):
        source = source[len("file:"):]
    base = cwd or Path.cwd()
    path = expand_path(source, home or resolve_home(), base) if source else base
    if path.is_dir():
        return ResolvedSource(SOURCE_DIR, raw, path.absolute())
    from vora_cli.core.plugins import archive, npm

    if path.is_file():
        if archive.archive_format(path):
            return ResolvedSource(SOURCE_ARCHIVE, raw, path.absolute())
        if path.suffix in SCRIPT_SUFFIXES:
            return ResolvedSource(SOURCE_FILE, raw, path.absolute())
        raise VoraError("invalid", f"{path}: not a plugin source vora knows",
                        "give a folder, an archive (.zip, .tgz, .tar.gz, .tar) or a .js/.mjs/.cjs/.ts file")
    if os.path.lexists(path):
        raise VoraError("invalid", f"{path}: not a regular file or folder (a FIFO, socket, device or dangling link)",
                        "give a folder, an archive (.zip, .tgz, .tar.gz, .tar) or a .js/.mjs/.cjs/.ts file")
    written_as_path = raw.startswith("file:") or source.startswith((".", "/", "~")) or "\\" in source
    if written_as_path or archive.archive_format(path) or not npm.looks_like_npm_spec(source):
        if not written_as_path and "/" not in source and "\\" not in source and not archive.archive_format(path):
            npm.parse_npm_spec(source)  # not a path and not a valid spec: say what is accepted
        raise VoraError("not_found", f"plugin source not found: {path}",
                        "check the path; an npm spec is name, name@1.2.3, name@tag or @scope/name")
    return ResolvedSource(SOURCE_NPM, raw, None, npm.parse_npm_spec(source))
