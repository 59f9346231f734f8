"""The operator's own preferences (`vora settings`, docs/settings.md), and the one precedence engine every
value of vora's is resolved by: flag > env > settings file > default. A `Settings` value belongs to one
run and reads its file at most once, on first need.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.home import env_value
from vora_cli.core.records import dataclass
from vora_cli.core.settings.checks import (
    check_command_line,
    check_gateway_timeout,
    check_indent,
    check_lock_timeout,
    check_profile,
    check_state_dir,
    check_version,
    check_ws_url,
    shown_url,
)
from vora_cli.core.settings.toml_file import decode, load_table
from vora_cli.core.strict_json import is_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Where a value came from (`vora settings list`, `vora config file --json`). Path resolution adds
# one of its own, `profile` (a state dir derived from the profile: core/paths.py).
SOURCE_FLAG = "flag"
SOURCE_ENV = "env"
SOURCE_SETTINGS = "settings"
SOURCE_DEFAULT = "default"


class Setting:
    """One key: its type, its env var(s) and flag, its built-in default. A plain class, not a
    record: this module loads on most commands, and nothing compares or prints a `Setting`."""

    __slots__ = ("check", "choices", "default", "env", "env_checked", "flag", "help", "key", "kind", "minimum",
                 "shown")

    def __init__(self, key: str, kind: str, help: str, default: Any = None, *, choices: tuple[str, ...] = (),
                 env: tuple[str, ...] = (), flag: str | None = None, minimum: float | None = None,
                 check: Callable[[Any], str | None] | None = None, env_checked: bool = False,
                 shown: Callable[[Any], Any] | None = None) -> None:
        self.key, self.kind, self.help, self.default = key, kind, help, default  # kind: str|int|number|choice|list
        self.choices, self.env, self.flag, self.minimum, self.check = choices, env, flag, minimum, check
        # env_checked: an env value `check` refuses is ignored (with a warning in `settings list`),
        # as numbers are; otherwise the value's consumer reports it (VORA_GATEWAY_URL, VORA_PROFILE)
        self.env_checked = env_checked or kind in ("int", "number")
        self.shown = shown  # how a value may be printed (a URL's password redacted)

    def display(self, value: Any) -> Any:
        """`value` as every output shows it: never a secret inside it."""
        return value if self.shown is None or value is None else self.shown(value)

    @property
    def type_name(self) -> str:
        if self.kind == "choice":
            return " | ".join(self.choices)
        return {"str": "string", "int": "integer", "number": "number", "list": "list of strings"}[self.kind]


SETTINGS: dict[str, Setting] = {s.key: s for s in (
    Setting("state_dir", "str", "default state dir when no flag, env or profile says otherwise",
            env=("VORA_STATE_DIR",), flag="--state-dir", check=check_state_dir),
    Setting("profile", "str", "default profile (state dir ~/.vora-NAME)", env=("VORA_PROFILE",),
            flag="--profile", check=check_profile),
    Setting("color", "choice", "colour on a terminal: auto, always (even when piped) or never", default="auto",
            choices=("auto", "always", "never"), env=("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")),
    Setting("editor", "str", "editor for `vora config edit`", env=("VISUAL", "EDITOR"), check=check_command_line),
    Setting("pager", "str", "pager for long output on a terminal", default="less -FRX", env=("PAGER",),
            check=check_command_line),
    Setting("json_indent", "int", "--json indentation (0: one compact line); unset: 2 on a terminal, compact "
            "when piped", env=("VORA_JSON_INDENT",), minimum=0, check=check_indent),
    Setting("lock_timeout", "number", "seconds to wait for another vora's file lock before exit 3", default=10.0,
            env=("VORA_LOCK_TIMEOUT",), minimum=0, check=check_lock_timeout),
    Setting("doctor.fail_on", "choice", "`vora doctor` exits 1 at this severity or worse", default="error",
            choices=("warn", "error"), flag="--fail-on"),
    Setting("doctor.skip", "list", "doctor checks left out by default", default=[], flag="--skip"),
    Setting("gateway.url", "str", "the live gateway's URL (`vora gateway`, `vora logs`, `doctor --live`)",
            env=("VORA_GATEWAY_URL",), flag="--url", check=check_ws_url, shown=shown_url),
    Setting("gateway.version", "str", "the gateway version plugins' `compat` ranges are checked against "
            "(unset: the one `vora doctor --live` last saw)", env=("VORA_GATEWAY_VERSION",), check=check_version,
            env_checked=True),
    Setting("gateway.timeout", "number", "seconds for each live-gateway step", default=3.0, flag="--timeout",
            check=check_gateway_timeout),
)}


def unknown_key_error(key: str, where: str) -> VoraError:
    from vora_cli.core.wording import closest

    near = closest(key, SETTINGS)
    hint = f"did you mean '{near}'? " if near else ""
    return VoraError("invalid", f"unknown setting '{key}' {where}",
                     f"{hint}known settings: {', '.join(SETTINGS)} (vora settings list)")


def setting_spec(key: str) -> Setting:
    spec = SETTINGS.get(key)
    if spec is None:
        error = unknown_key_error(key, "(not one of vora's settings)")
        raise VoraError("usage", error.message, error.hint)
    return spec


def check_value(spec: Setting, value: Any, where: str) -> Any:
    """`value` if it has `spec`'s type (an int is a number too), else an `invalid` error naming the key."""
    ok = {
        # no NUL: no path, command line or URL holds one, and the OS refuses it (never an `internal`)
        "str": isinstance(value, str) and value.strip() != "" and "\0" not in value,
        "choice": isinstance(value, str) and value in spec.choices,
        "int": isinstance(value, int) and not isinstance(value, bool),
        "number": isinstance(value, int | float) and not isinstance(value, bool) and is_finite(value),
        "list": isinstance(value, list) and all(isinstance(v, str) and v and "\0" not in v for v in value),
    }[spec.kind]
    problem = None if ok else spec.type_name
    if not ok and spec.kind == "str" and isinstance(value, str) and "\0" not in value:
        problem = "a string that is not blank"  # `editor = " "` is not a command
    if spec.kind == "number" and isinstance(value, float) and not math.isfinite(value):
        problem = "a finite number"  # inf would mean waiting forever
    if ok and spec.minimum is not None and value < spec.minimum:
        problem = f"{_article(spec.type_name)} >= {spec.minimum:g}"
    if ok and problem is None and spec.check is not None:
        problem = spec.check(value)
    if problem is not None:
        raise VoraError("invalid", f"setting '{spec.key}' {where} must be {_article(problem)}, "
                        f"not {spec.display(value)!r}",
                        f"fix it: vora settings set {spec.key} VALUE, or vora settings unset {spec.key}")
    return float(value) if spec.kind == "number" else value


