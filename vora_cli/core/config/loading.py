"""Reading vora.json: JSON5 text, `$include`s and `${VAR}` placeholders (which file owns a path: owners.py).

Spec: config.md, "The file" and "`${VAR}` and `$include`".
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from functools import cached_property
from pathlib import Path

from vora_cli.core.config.includes import IncludeResolver
from vora_cli.core.errors import ParseError, VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import Segment
from vora_cli.core.json5.values import require_object
from vora_cli.core.paths import VoraPaths, resolve_home
from vora_cli.core.reading import read_bytes
from vora_cli.core.records import dataclass, field
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.includes import Included
    from vora_cli.core.config.migrations import Migrated

MAX_CONFIG_BYTES = 2 * 1024 * 1024

_VAR = r"\$(\$?)\{([A-Z_][A-Z0-9_]*)\}"


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
    return parse_config_text(decode_config_bytes(raw, path, included=included), path, included=included)


def read_config_file(path: Path, included: bool = False) -> ConfigFile:
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
    included: Mapping[Path, Included] = field(default_factory=dict, repr=False)

    @property
    def exists(self) -> bool:
        return self.main.exists

    @cached_property
    def _substituted(self) -> tuple[Any, list[str]]:
        """`${VAR}`s replaced, and the names not set, in one walk shared by `effective` and
        `missing_env_vars`. Text with no `${` and no backslash (an escape could spell one) returns
        the tree itself, not a copy: trees are never changed in place (core/json5/values.py)."""
        if all(f.raw is None or ((b"$" not in f.raw or b"${" not in f.raw) and b"\\" not in f.raw)
               for f in self.files):
            return self.value, []
        return substitute_env(self.value, self.runtime_env)

    @cached_property
    def runtime_env(self) -> Mapping[str, str]:
        """The environment `${VAR}` is resolved from: the process's, with the config's own
        `env.vars` applied as the gateway applies them (core/config/config_env.py)."""
        if not isinstance(self.value, dict) or "env" not in self.value:
            return self.env
        from vora_cli.core.config.config_env import runtime_env

        return runtime_env(self.value, self.env)

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

    @cached_property
    def migrated(self) -> Migrated:
        """`effective` after the gateway's migrations of legacy keys (core/config/migrations): what
        it validates and runs on. Made once per load, for every check that asks."""
        from vora_cli.core.config.migrations import migrate_legacy

        return migrate_legacy(self.effective)

    def migrated_as_written(self) -> Migrated:
        """`value` (placeholders as written) after the same migrations: what vora's own table of
        keys judges (`migrated` itself when nothing was substituted)."""
        return self.migrated if self.effective is self.value else self._migrated_value

    @cached_property
    def _migrated_value(self) -> Migrated:
        from vora_cli.core.config.migrations import migrate_legacy

        return migrate_legacy(self.value)

    def missing_env_vars(self) -> list[str]:
        return list(self._substituted[1])

    def file_for(self, path: Path) -> ConfigFile | None:
        return self._files_by_path.get(path)

    @cached_property
    def _files_by_path(self) -> dict[Path, ConfigFile]:
        return {f.path: f for f in self.files}

    @cached_property
    def owner_resolver(self) -> IncludeResolver:
        """A resolver holding this load's files and resolved includes, for the walks that find
        which file owns a path (`owners.locate_owner`): one for all the paths a command asks about."""
        resolver = IncludeResolver(root_dir=self.path.parent, home=resolve_home(self.env), read=read_config_file,
                                   file_limit=MAX_CONFIG_BYTES, lenient=self.lenient,
                                    resolved=dict(self.included))
        for f in self.files:
            resolver.files[f.path] = f
            resolver.order.append(f.path)
        return resolver


def load_config(paths: VoraPaths | Path, env: Mapping[str, str] | None = None, *,
                planned: Mapping[Path, ConfigFile] | None = None, lenient: bool = False) -> LoadedConfig:
    """Read the config file and everything it includes. Raises on any parse error.

    `planned`: files to take instead of reading them (what a planned write would leave).
    `lenient`: a broken `$include` is left out and named in `.broken` instead of raising, so the
    editing commands can repair it; the main file must still parse."""
    config_path = paths.config_path if isinstance(paths, VoraPaths) else paths
    env = os.environ if env is None else env
    home = paths.home if isinstance(paths, VoraPaths) else resolve_home(env)
    resolver = IncludeResolver(root_dir=config_path.parent, home=home, read=read_config_file, file_limit=MAX_CONFIG_BYTES,
                               planned=planned or {}, lenient=lenient)
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
    """Replace `${NAME}` by the environment variable (`LoadedConfig.runtime_env`: the config's own
    variables applied); `$${NAME}` is a literal `${NAME}`. One unset or empty stays as written."""
    missing: list[str] = []

    def walk(node: Any) -> Any:
        if isinstance(node, str) and "${" in node:
            def repl(m: re.Match[str]) -> str:
                if m.group(1):
                    return "${" + m.group(2) + "}"
                name = m.group(2)
                if env.get(name):  # an empty variable is not set, to the gateway
                    return env[name]
                if name not in missing:
                    missing.append(name)
                return m.group(0)

            return re.sub(_VAR, repl, node)
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
