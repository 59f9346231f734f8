"""Which file of the config owns a path (spec config.md: writes go into `$include`d files), and
where its key is written there."""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.config.includes import INCLUDE_KEY, IncludeResolver
from vora_cli.core.config.loading import LoadedConfig, get_path, is_missing
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.path_syntax import ConfigPath, format_config_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def locate_owner(loaded: LoadedConfig, path: ConfigPath) -> tuple[Path, ConfigPath]:
    """The file that owns `path`, and the path inside it (spec: writes into `$include`s): the one
    file it is found in; for a new key, its nearest existing parent's; a value merged from several
    files is refused, naming them."""
    return _owner_in(loaded.owner_resolver, loaded.path, loaded.main.value, (), path)


def key_position(loaded: LoadedConfig, path: ConfigPath) -> tuple[Path, int | None, int | None]:
    """Where `path` is written: the file that owns it and the 1-based line and column of its
    key there (`None, None` when the file does not hold it, or the owner is ambiguous)."""
    try:
        owner, inner = locate_owner(loaded, path)
    except VoraError:
        return loaded.path, None, None
    file = loaded.file_for(owner)
    position = file.doc.get_node_position(inner) if file is not None and file.doc is not None else None
    return (owner, position[0], position[1]) if position else (owner, None, None)


def _owner_in(
    resolver: IncludeResolver, file: Path, node: Any, prefix: ConfigPath, rest: ConfigPath
) -> tuple[Path, ConfigPath]:
    if not rest:
        return file, prefix
    seg, tail = rest[0], rest[1:]
    if isinstance(node, dict) and INCLUDE_KEY in node:
        candidates: list[tuple[Path | None, Any]] = []
        if isinstance(seg, str) and seg in node and seg != INCLUDE_KEY:
            candidates.append((None, node[seg]))
        for target in resolver.usable_targets(node, file):
            try:
                included = resolver.resolve_file(target, (file,)).value
            except VoraError:
                if not resolver.lenient:
                    raise
                continue
            if isinstance(included, dict) and isinstance(seg, str) and seg in included:
                candidates.append((target, included[seg]))
        if not candidates:
            return file, (*prefix, *rest)
        if len(candidates) > 1:
            holding = [c for c in candidates if not is_missing(get_path(c[1], tail))] if tail else []
            if len(holding) == 1:
                candidates = holding
            elif not holding and tail and candidates[0][0] is None:
                candidates = candidates[:1]
            else:
                names = [str(c[0] or file) for c in candidates]
                raise VoraError(
                    "refused",
                    f"{format_config_path(prefix + rest)} is merged from several files: {', '.join(names)}",
                    "edit the file that should own it directly (vora config edit, or your editor)",
                )
        owner, _ = candidates[0]
        if owner is None:
            return _owner_in(resolver, file, node[seg], (*prefix, seg), tail)
        # An include replaces the object holding it: the included file's root stands at `prefix`.
        return _owner_in(resolver, owner, resolver.load(owner).value, (), rest)
    if isinstance(node, dict) and isinstance(seg, str) and seg in node:
        return _owner_in(resolver, file, node[seg], (*prefix, seg), tail)
    if isinstance(node, list) and isinstance(seg, int) and 0 <= seg < len(node):
        return _owner_in(resolver, file, node[seg], (*prefix, seg), tail)
    return file, (*prefix, *rest)


