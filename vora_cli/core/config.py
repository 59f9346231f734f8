"""vora.json: reading (JSON5, `$include`, `${VAR}`) and lossless, locked, backed-up writing.

Spec: config.md. Every config change of every command goes through `apply_config_edits`:
the owning file is parsed under its lock, the edits are applied by the lossless editor
(`json5doc`), the result is type-checked against the known keys, the old file goes into the
backup ring, the new text replaces the file atomically, and one audit line is appended.
"""

from __future__ import annotations

import datetime as _dt
import difflib
import itertools
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vora_cli.core.config_path import format_config_path
from vora_cli.core.config_schema import REDACTED, SECRET_KEY_RE, redact, validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5doc import Json5Document, require_object
from vora_cli.core.paths import VoraPaths, expand_path, resolve_home
from vora_cli.core.writer import append_line, read_bytes, replace_atomically, update_file

MAX_CONFIG_BYTES = 2 * 1024 * 1024
MAX_INCLUDE_DEPTH = 10
BACKUP_RING = 5  # vora.json.bak, .bak.1 … .bak.4
INCLUDE_KEY = "$include"
Segment = str | int
ConfigPath = tuple[Segment, ...]

_VAR_RE = re.compile(r"\$(\$?)\{([A-Z_][A-Z0-9_]*)\}")


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


# The main config files this process loaded: `vora config edit` opens those, not an include.
_MAIN_CONFIGS: set[Path] = set()


def _restore_hint(path: Path) -> str:
    backup = path.with_name(path.name + ".bak")
    if path in _MAIN_CONFIGS:
        hint = "fix it with 'vora config edit'"
    else:
        hint = f"fix it in your editor ({path} is included by the config)"
    if backup.exists():
        hint += f", or restore the last good copy: cp {backup} {path}"
    return hint


def decode_config_bytes(raw: bytes, path: Path) -> str:
    """UTF-8 text of a config file, or a parse error naming the line and column of a bad byte."""
    if len(raw) > MAX_CONFIG_BYTES:
        raise VoraError(
            "invalid",
            f"{path} is {len(raw):,} bytes: over the {MAX_CONFIG_BYTES:,}-byte (2 MiB) limit for a config file",
            "split it with $include, or remove what the gateway does not need",
        )
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        raise VoraError(
            "parse_error",
            f"{path}:{line}:{col}: invalid UTF-8 (byte 0x{raw[exc.start]:02x})",
            _restore_hint(path),
        ) from None


def parse_config_text(text: str, path: Path) -> Json5Document:
    try:
        doc = Json5Document.parse(text, filename=str(path))
    except VoraError as error:
        if error.code == "parse_error":
            raise VoraError("parse_error", error.message, _restore_hint(path)) from None
        raise
    require_object(doc, str(path))
    return doc


# Parsed documents by (file, exact bytes): one command reads the same file several times
# (load, locate, edit under the lock); a 1 MB file must be parsed once, not five times.
_PARSED: dict[tuple[Path, bytes], Json5Document] = {}


def parse_config_bytes(raw: bytes, path: Path) -> Json5Document:
    key = (path, raw)
    doc = _PARSED.get(key)
    if doc is None:
        doc = parse_config_text(decode_config_bytes(raw, path), path)
        if len(_PARSED) > 16:
            _PARSED.clear()
        _PARSED[key] = doc
    return doc


def read_config_file(path: Path) -> ConfigFile:
    """Read and parse one config file; a missing file is an empty config."""
    raw = read_bytes(path)
    if raw is None:
        return ConfigFile(path, None, None)
    return ConfigFile(path, raw, parse_config_bytes(raw, path))


def deep_merge(base: Any, over: Any) -> Any:
    """`$include` merging: objects merge, arrays concatenate, later scalars win."""
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = deep_merge(merged[key], value) if key in merged else value
        return merged
    if isinstance(base, list) and isinstance(over, list):
        return [*base, *over]
    return over


