"""`$include`: each included file read and resolved once per load, within a budget (spec
config.md, "`${VAR}` and `$include`"; docs/config.md). `loading.load_config` walks the main file
with an `IncludeResolver`; `owners.locate_owner` walks a path through the same one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.paths import expand_path, names_a_file
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.loading import ConfigFile

INCLUDE_KEY = "$include"
MAX_INCLUDE_DEPTH = 10


def deep_merge_all(values: Sequence[Any]) -> Any:
    """`$include` merging (objects merge, arrays concatenate, later scalars win) folded over `values`
    left to right, linear in their total size (a pairwise fold is quadratic).

    A fold ends with the last value when that is no container; else with the merge of the run of
    containers of its kind that ends the list (a value of another kind before them is replaced)."""
    last = values[-1]
    kind = dict if isinstance(last, dict) else list if isinstance(last, list) else None
    if kind is None:
        return last
    first = len(values) - 1
    while first > 0 and isinstance(values[first - 1], kind):
        first -= 1
    if first == len(values) - 1:
        return last
    run = values[first:]
    if kind is list:
        return [item for part in run for item in part]
    members: dict[Any, list[Any]] = {}
    for part in run:
        for key, value in part.items():
            found = members.get(key)
            if found is None:
                members[key] = [value]
            else:
                found.append(value)
    return {key: found[0] if len(found) == 1 else deep_merge_all(found) for key, found in members.items()}


# What the `$include`s of one load may bring in: included values and bytes, counted once each
# time their file is included (with the files it includes); the values limit is about what one
# file at the size limit holds. Past either the load stops, naming the include chain that brings
# in the most, before anything of that size is built: a few small files each including the next
# several times would otherwise multiply into a huge merge.
MAX_INCLUDED_VALUES = 1_000_000
FILES_AT_THE_LIMIT = 4  # the bytes budget: this many files at the config file limit


@dataclass(frozen=True)
class Included:
    """One file with its `$include`s resolved, as every include of it in this load uses it: its
    value, how many values and bytes it brings in with what it includes, the chain below it that
    brings in the most (each file with how many times the one before includes it), and its
    deepest chain of includes (itself first)."""
    value: Any
    values: int
    size: int
    heaviest: tuple[tuple[Path, int], ...]
    deepest: tuple[Path, ...]


class _Tally:
    """What the walk of one file has counted: its own values, what its includes bring in, the
    include that brings in the most (with its weight) and the deepest chain below it."""

    __slots__ = ("bytes", "deepest", "heaviest", "included", "own", "weight")

    def __init__(self) -> None:
        self.own = 0
        self.included = 0
        self.bytes = 0
        self.weight = -1
        self.heaviest: tuple[tuple[Path, int], ...] = ()
        self.deepest: tuple[Path, ...] = ()


@dataclass
class IncludeResolver:
    """Reads each file of a config once and resolves its `$include`s once (every later include of
    it takes the same value), within the include budget."""
    root_dir: Path
    home: Path  # `~` in an include path (core/paths.expand_path)
    read: Callable[[Path, bool], ConfigFile]  # one file, read and parsed (`loading.read_config_file`)
    file_limit: int  # the config file size limit (`loading.MAX_CONFIG_BYTES`)
    files: dict[Path, ConfigFile] = field(default_factory=dict)
    order: list[Path] = field(default_factory=list)
    # The files as a planned write would leave them, already parsed by the editor (the
    # read-back check loads the result before anything is written, the way a later read will).
    planned: Mapping[Path, ConfigFile] = field(default_factory=dict)
    # Editing commands read a config whose `$include` is broken (missing, outside the folder, a
    # cycle, unparseable, over the budget) without it, so that `config unset '$include'` can
    # still remove it; the read-back check refuses any result that still holds it.
    lenient: bool = False
    broken: list[str] = field(default_factory=list)
    resolved: dict[Path, Included] = field(default_factory=dict)

    def load(self, path: Path) -> ConfigFile:
        if path not in self.files:
            included = bool(self.order)  # the first is the main file
            if path in self.planned:
                self.files[path] = self.planned[path]
            else:
                self.files[path] = self.read(path, included)
            self.order.append(path)
        return self.files[path]

    def include_targets(self, node: Mapping[str, Any], owner: Path) -> list[Path]:
        spec = node[INCLUDE_KEY]
        names = spec if isinstance(spec, list) else [spec]
        targets: list[Path] = []
        real_root = os.path.realpath(self.root_dir)
        known: dict[str, Path] = {}  # a name listed again is the same file (`["./a", "./a"]`)
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise VoraError("invalid", f"{owner}: \"$include\" must be a path or an array of paths",
                                'for example: "$include": "./agents.json5"')
            if name in known:
                targets.append(known[name])
                continue
            if not names_a_file(name):  # a lone surrogate or a NUL
                raise VoraError("not_found", f"{owner}: $include {name!r}: no file can have that name",
                                "fix the path, or remove the $include (vora config unset '$include')")
            target = expand_path(name, self.home, owner.parent)
            real_target = os.path.realpath(target)
            if os.path.commonpath([real_root, real_target]) != real_root:
                raise VoraError(
                    "refused",
                    f"{owner}: $include {name!r} points outside the config folder {self.root_dir}",
                    "keep included files inside the folder that holds vora.json",
                )
            if target not in self.files and not target.exists() and target not in self.planned:
                raise VoraError("not_found", f"{owner}: $include {name!r}: {target} does not exist",
                                "create the file, or remove the $include (vora config unset '$include')")
            known[name] = target
            targets.append(target)
        return targets

    def usable_targets(self, node: Mapping[str, Any], owner: Path) -> list[Path]:
        try:
            return self.include_targets(node, owner)
        except VoraError as error:
            if not self.lenient:
                raise
            self.broken.append(error.message)
            return []

    def _names(self, chain: Sequence[Path]) -> str:
        """A chain of files as the operator finds them: each relative to the config folder."""
        return " -> ".join(os.path.relpath(p, self.root_dir) if str(p).startswith(str(self.root_dir)) else str(p)
                           for p in chain)

    def resolve_file(self, target: Path, chain: tuple[Path, ...]) -> Included:
        """`target` included at the end of `chain`, its own includes resolved (once per load)."""
        if target in chain:
            names = " -> ".join(str(p.name) for p in (*chain, target))
            raise VoraError("invalid", f"$include cycle: {names}", "remove one of the includes in that chain")
        done = self.resolved.get(target)
        if done is not None:
            # the deepest chain below it, from here: the depth is the chain's, not the file's
            if len(chain) + len(done.deepest) - 1 > MAX_INCLUDE_DEPTH:
                self._too_deep((*chain, *done.deepest[:-1]))
            return done
        if len(chain) > MAX_INCLUDE_DEPTH:
            self._too_deep(chain)
        file = self.load(target)
        tally = _Tally()
        value = self._walk(file.value, target, (*chain, target), tally)
        done = self.resolved[target] = Included(value, tally.own + tally.included, len(file.raw or b"") + tally.bytes,
                                                 ((target, 1), *tally.heaviest), (target, *tally.deepest))
        return done

    def _too_deep(self, chain: tuple[Path, ...]) -> None:
        raise VoraError("invalid", f"$include nested deeper than {MAX_INCLUDE_DEPTH}: {' -> '.join(p.name for p in chain)}",
                        "flatten the includes")

    def resolve(self, value: Any, owner: Path, chain: tuple[Path, ...]) -> Any:
        """`value` (of the file `owner`, at the end of `chain`) with its includes resolved; the main
        file's walk, within the include budget."""
        return self._walk(value, owner, chain, _Tally())

    def _walk(self, value: Any, owner: Path, chain: tuple[Path, ...], tally: _Tally) -> Any:
        tally.own += 1
        if isinstance(value, list):
            return [self._walk(v, owner, chain, tally) for v in value]
        if not isinstance(value, dict):
            return value
        siblings = {k: self._walk(v, owner, chain, tally) for k, v in value.items() if k != INCLUDE_KEY}
        if INCLUDE_KEY not in value:
            return siblings
        parts: list[Any] = []
        times: dict[Path, int] = {}  # how often this site includes each file
        for target in self.usable_targets(value, owner):
            try:
                included = self.resolve_file(target, chain)
                times[target] = times.get(target, 0) + 1
                self._count(tally, included, chain, times[target])
            except VoraError as error:
                if not self.lenient:
                    raise
                self.broken.append(error.message)
                continue
            if len(included.deepest) > len(tally.deepest):
                tally.deepest = included.deepest
            parts.append(included.value)
        if not siblings:
            return deep_merge_all(parts) if parts else None
        return deep_merge_all([*parts, siblings]) if parts else siblings

    def _count(self, tally: _Tally, included: Included, chain: tuple[Path, ...], times: int) -> None:
        """Add what one more include of a file (`times` at this site so far) brings in to `tally`;
        past the budget, stop with the chain that brings in the most."""
        tally.included += included.values
        tally.bytes += included.size
        heaviest = ((included.heaviest[0][0], times), *included.heaviest[1:])
        if included.values * times > tally.weight:
            tally.weight, tally.heaviest = included.values * times, heaviest
        max_bytes = FILES_AT_THE_LIMIT * self.file_limit
        if tally.included <= MAX_INCLUDED_VALUES and tally.bytes <= max_bytes:
            return
        over = (f"more than {MAX_INCLUDED_VALUES:,} values" if tally.included > MAX_INCLUDED_VALUES
                else f"more than {max_bytes:,} bytes")
        links = [self._names(chain)]
        links += [self._names([path]) + (f" (x{n})" if n > 1 else "") for path, n in heaviest]
        raise VoraError(
            "invalid",
            f"{chain[0]}: $include brings in {over}, through {' -> '.join(links)}",
            "include each file once where it is needed (a file that includes another several times, in a "
            "chain, multiplies it): fix it with 'vora config edit'",
        )
