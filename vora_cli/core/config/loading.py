"""Reading vora.json: JSON5 text, `$include`s and `${VAR}` placeholders (which file owns a path: owners.py).

Spec: config.md, "The file" and "`${VAR}` and `$include`".
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path

from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import Segment
from vora_cli.core.json5.values import require_object
from vora_cli.core.lazy_re import lazy
from vora_cli.core.paths import VoraPaths, expand_path, resolve_home
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_CONFIG_BYTES = 2 * 1024 * 1024
# A config file this big has its parse kept in vora's parse cache (core/config/parse_cache.py);
# a smaller one parses in under 5 ms, less than the cache's files cost.
PARSE_CACHE_MIN_BYTES = 64 * 1024
MAX_INCLUDE_DEPTH = 10
INCLUDE_KEY = "$include"

_VAR_RE = lazy(r"\$(\$?)\{([A-Z_][A-Z0-9_]*)\}")


# -- reading ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConfigFile:
    """One parsed file: the main config or an included one."""

    path: Path
    raw: bytes | None  # None: the file does not exist (an empty config)
    doc: Json5Document | None

    @property
    def exists(self) -> bool:
        return self.raw is not None

    @property
    def value(self) -> Any:
        return {} if self.doc is None else self.doc.value


def _restore_hint(path: Path, included: bool) -> str:
    backup = path.with_name(path.name + ".bak")
    if not included:  # `vora config edit` opens the main config, not an include
        hint = "fix it with 'vora config edit'"
    else:
        hint = f"fix it in your editor ({path} is included by the config)"
    if backup.exists():
        hint += f", or restore the last good copy: {command_line('cp', backup, path)}"
    return hint


def check_config_size(raw: bytes, path: Path) -> None:
    if len(raw) > MAX_CONFIG_BYTES:
        raise VoraError(
            "invalid",
            f"{path} is {len(raw):,} bytes: over the {MAX_CONFIG_BYTES:,}-byte (2 MiB) limit for a config file",
            "split it with $include, or remove what the gateway does not need",
        )


def byte_line_col(raw: bytes, pos: int) -> tuple[int, int]:
    """1-based line and column (in bytes) of offset `pos` in `raw`: where a bad UTF-8 byte sits."""
    before = raw[:pos]
    return before.count(b"\n") + 1, len(before) - (before.rfind(b"\n") + 1) + 1


def decode_config_bytes(raw: bytes, path: Path, *, included: bool = False) -> str:
    """UTF-8 text of a config file, or a parse error naming the line and column of a bad byte."""
    check_config_size(raw, path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = byte_line_col(raw, exc.start)
        raise ParseError(str(path), line, col, f"invalid UTF-8 (byte 0x{raw[exc.start]:02x})",
                         _restore_hint(path, included)) from None


def parse_config_text(text: str, path: Path, *, included: bool = False) -> Json5Document:
    try:
        doc = Json5Document.parse(text, filename=str(path))
    except ParseError as error:
        raise error.with_hint(_restore_hint(path, included)) from None
    require_object(doc.value, str(path))
    return doc


def parse_config_bytes(raw: bytes, path: Path, *, included: bool = False) -> Json5Document:
    text = decode_config_bytes(raw, path, included=included)
    if len(raw) < PARSE_CACHE_MIN_BYTES:
        return parse_config_text(text, path, included=included)
    # A big file: its parse may be in vora's parse cache (core/config/parse_cache.py).
    from vora_cli.core.config import parse_cache

    doc = parse_cache.look_up(raw, text, str(path))
    if doc is None:
        doc = parse_config_text(text, path, included=included)
        parse_cache.remember(raw, doc)
    require_object(doc.value, str(path))
    return doc


def read_config_file(path: Path, *, included: bool = False) -> ConfigFile:
    """Read and parse one config file; a missing file is an empty config."""
    raw = read_bytes(path)
    if raw is None:
        return ConfigFile(path, None, None)
    return ConfigFile(path, raw, parse_config_bytes(raw, path, included=included))


def raw_config_text(path: Path) -> str | None:
    """The config file's text as far as it can be read (the shared reader refuses FIFOs)."""
    try:
        data = read_bytes(path)
    except VoraError:
        return None
    return None if data is None else data.decode("utf-8", "replace")


def deep_merge(base: Any, over: Any) -> Any:
    """`$include` merging: objects merge, arrays concatenate, later scalars win."""
    return deep_merge_all([base, over])