def _article(text: str) -> str:
    return text if text.startswith(("a ", "an ")) or "|" in text else ("an " if text[0] in "aeiou" else "a ") + text


def parse_value(spec: Setting, raw: str) -> Any:
    """A command-line VALUE as the key's type: `5`, `2.5`, `warn`, `a,b` (lists; empty: [])."""
    value: Any = raw
    try:
        if spec.kind == "int":
            value = int(raw)
        elif spec.kind == "number":
            value = float(raw)
    except ValueError:
        pass  # check_value names the type
    if spec.kind == "list":
        value = [v.strip() for v in raw.split(",") if v.strip()]
    return check_value(spec, value, "(from the command line)")


# -- the file -------------------------------------------------------------------------------------

def flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in table.items():
        key = prefix + name
        if isinstance(value, dict) and key not in SETTINGS:
            out.update(flatten(value, key + "."))
        else:
            out[key] = value
    return out


def nest(values: Mapping[str, Any]) -> dict[str, Any]:
    """Flat keys back into TOML tables (`doctor.skip` -> [doctor] skip), top-level keys first."""
    out: dict[str, Any] = {}
    for key in sorted(values, key=lambda k: ("." in k, k)):
        *parents, leaf = key.split(".")
        node = out
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = values[key]
    return out


def parse_settings_for_unset(data: bytes, path: Path, key: str) -> tuple[dict[str, Any], bool]:
    """The file's values as flat keys, unchecked, for `vora settings unset KEY`; a statement of
    KEY (or below it) that nests too deep to parse is left out, and the second value says one
    was: the file must then be written even though `values` no longer holds KEY."""
    import tomllib

    from vora_cli.core.nesting import TomlTooDeep, toml_loads

    text = decode(data, path)
    dropped = False
    while True:
        try:
            toml_loads(text)
        except TomlTooDeep as deep:
            if not deep.owned_by(key) or deep.end <= deep.start:
                break
            text, dropped = text[:deep.start] + text[deep.end:], True
            continue
        except tomllib.TOMLDecodeError:
            pass
        break
    return flatten(load_table(text, path)), dropped


def parse_settings(data: bytes, path: Path, *, replacing: str | None = None) -> dict[str, Any]:
    """The file's values as flat keys, checked (`unset` reads with `parse_settings_for_unset`);
    `replacing`: the key `set` is about to overwrite, whose old value is not checked."""
    values = flatten(load_table(decode(data, path), path))
    for key, value in values.items():
        if key == replacing:
            continue
        spec = SETTINGS.get(key)
        if spec is None:
            error = unknown_key_error(key, f"in {path}")
            raise VoraError(error.code, error.message, f"remove it: vora settings unset {key}; {error.hint}")
        values[key] = check_value(spec, value, f"in {path}")
    return values


def read_settings_file(path: Path) -> dict[str, Any]:
    """The file's values (flat keys, checked); {} when there is no file."""
    from vora_cli.core.reading import read_bytes

    try:
        os.stat(path)  # the common case, no file: not even tomllib is imported
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    data = read_bytes(path)
    return {} if data is None else parse_settings(data, path)


# -- precedence -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ResolvedSetting:
    """One setting's value and where it came from (a record, so no `typing`: docs/architecture.md)."""
    key: str
    value: Any
    source: str  # flag | env | settings | default
    origin: str  # the flag, the env var, the settings file, or "built-in"

    def to_dict(self, *, reveal: bool = False) -> dict[str, Any]:
        value = self.value if reveal else shown_value(self.key, self.value)
        return {"key": self.key, "value": value, "source": self.source, "origin": self.origin}