@dataclass
class _IncludeResolver:
    root_dir: Path
    home: Path  # `~` in an include path (core/paths.expand_path)
    files: dict[Path, ConfigFile] = field(default_factory=dict)
    order: list[Path] = field(default_factory=list)

    def load(self, path: Path) -> ConfigFile:
        if path not in self.files:
            self.files[path] = read_config_file(path)
            self.order.append(path)
        return self.files[path]

    def include_targets(self, node: Mapping[str, Any], owner: Path) -> list[Path]:
        spec = node[INCLUDE_KEY]
        names = spec if isinstance(spec, list) else [spec]
        targets: list[Path] = []
        for name in names:
            if not isinstance(name, str) or not name.strip():
                raise VoraError("invalid", f"{owner}: \"$include\" must be a path or an array of paths",
                                'for example: "$include": "./agents.json5"')
            target = expand_path(name, self.home, owner.parent)
            real_root = os.path.realpath(self.root_dir)
            real_target = os.path.realpath(target)
            if os.path.commonpath([real_root, real_target]) != real_root:
                raise VoraError(
                    "refused",
                    f"{owner}: $include {name!r} points outside the config folder {self.root_dir}",
                    "keep included files inside the folder that holds vora.json",
                )
            if not target.exists():
                raise VoraError("not_found", f"{owner}: $include {name!r}: {target} does not exist",
                                "create the file or remove the $include")
            targets.append(target)
        return targets

    def resolve(self, value: Any, owner: Path, chain: tuple[Path, ...]) -> Any:
        if isinstance(value, list):
            return [self.resolve(v, owner, chain) for v in value]
        if not isinstance(value, dict):
            return value
        siblings = {k: self.resolve(v, owner, chain) for k, v in value.items() if k != INCLUDE_KEY}
        if INCLUDE_KEY not in value:
            return siblings
        base: Any = None
        for target in self.include_targets(value, owner):
            if target in chain:
                names = " -> ".join(str(p.name) for p in (*chain, target))
                raise VoraError("invalid", f"$include cycle: {names}", "remove one of the includes in that chain")
            if len(chain) > MAX_INCLUDE_DEPTH:
                raise VoraError(
                    "invalid",
                    f"$include nested deeper than {MAX_INCLUDE_DEPTH}: {' -> '.join(p.name for p in chain)}",
                    "flatten the includes",
                )
            included = self.resolve(self.load(target).value, target, (*chain, target))
            base = included if base is None else deep_merge(base, included)
        if not siblings:
            return base
        return deep_merge(base if base is not None else {}, siblings)


@dataclass(frozen=True)
class LoadedConfig:
    """The config as the gateway sees it."""

    path: Path
    main: ConfigFile
    value: dict[str, Any]  # merged, `$include` resolved, placeholders as written
    files: tuple[ConfigFile, ...]  # main first, then included files in load order
    env: Mapping[str, str]

    @property
    def exists(self) -> bool:
        return self.main.exists

    @property
    def effective(self) -> dict[str, Any]:
        value, _ = substitute_env(self.value, self.env)
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
        return substitute_env(self.value, self.env)[1]

    def file_for(self, path: Path) -> ConfigFile | None:
        for f in self.files:
            if f.path == path:
                return f
        return None


def load_config(paths: VoraPaths | Path, env: Mapping[str, str] | None = None) -> LoadedConfig:
    """Read the config file and everything it includes. Raises on any parse error."""
    config_path = paths.config_path if isinstance(paths, VoraPaths) else paths
    env = os.environ if env is None else env
    home = paths.home if isinstance(paths, VoraPaths) else resolve_home(env)
    resolver = _IncludeResolver(root_dir=config_path.parent, home=home)
    _MAIN_CONFIGS.add(config_path)
    main = resolver.load(config_path)
    if main.raw is not None and b"include" not in main.raw:
        merged = main.value  # no $include anywhere: nothing to merge (the common, fast case)
    else:
        merged = resolver.resolve(main.value, config_path, (config_path,))
    if not isinstance(merged, dict):
        raise VoraError("invalid", f"{config_path}: the merged config is not an object", "check the $include files")
    files = tuple(resolver.files[p] for p in resolver.order)
    return LoadedConfig(config_path, main, merged, files, env)


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


# -- where a path lives -------------------------------------------------------------------------

def locate_owner(loaded: LoadedConfig, path: ConfigPath) -> tuple[Path, ConfigPath]:
    """The file that owns `path`, and the path inside that file (spec: writes into `$include`s).

    A path found in exactly one file goes to that file; a new key goes next to its nearest
    existing parent; a value merged from several files is refused, naming them.
    """
    resolver = _IncludeResolver(root_dir=loaded.path.parent, home=resolve_home(loaded.env))
    for f in loaded.files:
        resolver.files[f.path] = f
    return _owner_in(resolver, loaded.path, loaded.main.value, (), path)