def deep_merge_all(values: Sequence[Any]) -> Any:
    """`deep_merge` folded over `values` left to right, in time linear in their total size (folding
    pair by pair copies a growing array once per value: quadratic in the includes of one site).

    A fold ends with the last value when that is no container; else with the merge of the run of
    containers of its kind that ends the list (a value of another kind before them is replaced by
    the first of them): arrays concatenate, objects merge key by key in first-seen order."""
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


# What the `$include`s of one load may bring in (issue 35, point 2): included values, counted once
# each time their file is included (with the files it includes), and included bytes likewise. A
# file at the size limit holds about a million values; four such files are what the bytes allow.
# Past either the load stops, naming the include chain that brings in the most, before anything
# of that size is built: eleven small files each including the next four times would otherwise
# make every command merge a million copies (and wait minutes, memory growing).
MAX_INCLUDED_VALUES = 1_000_000
MAX_INCLUDED_BYTES = 4 * MAX_CONFIG_BYTES


@dataclass(frozen=True)
class _Included:
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
class _IncludeResolver:
    """Reads each file of a config once and resolves its `$include`s once (every later include of
    it takes the same value), within the include budget."""
    root_dir: Path
    home: Path  # `~` in an include path (core/paths.expand_path)
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
    resolved: dict[Path, _Included] = field(default_factory=dict)

    def load(self, path: Path) -> ConfigFile:
        if path not in self.files:
            included = bool(self.order)  # the first is the main file
            if path in self.planned:
                self.files[path] = self.planned[path]
            else:
                self.files[path] = read_config_file(path, included=included)
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
            target = expand_path(name, self.home, owner.parent)
            try:
                real_target = os.path.realpath(target)
            except (UnicodeEncodeError, ValueError):  # a lone surrogate or a NUL: no file has that name
                raise VoraError("not_found", f"{owner}: $include {name!r}: no file can have that name",
                                "fix the path, or remove the $include (vora config unset '$include')") from None
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

    def resolve_file(self, target: Path, chain: tuple[Path, ...]) -> _Included:
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
        done = self.resolved[target] = _Included(value, tally.own + tally.included, len(file.raw or b"") + tally.bytes,
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

    def _count(self, tally: _Tally, included: _Included, chain: tuple[Path, ...], times: int) -> None:
        """Add what one more include of a file (`times` at this site so far) brings in to `tally`;
        past the budget, stop with the chain that brings in the most."""
        tally.included += included.values
        tally.bytes += included.size
        heaviest = ((included.heaviest[0][0], times), *included.heaviest[1:])
        if included.values * times > tally.weight:
            tally.weight, tally.heaviest = included.values * times, heaviest
        if tally.included <= MAX_INCLUDED_VALUES and tally.bytes <= MAX_INCLUDED_BYTES:
            return
        over = (f"more than {MAX_INCLUDED_VALUES:,} values" if tally.included > MAX_INCLUDED_VALUES
                else f"more than {MAX_INCLUDED_BYTES:,} bytes")
        links = [self._names(chain)]
        links += [self._names([path]) + (f" (x{n})" if n > 1 else "") for path, n in heaviest]
        raise VoraError(
            "invalid",
            f"{chain[0]}: $include brings in {over}, through {' -> '.join(links)}",
            "include each file once where it is needed (a file that includes another several times, in a "
            "chain, multiplies it): fix it with 'vora config edit'",
        )


@dataclass(frozen=True)
class LoadedConfig:
    """The config as the gateway sees it."""

    path: Path
    main: ConfigFile
    value: dict[str, Any]  # merged, `$include` resolved, placeholders as written
    files: tuple[ConfigFile, ...]  # main first, then included files in load order
    env: Mapping[str, str]
    lenient: bool = False  # read by an editing command: broken includes left out (`broken`)
    broken: tuple[str, ...] = ()
    # Each included file with its includes resolved, as this load resolved it (`owner_resolver`
    # takes them again instead of resolving every file once more for each path it looks up).
    included: Mapping[Path, _Included] = field(default_factory=dict, repr=False)

    @property
    def exists(self) -> bool:
        return self.main.exists

    @cached_property
    def _substituted(self) -> tuple[Any, list[str]]:
        """`${VAR}`s replaced, and the names not set: one walk of the tree (a copy of a 2 MB
        config costs more than validating it), shared by `effective` and `missing_env_vars`.

        Text with no `${` and no backslash (an escape could spell one) has no placeholder in any
        value: the tree is the answer as it is, not a copy (trees are never changed in place:
        edits build new ones, core/json5/values.py)."""
        if all(f.raw is None or (b"${" not in f.raw and b"\\" not in f.raw) for f in self.files):
            return self.value, []
        return substitute_env(self.value, self.env)

    @cached_property
    def effective(self) -> dict[str, Any]:
        """The config the gateway runs with (computed once: the same object on every read)."""
        value, _ = self._substituted
        result = value if isinstance(value, dict) else {}
        token = self.env.get("VORA_GATEWAY_TOKEN")
        if token and get_path(result, ("gateway", "auth", "token")) is _MISSING:
            gateway = dict(result.get("gateway") or {})
            auth = dict(gateway.get("auth") or {})
            auth["token"] = token
            gateway["auth"] = auth
            result = {**result, "gateway": gateway}
        return result

    def missing_env_vars(self) -> list[str]:
        return list(self._substituted[1])

    def file_for(self, path: Path) -> ConfigFile | None:
        return self._files_by_path.get(path)

    @cached_property
    def _files_by_path(self) -> dict[Path, ConfigFile]:
        return {f.path: f for f in self.files}

    @cached_property
    def owner_resolver(self) -> _IncludeResolver:
        """A resolver holding this load's files and resolved includes, for the walks that find
        which file owns a path (`owners.locate_owner`): one for all the paths a command asks about."""
        resolver = _IncludeResolver(root_dir=self.path.parent, home=resolve_home(self.env), lenient=self.lenient,
                                    resolved=dict(self.included))
        for f in self.files:
            resolver.files[f.path] = f
            resolver.order.append(f.path)
        return resolver


def load_config(paths: VoraPaths | Path, env: Mapping[str, str] | None = None, *,
                planned: Mapping[Path, ConfigFile] | None = None, lenient: bool = False) -> LoadedConfig:
    """Read the config file and everything it includes. Raises on any parse error.

    `planned`: files to take instead of reading them (what a planned write would leave).
    `lenient`: a broken `$include` is left out and named in `.broken` instead of raising (for the
    editing commands: the file must stay repairable; the main file must still parse).
    """
    config_path = paths.config_path if isinstance(paths, VoraPaths) else paths
    env = os.environ if env is None else env
    home = paths.home if isinstance(paths, VoraPaths) else resolve_home(env)
    resolver = _IncludeResolver(root_dir=config_path.parent, home=home, planned=planned or {}, lenient=lenient)
    main = resolver.load(config_path)
    if main.raw is not None and b"include" not in main.raw:
        merged = main.value  # no $include anywhere: nothing to merge (the common, fast case)
    else:
        merged = resolver.resolve(main.value, config_path, (config_path,))
    if not isinstance(merged, dict):
        raise VoraError("invalid", f"{config_path}: the merged config is not an object", "check the $include files")
    files = tuple(resolver.files[p] for p in resolver.order)
    return LoadedConfig(config_path, main, merged, files, env, lenient, tuple(resolver.broken), resolver.resolved)


def substitute_env(value: Any, env: Mapping[str, str]) -> tuple[Any, list[str]]:
    """Replace `${NAME}` by the environment variable; `$${NAME}` is a literal `${NAME}`."""
    missing: list[str] = []

    def walk(node: Any) -> Any:
        if isinstance(node, str) and "${" in node:
            def repl(m: re.Match[str]) -> str:
                if m.group(1):
                    return "${" + m.group(2) + "}"
                name = m.group(2)
                if name in env:
                    return env[name]
                if name not in missing:
                    missing.append(name)
                return m.group(0)

            return _VAR_RE.sub(repl, node)
        if isinstance(node, dict):
            return {k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    return walk(value), missing


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()
MISSING: Any = _MISSING  # what `get_path` returns where nothing is set


def get_path(tree: Any, path: Sequence[Segment]) -> Any:
    """The value at `path`, or `_MISSING`."""
    node = tree
    for seg in path:
        if isinstance(node, dict):
            if not isinstance(seg, str) or seg not in node:
                return _MISSING
            node = node[seg]
        elif isinstance(node, list):
            if not isinstance(seg, int) or isinstance(seg, bool) or not 0 <= seg < len(node):
                return _MISSING
            node = node[seg]
        else:
            return _MISSING
    return node


def is_missing(value: Any) -> bool:
    return value is _MISSING
