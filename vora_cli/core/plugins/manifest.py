"""The one plugin reader: the manifest and `package.json` of a plugin on disk; every error names the file
and the field (docs/plugins.md, "What is accepted").
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.parser import loads as json5_loads
from vora_cli.core.paths import is_within
from vora_cli.core.plugins.ids import id_problem
from vora_cli.core.plugins.reads import PluginReads
from vora_cli.core.records import dataclass, field

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MANIFEST_FILE = "vora.plugin.json"
UPSTREAM_MANIFEST_FILE = "openclaw.plugin.json"
MANIFEST_FILES = (MANIFEST_FILE, UPSTREAM_MANIFEST_FILE)  # first found wins
PACKAGE_FILE = "package.json"
PACKAGE_BLOCKS = ("vora", "openclaw")  # the package.json block naming the entry files; first found wins
KINDS = ("context-engine", "memory")
SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts")
MAX_MANIFEST_BYTES = 1024 * 1024


@dataclass(frozen=True)
class PluginManifest:
    """The parsed `vora.plugin.json`. `raw` keeps every field, known or not (inspect shows it)."""

    id: str | None
    kind: tuple[str, ...]
    name: str | None
    description: str | None
    version: str | None
    config_schema: dict[str, Any]
    skills: tuple[str, ...]
    raw: dict[str, Any]


@dataclass(frozen=True)
class Compat:
    """The package block's `compat`: which gateways the plugin says it works with (ranges as written)."""

    min_gateway_version: str | None = None
    plugin_api: str | None = None

    def to_dict(self) -> dict[str, str | None]:
        return {"minGatewayVersion": self.min_gateway_version, "pluginApi": self.plugin_api}


@dataclass(frozen=True)
class PackageInfo:
    """The fields of `package.json` vora uses."""

    name: str | None
    version: str | None
    dependencies: dict[str, str]
    extensions: tuple[str, ...]
    raw: dict[str, Any]
    block: str | None = None  # "vora" or "openclaw": the block the entry files came from
    compat: Compat = field(default_factory=Compat)


@dataclass(frozen=True)
class EntryFile:
    """A plugin's entry file as declared, and whether it exists."""
    spec: str  # as written, e.g. "./dist/index.js"
    path: Path
    exists: bool


@dataclass(frozen=True)
class PluginSource:
    """A validated plugin folder (or single file) and what vora knows about it."""

    root: Path
    id: str
    id_from: str  # "manifest", "package.json" or "file name"
    is_file: bool
    manifest: PluginManifest | None
    package: PackageInfo | None
    entries: tuple[EntryFile, ...]
    warnings: tuple[str, ...] = field(default_factory=tuple)
    manifest_file: str | None = None  # vora.plugin.json or openclaw.plugin.json: the one read

    @property
    def kind(self) -> tuple[str, ...]:
        return self.manifest.kind if self.manifest else ()

    @property
    def version(self) -> str | None:
        """The package's version, as npm and the gateway record it; the manifest's only without a
        package.json (a manifest may lag behind: `0.1.0` in a package published as `0.4.1`)."""
        if self.package is not None:
            return self.package.version
        return self.manifest.version if self.manifest else None

    @property
    def compat(self) -> Compat:
        return self.package.compat if self.package else Compat()

    @property
    def names(self) -> dict[str, str | None]:
        """Which names this plugin was read by: `{"manifest": "openclaw.plugin.json", "package": "openclaw"}`."""
        return {"manifest": self.manifest_file, "package": self.package.block if self.package else None}

    @property
    def name(self) -> str | None:
        return self.manifest.name if self.manifest and self.manifest.name else None

    @property
    def missing_entries(self) -> tuple[EntryFile, ...]:
        return tuple(entry for entry in self.entries if not entry.exists)


def _invalid(message: str, hint: str | None = None) -> VoraError:
    return VoraError("invalid", message, hint)


def _read_text(path: Path, label: str, shown: str | None = None, reads: PluginReads | None = None) -> str:
    """The file's text (UTF-8, a byte order mark dropped, newlines as Python's text mode reads them),
    read through the run's `reads` when there is one."""
    try:
        _info, data = (reads or PluginReads()).open_read(os.fspath(path), max_bytes=MAX_MANIFEST_BYTES)
        if data is None:
            raise _invalid(f"{label}: larger than 1 MiB")
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _invalid(f"{label}: not UTF-8 text") from None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {shown or path}: {exc.strerror}") from exc
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _optional_string(data: dict[str, Any], key: str, label: str) -> str | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise _invalid(f'{label}: "{key}" must be a string')
    return value