def _owner_in(
    resolver: _IncludeResolver, file: Path, node: Any, prefix: ConfigPath, rest: ConfigPath
) -> tuple[Path, ConfigPath]:
    if not rest:
        return file, prefix
    seg, tail = rest[0], rest[1:]
    if isinstance(node, dict) and INCLUDE_KEY in node:
        candidates: list[tuple[Path | None, Any]] = []
        if isinstance(seg, str) and seg in node and seg != INCLUDE_KEY:
            candidates.append((None, node[seg]))
        for target in resolver.include_targets(node, file):
            included = resolver.resolve(resolver.load(target).value, target, (file, target))
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


# -- writing ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ConfigEdit:
    """Set `path` to `value`, or delete it (`delete=True`)."""

    path: ConfigPath
    value: Any = None
    delete: bool = False


@dataclass(frozen=True)
class ConfigChange:
    path: str
    old: Any  # the old value (redacted when secret); None when it was not set
    new: Any  # the new value (redacted when secret); None when removed
    action: str  # "set" | "add" | "remove"
    file: str


@dataclass(frozen=True)
class FileWrite:
    path: str
    backup: str | None
    old_text: str = field(repr=False, default="")
    new_text: str = field(repr=False, default="")
    # The parsed trees whose secret values must not show in the diff (scanned only on demand).
    secret_trees: tuple[Any, ...] = field(repr=False, default=())

    @property
    def diff(self) -> str:
        """The unified diff, secrets redacted (computed when asked: most writes never show it)."""
        secrets: set[str] = set()
        for tree in self.secret_trees:
            secrets |= secret_strings(tree)
        return unified_diff(self.old_text, self.new_text, Path(self.path).name, secrets)

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "diff": self.diff, "backup": self.backup}


@dataclass(frozen=True)
class ConfigWriteResult:
    changed: bool
    dry_run: bool
    changes: tuple[ConfigChange, ...]
    files: tuple[FileWrite, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "changed": self.changed,
            "dryRun": self.dry_run,
            "changes": [c.__dict__ for c in self.changes],
            "files": [f.to_dict() for f in self.files],
        }


# `secretKey: value` anywhere in a line (several members may share a line).
_SECRET_MEMBER_RE = re.compile(
    r"""(?P<key>(?P<q>["']?)[A-Za-z0-9_$-]*(?:"""
    + SECRET_KEY_RE.pattern
    + r""")[A-Za-z0-9_$-]*(?P=q)\s*:\s*)(?P<val>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|[^\s,{}\[\]/]+)""",
    re.IGNORECASE,
)


def redact_text_line(line: str, secrets: Sequence[str] = ()) -> str:
    """Hide secret values in a line of config text: `secretKey: value` members, and any
    literal occurrence of a known secret value (longest first)."""
    line = _SECRET_MEMBER_RE.sub(lambda m: f'{m.group("key")}"{REDACTED}"', line)
    for value in secrets:
        if value in line:
            line = line.replace(value, REDACTED)
    return line


def secret_strings(tree: Any) -> set[str]:
    """Every string value under a secret-looking key of `tree` (for scrubbing diffs).

    The known secret keys (`gateway.auth.token`, `.password`) match the name rule too, so one
    cheap test per key does: this runs on every write of a possibly 1 MB config.
    """
    found: set[str] = set()
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(value, str):
                    if len(value) >= 3 and SECRET_KEY_RE.search(key):
                        found.add(value)
                elif isinstance(value, dict | list):
                    if SECRET_KEY_RE.search(key):
                        found.update(_all_strings(value))
                    else:
                        stack.append(value)
        elif isinstance(node, list):
            stack.extend(v for v in node if isinstance(v, dict | list))
    return found


def _all_strings(tree: Any) -> set[str]:
    if isinstance(tree, str):
        return {tree} if len(tree) >= 3 else set()
    if isinstance(tree, dict):
        return set().union(*(_all_strings(v) for v in tree.values()))
    if isinstance(tree, list):
        return set().union(*(_all_strings(v) for v in tree))
    return set()