def shown_value(key: str, value: Any) -> Any:
    """`value` of setting `key` as output shows it: a password inside `gateway.url` redacted."""
    spec = SETTINGS.get(key)
    return value if spec is None else spec.display(value)


def _from_env(spec: Setting, env: Mapping[str, str]) -> tuple[Any, str] | None:
    for name in spec.env:
        raw = env_value(env, name)  # empty, `undefined` and `null` count as unset (core/home.py)
        if raw is None:
            continue
        if spec.key == "color":
            # NO_COLOR (no-color.org): any non-empty value, and it is read first, so it wins over
            # FORCE_COLOR (force-color.org) and CLICOLOR_FORCE, whose "0"/"false" force nothing.
            if name == "NO_COLOR":
                return "never", name
            if raw.lower() in ("0", "false", "no", "off"):
                continue
            return "always", name
        if spec.kind in ("int", "number"):
            # an unusable env value is ignored, as before settings existed (`ignored_env` names it)
            number = _env_number(spec, raw)
            if number is None:
                continue
            return number, name
        if spec.env_checked and spec.check is not None and spec.check(raw) is not None:
            continue
        return raw, name
    return None


def _env_number(spec: Setting, raw: str) -> int | float | None:
    """An env var's text as `spec`'s number, None when it is not a usable one."""
    if spec.kind == "int" and not (raw.isascii() and raw.isdigit()):
        return None
    try:
        number = int(raw) if spec.kind == "int" else float(raw)
    except ValueError:
        return None
    if not is_finite(number) or number < (spec.minimum or 0) or (spec.check and spec.check(number)):
        return None
    return number


class Settings:
    """The operator's settings for one run: each key by the one precedence, flag > env >
    settings file > built-in default (`resolve` says which source won). A plain class (start-up
    cost, see `Setting`). The file is read at most once, when first needed or `check` asks; its
    error is kept and raised again by every later use. `values` stands in for the file.
    """

    __slots__ = ("_file", "_path", "env")

    def __init__(self, env: Mapping[str, str] | None = None, *, path: Path | None = None,
                 values: Mapping[str, Any] | None = None) -> None:
        self.env: Mapping[str, str] = os.environ if env is None else env
        self._path = path
        self._file: dict[str, Any] | VoraError | None = None if values is None else dict(values)

    @property
    def path(self) -> Path:
        """The settings file (`vora settings path`)."""
        if self._path is None:
            from vora_cli.core.userdirs import settings_file

            self._path = settings_file()
        return self._path

    def file_values(self) -> dict[str, Any]:
        """The settings file's values (flat keys, checked); {} when there is no file."""
        if self._file is None:
            try:
                self._file = read_settings_file(self.path)
            except VoraError as error:
                self._file = error
        if isinstance(self._file, VoraError):
            raise self._file
        return self._file

    def check(self) -> None:
        """Read the file now: raise its error, if it has one (docs/settings.md, "A bad settings file")."""
        self.file_values()

    def resolve(self, key: str, flag_value: Any = None) -> ResolvedSetting:
        """`key`'s value and where it came from: flag > env > settings file > built-in default."""
        spec = setting_spec(key)
        if flag_value is not None and flag_value != [] and spec.flag:
            return ResolvedSetting(key, flag_value, SOURCE_FLAG, spec.flag)
        found = _from_env(spec, self.env)
        if found is not None:
            return ResolvedSetting(key, found[0], SOURCE_ENV, found[1])
        values = self.file_values()
        if key in values:
            return ResolvedSetting(key, values[key], SOURCE_SETTINGS, str(self.path))
        return ResolvedSetting(key, spec.default, SOURCE_DEFAULT, "built-in")

    def value(self, key: str, flag_value: Any = None) -> Any:
        return self.resolve(key, flag_value).value

    def presentation(self, key: str) -> Any:
        """A value that only changes how output looks (colour, pager, JSON indent): None when the
        file is broken, so the printing of that very error does not fail in turn."""
        try:
            return self.value(key)
        except VoraError:
            return None

    def ignored_env(self, key: str) -> list[str]:
        """Why each of `key`'s env vars that is set is unusable (`VORA_LOCK_TIMEOUT=soon`), one line
        each. Commands ignore such a value; `vora settings list/get` say so, or the operator would
        never know."""
        spec = setting_spec(key)
        if not spec.env_checked:
            return []
        found = []
        for name in spec.env:
            raw = env_value(self.env, name)
            if raw is None:
                continue
            if spec.kind in ("int", "number") and _env_number(spec, raw) is not None:
                continue
            if spec.kind not in ("int", "number") and spec.check is not None and spec.check(raw) is None:
                continue
            reason = f"{name}={raw!r} is not a usable {spec.type_name}"
            try:
                parse_value(spec, raw)
            except VoraError as error:
                reason = error.message.replace("(from the command line)", f"(from {name})")
            found.append(f"{reason}; ignored")
        return found