def parse_manifest(text: str, label: str = MANIFEST_FILE, reads: PluginReads | None = None) -> PluginManifest:
    """Validate the text of a `vora.plugin.json`; errors read `vora.plugin.json: missing "configSchema"`.
    `reads`: the run's, whose parse of the same text this one shares."""
    data = reads.json5(text, label) if reads is not None else json5_loads(text, filename=label)
    if not isinstance(data, dict):
        raise _invalid(f"{label}: must be an object")
    plugin_id = data.get("id")
    if plugin_id is not None:
        if not isinstance(plugin_id, str):
            raise _invalid(f'{label}: "id" must be a string')
        problem = id_problem(plugin_id)
        if problem:
            raise _invalid(f'{label}: "id" {plugin_id!r} {problem}', "use a name like my-engine or @scope/my-engine")
    if "configSchema" not in data:
        raise _invalid(f'{label}: missing "configSchema"', 'add "configSchema": {"type": "object"} (an empty schema is fine)')
    schema = data["configSchema"]
    if not isinstance(schema, dict):
        raise _invalid(f'{label}: "configSchema" must be a JSON Schema object, e.g. {{"type": "object"}}')
    raw_kind = data.get("kind")
    kinds: tuple[str, ...]
    if raw_kind is None:
        kinds = ()
    elif isinstance(raw_kind, str) and raw_kind in KINDS:
        kinds = (raw_kind,)
    elif (isinstance(raw_kind, list) and raw_kind and all(isinstance(k, str) and k in KINDS for k in raw_kind)
          and len(set(raw_kind)) == len(raw_kind)):
        kinds = tuple(raw_kind)
    else:
        raise _invalid(f'{label}: "kind" must be "context-engine", "memory" or an array of both (found {json.dumps(raw_kind)})')
    skills_raw = data.get("skills", [])
    if not isinstance(skills_raw, list) or not all(isinstance(s, str) and s for s in skills_raw):
        raise _invalid(f'{label}: "skills" must be an array of folder paths')
    return PluginManifest(
        id=plugin_id,
        kind=kinds,
        name=_optional_string(data, "name", label),
        description=_optional_string(data, "description", label),
        version=_optional_string(data, "version", label),
        config_schema=schema,
        skills=tuple(skills_raw),
        raw=data,
    )


def parse_package_json(text: str, label: str = PACKAGE_FILE, *, require_extensions: bool = True,
                       reads: PluginReads | None = None) -> PackageInfo:
    """Validate the text of a `package.json` (JSON, not JSON5)."""
    try:
        data = reads.json(text) if reads is not None else nesting.loads(text)
    except ValueError as exc:
        raise VoraError("parse_error", f"{label}: {exc}") from None
    if not isinstance(data, dict):
        raise _invalid(f"{label}: must be an object")
    name = _optional_string(data, "name", label)
    version = _optional_string(data, "version", label)
    deps_raw = data.get("dependencies", {})
    if deps_raw is None:
        deps_raw = {}
    if not isinstance(deps_raw, dict) or not all(isinstance(v, str) for v in deps_raw.values()):
        raise _invalid(f'{label}: "dependencies" must be an object of name -> version strings')
    block = next((key for key in PACKAGE_BLOCKS if key in data), None)
    meta = data.get(block) if block else None
    extensions: tuple[str, ...] = ()
    if meta is not None and not isinstance(meta, dict):
        raise _invalid(f'{label}: "{block}" must be an object like {{"extensions": ["./dist/index.js"]}}')
    raw_ext = (meta or {}).get("extensions")
    if raw_ext is None:
        if require_extensions:
            raise _invalid(
                f'{label}: neither "vora.extensions" nor "openclaw.extensions" is there: the gateway loads the '
                "entry files these name",
                'a plugin package names them, e.g. "openclaw": {"extensions": ["./dist/index.js"]}; a published '
                "package without them is not a gateway plugin (ask its author)")
    elif not isinstance(raw_ext, list) or not raw_ext or not all(isinstance(e, str) and e for e in raw_ext):
        raise _invalid(f'{label}: "{block}.extensions" must be a non-empty array of entry files, e.g. ["./dist/index.js"]')
    else:
        extensions = tuple(raw_ext)
    compat = Compat()
    raw_compat = (meta or {}).get("compat")
    if isinstance(raw_compat, dict):
        gateway, api = raw_compat.get("minGatewayVersion"), raw_compat.get("pluginApi")
        compat = Compat(gateway if isinstance(gateway, str) and gateway.strip() else None,
                        api if isinstance(api, str) and api.strip() else None)
    return PackageInfo(name=name, version=version, dependencies=dict(deps_raw), extensions=extensions, raw=data,
                       block=block, compat=compat)


def _entry_inside(root: Path, spec: str, label: str, block: str = "vora") -> Path:
    if os.path.isabs(spec) or spec.startswith(("/", "\\")) or (len(spec) > 1 and spec[1] == ":"):
        raise _invalid(f'{label}: "{block}.extensions" entry {spec!r} must be relative to the plugin root')
    parts = spec.replace("\\", "/").split("/")
    if ".." in parts:
        raise _invalid(f'{label}: "{block}.extensions" entry {spec!r} leaves the plugin root')
    path = root / spec
    if _has_symlink_below(root, spec):
        real_root = os.path.realpath(root)
        real = os.path.realpath(path)
        if not is_within(real, real_root):
            raise _invalid(f'{label}: "{block}.extensions" entry {spec!r} resolves outside the plugin root')
    return path