def unified_diff(old: str, new: str, name: str, secrets: set[str] | None = None) -> str:
    """A unified diff (3 lines of context), secrets redacted.

    difflib is slow on a 1 MB file, so the common leading and trailing lines are cut off first
    and the hunk line numbers shifted back.
    """
    a = old.splitlines(keepends=True)
    b = new.splitlines(keepends=True)
    prefix = 0
    limit = min(len(a), len(b))
    while prefix < limit and a[prefix] == b[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and a[-1 - suffix] == b[-1 - suffix]:
        suffix += 1
    start = max(0, prefix - 3)
    keep_end = max(0, suffix - 3)
    lines = difflib.unified_diff(
        a[start : len(a) - keep_end], b[start : len(b) - keep_end], fromfile=f"a/{name}", tofile=f"b/{name}"
    )
    ordered = sorted(secrets or (), key=len, reverse=True)
    out = []
    for line in lines:
        if line.startswith("@@") and start:
            line = _HUNK_RE.sub(lambda m: _shift_hunk(m, start), line, count=1)
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        out.append(redact_text_line(line, ordered) if line[:1] in "+- " else line)
    return "".join(out)


_HUNK_RE = re.compile(r"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@")


def _shift_hunk(m: re.Match[str], offset: int) -> str:
    return f"@@ -{int(m.group(1)) + offset}{m.group(2)} +{int(m.group(3)) + offset}{m.group(4)} @@"


def check_edit_types(edits: Sequence[ConfigEdit]) -> None:
    """A value set at a known key must fit its type (`ture` for a boolean is an error)."""
    for edit in edits:
        if edit.delete:
            continue
        # The value alone, placed at its path (every index becomes 0: only the types matter).
        tree: Any = edit.value
        for seg in reversed(edit.path):
            tree = {seg: tree} if isinstance(seg, str) else [tree]
        where_set = tuple(0 if isinstance(seg, int) else seg for seg in edit.path)
        for problem in validate_tree(tree):
            if problem.severity != "error":
                continue
            if problem.path[: len(where_set)] != where_set and where_set[: len(problem.path)] != problem.path:
                continue
            where = format_config_path(problem.path)
            raise VoraError(
                "invalid",
                f"{where} must be {problem.expected}, not {problem.found}",
                "see 'vora config schema' for the keys vora knows; --type string forces a string",
            )


def _render(value: Any, path: ConfigPath) -> Any:
    return redact(value, path) if value is not None else None


def backup_paths(path: Path) -> list[Path]:
    return [path.with_name(path.name + ".bak")] + [
        path.with_name(f"{path.name}.bak.{i}") for i in range(1, BACKUP_RING)
    ]


def rotate_backups(path: Path, old: bytes) -> Path:
    """Keep the backup ring: .bak (newest) … .bak.4; every backup 0600."""
    ring = backup_paths(path)
    for newer, older in reversed(list(itertools.pairwise(ring))):
        if newer.exists():
            os.replace(newer, older)
    replace_atomically(ring[0], old, new_mode=0o600, force_mode=True)
    return ring[0]


def apply_config_edits(
    paths: VoraPaths,
    edits: Sequence[ConfigEdit],
    *,
    command: str,
    dry_run: bool = False,
    env: Mapping[str, str] | None = None,
) -> ConfigWriteResult:
    """Apply `edits` in one lossless write per owning file (normally just vora.json).

    Nothing is written when a file does not parse, an edit does not fit its known type, the
    owner of a path is ambiguous, or the file changed on disk meanwhile (exit 3).
    """
    check_edit_types(edits)
    loaded = load_config(paths, env)
    by_file: dict[Path, list[tuple[ConfigEdit, ConfigPath]]] = {}
    for edit in edits:
        owner, inner = locate_owner(loaded, edit.path)
        by_file.setdefault(owner, []).append((edit, inner))

    changes: list[ConfigChange] = []
    planned: dict[Path, tuple[bytes | None, bytes]] = {}
    secret_trees: list[Any] = []
    built: dict[Path, tuple[bytes | None, bytes | None, list[ConfigChange]]] = {}

    def build(file: Path, raw: bytes | None) -> bytes | None:
        if file in built and built[file][0] == raw:  # same bytes as the first pass: same result
            _, new_bytes, file_changes = built[file]
            if new_bytes is not None:
                changes.extend(file_changes)
                planned[file] = (raw, new_bytes)
            return new_bytes
        result = _build(file, raw)
        built[file] = (raw, *result)
        return build(file, raw)

    def _build(file: Path, raw: bytes | None) -> tuple[bytes | None, list[ConfigChange]]:
        if raw is not None:
            doc = parse_config_bytes(raw, file)
        else:
            doc = Json5Document.parse("{\n}\n", filename=str(file))
        first_value = doc.value
        file_changes: list[ConfigChange] = []
        for edit, inner in by_file[file]:
            old = get_path(doc.value, inner)
            if edit.delete:
                if is_missing(old):
                    raise VoraError("not_found", f"{format_config_path(edit.path)} is not set in {file}",
                                    "see what is set with 'vora config get'")
                doc = doc.unset(inner)
                file_changes.append(ConfigChange(format_config_path(edit.path), _render(old, edit.path), None,
                                                 "remove", str(file)))
            else:
                new_doc = doc.set(inner, edit.value)
                if new_doc is not doc:
                    file_changes.append(ConfigChange(
                        format_config_path(edit.path),
                        None if is_missing(old) else _render(old, edit.path),
                        _render(edit.value, edit.path),
                        "add" if is_missing(old) else "set",
                        str(file),
                    ))
                doc = new_doc
        new_bytes = doc.text.encode("utf-8")
        secret_trees.extend((first_value, doc.value))
        if (raw is not None and new_bytes == raw) or (raw is None and not file_changes):
            return None, []
        return new_bytes, file_changes

    # First pass: compute every new text from what is on disk now (also the dry run).
    for file in by_file:
        build(file, read_bytes(file))
    if dry_run or not planned:
        return _result(changes, planned, {}, dry_run=dry_run, secret_trees=secret_trees)

    # Second pass: the real write, under each file's lock, recomputed from the bytes on disk.
    changes.clear()
    planned.clear()
    backups: dict[Path, Path] = {}
    for file in list(by_file):
        def before_replace(old: bytes | None, new: bytes, file: Path = file) -> None:
            if old is not None:
                backups[file] = rotate_backups(file, old)

        def transform(raw: bytes | None, file: Path = file) -> bytes | None:
            return build(file, raw)

        result = update_file(file, transform, before_replace=before_replace)
        if result.changed:
            _audit(paths, command, file, [c.path for c in changes if c.file == str(file)], result)
    return _result(changes, planned, backups, dry_run=False, secret_trees=secret_trees)


def _result(changes: list[ConfigChange], planned: dict[Path, tuple[bytes | None, bytes]],
            backups: dict[Path, Path], *, dry_run: bool, secret_trees: list[Any]) -> ConfigWriteResult:
    trees = tuple(secret_trees)
    files = tuple(
        FileWrite(
            path=str(file),
            backup=str(backups[file]) if file in backups else None,
            old_text="" if old is None else old.decode("utf-8"),
            new_text=new.decode("utf-8"),
            secret_trees=trees,
        )
        for file, (old, new) in planned.items()
    )
    return ConfigWriteResult(changed=bool(planned), dry_run=dry_run, changes=tuple(changes), files=files)


def _audit(paths: VoraPaths, command: str, file: Path, changed: list[str], result: Any) -> None:
    record = {
        "time": _dt.datetime.now(_dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "command": command,
        "file": str(file),
        "paths": changed,
        "before": {"sha256": result.before_sha256, "size": result.before_size},
        "after": {"sha256": result.after_sha256, "size": result.after_size},
    }
    append_line(paths.logs_dir / "config-audit.jsonl", json.dumps(record, ensure_ascii=False))


def write_config_text(
    paths: VoraPaths, new_text: str, *, expected: bytes | None, command: str
) -> ConfigWriteResult:
    """Replace the whole main config file with a text the user wrote (`vora config edit`).

    The text must parse; the file must still hold `expected` (else a conflict, exit 3).
    """
    file = paths.config_path
    new_doc = parse_config_text(new_text, file)
    trees: list[Any] = [new_doc.value]
    if expected is not None:
        trees.append(parse_config_bytes(expected, file).value)
    new = new_text.encode("utf-8")
    if new == expected:
        return ConfigWriteResult(False, False, (), ())
    backups: dict[Path, Path] = {}

    def transform(current: bytes | None) -> bytes:
        if current != expected:
            raise VoraError("conflict", f"{file} changed on disk while it was being edited",
                            "nothing was written; run 'vora config edit' again")
        return new

    def before_replace(old: bytes | None, _new: bytes) -> None:
        if old is not None:
            backups[file] = rotate_backups(file, old)

    result = update_file(file, transform, before_replace=before_replace)
    _audit(paths, command, file, ["*"], result)
    return _result([], {file: (expected, new)}, backups, dry_run=False, secret_trees=trees)