def _has_symlink_below(root: Path, spec: str) -> bool:
    """Whether a part of `spec` under `root` is a symlink. Without one (and without `..`,
    refused above) the entry lies inside the root, so the two full `realpath` walks, a dozen
    `lstat`s each, are needed only then: `vora doctor` reads hundreds of plugins."""
    current = os.fspath(root)
    for part in Path(spec).parts:
        current = os.path.join(current, part)
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return True
        except OSError:
            return False  # the rest does not exist: nothing below can lead out
    return False


def read_plugin(root: Path, *, require_entries: bool = True, shown_as: str | None = None,
                reads: PluginReads | None = None) -> PluginSource:
    """Read and validate the plugin at `root` (a folder, or a single script file).

    `require_entries=False` (links) turns missing entry files into warnings. `shown_as`: what
    errors call a staging copy (the user's folder or `engine.tgz:package`). `reads`: the run's
    (`core/plugins/reads.py`).
    """
    shown = shown_as or str(root)
    if root.is_file():
        return _read_single_file(root)
    if not root.is_dir():
        raise VoraError("not_found", f"plugin path not found: {root}")
    manifest_file = next((name for name in MANIFEST_FILES if (root / name).is_file()), None)
    package_path = root / PACKAGE_FILE
    warnings: list[str] = []
    manifest = (parse_manifest(_read_text(root / manifest_file, manifest_file, f"{shown}/{manifest_file}", reads),
                               manifest_file, reads) if manifest_file else None)
    package = (parse_package_json(_read_text(package_path, PACKAGE_FILE, f"{shown}/{PACKAGE_FILE}", reads), PACKAGE_FILE,
                                  reads=reads) if package_path.is_file() else None)
    if manifest is None or manifest_file is None:
        raise _invalid(
            f"no plugin manifest in {shown}: neither {MANIFEST_FILE} nor {UPSTREAM_MANIFEST_FILE} is there",
            "the gateway needs one with an id and a configSchema; 'vora plugins init' scaffolds one",
        )
    if package is None:
        raise _invalid(
            f"{PACKAGE_FILE}: not found in {shown}",
            'the gateway needs a package.json naming the entry files: "openclaw": {"extensions": ["./dist/index.js"]} '
            '(or "vora": …)',
        )
    if manifest.id:
        plugin_id, id_from = manifest.id, "manifest"
        if package.name and not names_agree(package.name, manifest.id):
            warnings.append(
                f'the plugin id is "{manifest.id}" (from {manifest_file}); the npm package name "{package.name}" differs'
            )
    elif package.name:
        problem = id_problem(package.name)
        if problem:
            raise _invalid(f'{PACKAGE_FILE}: "name" {package.name!r} {problem} and {manifest_file} has no "id"')
        plugin_id, id_from = package.name, "package.json"
        warnings.append(f'{manifest_file} has no "id"; using the npm package name "{package.name}"')
    else:
        raise _invalid(f'{manifest_file}: missing "id"', f'add "id": "{root.name}"')
    entries = []
    for spec in package.extensions:
        path = _entry_inside(root, spec, PACKAGE_FILE, package.block or "vora")
        entries.append(EntryFile(spec=spec, path=path, exists=path.is_file()))
    missing = [entry.spec for entry in entries if not entry.exists]
    if missing:
        text = f"{PACKAGE_FILE}: entry file not found: {', '.join(missing)}"
        if require_entries:
            raise _invalid(text, "build the plugin first (for example 'npm run build'), then install it")
        warnings.append(text + " (not built yet? run the plugin's build)")
    for skill in manifest.skills:
        if not (root / skill).is_dir():
            warnings.append(f'{manifest_file}: skills folder "{skill}" not found')
    return PluginSource(
        root=root, id=plugin_id, id_from=id_from, is_file=False, manifest=manifest, package=package,
        entries=tuple(entries), warnings=tuple(warnings), manifest_file=manifest_file,
    )


def names_agree(package_name: str, plugin_id: str) -> bool:
    """Whether an npm name and a plugin id name the same plugin: equal, or the scoped package's own
    name is the id (`@robertogongora/graphiti` publishes the plugin `graphiti`, as the gateway's
    installer expects)."""
    return package_name == plugin_id or package_name.rsplit("/", 1)[-1] == plugin_id


def _read_single_file(path: Path) -> PluginSource:
    if path.suffix not in SCRIPT_SUFFIXES:
        raise _invalid(f"{path}: a single-file plugin must be a .js, .mjs, .cjs or .ts file")
    plugin_id = path.stem
    problem = id_problem(plugin_id)
    if problem:
        raise _invalid(f"{path.name}: the file name gives the plugin id {plugin_id!r}, which {problem}")
    return PluginSource(
        root=path, id=plugin_id, id_from="file name", is_file=True, manifest=None, package=None,
        entries=(EntryFile(spec=path.name, path=path, exists=True),),
    )
