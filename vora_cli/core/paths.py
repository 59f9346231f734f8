"""Where things are: home, state dir, config file and profile (spec README, "Where things are")."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.home import env_value, os_home
from vora_cli.core.records import dataclass
from vora_cli.core.settings.resolve import SOURCE_DEFAULT, SOURCE_ENV, SOURCE_FLAG, SOURCE_SETTINGS, Settings
from vora_cli.core.text import NAME_RE, js_trim

# Where a resolved path came from, as `vora config file --json` reports it: the settings'
# sources (flag, env, settings, default), and for a state dir one of its own.
SOURCE_PROFILE = "profile"  # the state dir of the profile a flag or env var chose (~/.vora-NAME)


@dataclass(frozen=True)
class VoraPaths:
    """The resolved locations of one Vora install."""

    home: Path
    state_dir: Path
    state_dir_source: str
    config_path: Path
    config_source: str
    profile: str | None
    profile_source: str = SOURCE_DEFAULT

    @property
    def config_dir(self) -> Path:
        return self.config_path.parent

    @property
    def extensions_dir(self) -> Path:
        return self.state_dir / "extensions"

    @property
    def devices_dir(self) -> Path:
        return self.state_dir / "devices"

    @property
    def logs_dir(self) -> Path:
        return self.state_dir / "logs"

    @property
    def identity_path(self) -> Path:
        return self.state_dir / "identity" / "device.json"

    def default_workspace(self) -> Path:
        return default_workspace(self.home, self.profile)


def default_workspace(home: Path, profile: str | None) -> Path:
    """`~/.vora/workspace`, or `~/.vora/workspace-<profile>` under a profile other than default."""
    name = (profile or "").strip().lower()
    return home / ".vora" / ("workspace" if name in ("", "default") else f"workspace-{name}")


def resolve_home(env: Mapping[str, str] | None = None) -> Path:
    """`VORA_HOME`, then `HOME`, then the home the user database (`pwd`) gives.

    Unset, blank, `undefined`, `null` and a non-absolute `HOME` count as unset, so the home is
    never the current directory by accident. A leading `~` in `VORA_HOME` is the home `HOME` or
    the user database gives; a non-absolute `VORA_HOME` is a usage error, not replaced
    (docs/config.md, "Where the home is").
    """
    env = os.environ if env is None else env
    vora_home = env_value(env, "VORA_HOME")
    if vora_home is not None:
        path = _expand_tilde(vora_home, env)
        if not path.is_absolute():
            raise VoraError("usage", f"VORA_HOME={vora_home!r} is not an absolute path",
                            "set VORA_HOME to an absolute path (for example VORA_HOME=$HOME), or unset it")
        return path
    return os_home(env)


def _expand_tilde(value: str, env: Mapping[str, str]) -> Path:
    if value == "~" or value.startswith(("~/", "~\\")):
        return os_home(env) / value[2:].lstrip("/\\")
    return Path(value)


def expand_path(value: str, home: Path, base: Path | None = None, *, key: str | None = None,
                settable: bool = True) -> Path:
    """The one rule for a path a user wrote (a config value or a path flag), as the gateway
    resolves one (docs/config.md, "Paths the user writes"); relative to `base` (the config's
    folder for a config value, else the current directory). ``${VAR}`` is the loader's job: pass
    the effective value. A blank value is the caller's to refuse; one no file can have (a NUL,
    a lone surrogate) is refused here, naming `key`, the config member it came from (`settable`:
    one `vora config set KEY PATH` can mend it, not a list's member the caller cannot number).
    """
    text = js_trim(value)
    if not names_a_file(text):
        held = "a NUL character" if "\x00" in text else "a lone surrogate (a \\uD800-\\uDFFF escape)"
        change = f"vora config set {key} PATH" if key and settable else "vora config edit"
        raise VoraError("invalid", f"{key + ': ' if key else ''}{text!r} cannot name a file: it holds {held}",
                        f"write the path without it: {change}")
    if text == "~" or text.startswith(("~/", "~\\")):
        path = home / text[2:].lstrip("/\\")  # "~//x" stays under the home, as "~/x"
    else:
        path = Path(text)
        if not path.is_absolute():
            path = (base or Path.cwd()) / path
    return Path(os.path.normpath(path))


def is_within(path: str, folder: str, *, strict: bool = False) -> bool:
    """Whether `path` is `folder` (unless `strict`) or lies below it, judged on the spelling
    ("/"-separated: an absolute path or an archive member name); `/a/bc` is not within `/a/b`.
    Resolving links is the caller's (os.path.realpath, or core/backup/containment.py for an
    archive's own links)."""
    if path == folder:
        return not strict
    # `/` itself holds nothing below it here: a root that resolves to the file system's root (a
    # plugin folder or extensions dir linked to `/`) proves no containment
    return path.startswith((folder.rstrip("/") or "/") + "/")


def validate_profile(name: str) -> str:
    if not NAME_RE.match(name):
        raise VoraError(
            "usage",
            f"invalid profile name {name!r}: use 1-64 letters, digits, '_' or '-', starting with a letter or digit",
            "for example: --profile work",
        )
    return name.lower()


def resolve_paths(
    *,
    state_dir: str | None = None,
    config: str | None = None,
    profile: str | None = None,
    dev: bool = False,
    env: Mapping[str, str] | None = None,
    settings: Settings | None = None,
) -> VoraPaths:
    """Resolve home, profile, state dir and config path from the run's flags, env and settings,
    in the spec's order (docs/settings.md, "Precedence"). `settings` (default: a fresh `Settings`
    over `env`) reads its file only when a flag or env var does not settle a value.
    """
    env = os.environ if env is None else env
    settings = Settings(env) if settings is None else settings
    if dev and profile is not None:
        raise VoraError("usage", "--dev and --profile cannot be used together", "--dev is --profile dev; pick one")
    for flag, value in (("--state-dir", state_dir), ("--config", config)):
        # `--state-dir "$DIR"` with DIR unset: the current directory is never a guess (spec
        # README, "Where things are"), so a blank flag is refused, not resolved against it.
        if value is not None and not value.strip():
            raise VoraError("usage", f"{flag} was given an empty value",
                            f"pass a path to {flag}, or leave the flag out for the default")
    home = resolve_home(env)
    chosen = settings.resolve("profile", "dev" if dev else profile)
    # A profile from the settings file was checked when the file was read; one from a flag or the
    # environment is checked here (a usage error: it was typed).
    chosen_profile = validate_profile(chosen.value) if chosen.value is not None else None
    if chosen.source in (SOURCE_FLAG, SOURCE_ENV) and state_dir is None and env_value(env, "VORA_STATE_DIR") is None:
        state, state_source = _profile_state_dir(home, chosen_profile or "default"), SOURCE_PROFILE
    else:
        found = settings.resolve("state_dir", state_dir)
        if found.value is not None:
            state, state_source = expand_path(found.value, home), found.source
        elif chosen_profile is not None:  # the settings' state_dir beats the settings' profile, as the flags do
            state, state_source = _profile_state_dir(home, chosen_profile), SOURCE_SETTINGS
        else:
            state, state_source = home / ".vora", SOURCE_DEFAULT

    if config is not None:
        config_path, config_source = expand_path(config, home), SOURCE_FLAG
    elif (env_config := env_value(env, "VORA_CONFIG_PATH")) is not None:
        config_path, config_source = expand_path(env_config, home), SOURCE_ENV
    else:
        # Derived from the state dir, so it inherits the state dir's source.
        config_path, config_source = state / "vora.json", state_source

    return VoraPaths(
        home=home,
        state_dir=state.absolute(),
        state_dir_source=state_source,
        config_path=config_path.absolute(),
        config_source=config_source,
        profile=chosen_profile,
        profile_source=chosen.source,
    )


def names_a_file(text: str) -> bool:
    """Whether the OS can take `text` as a path: no NUL, no lone surrogate (a JSON5 `"\\ud800"`)."""
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        os.fsencode(text)
    except UnicodeEncodeError:
        return False
    return True


def _profile_state_dir(home: Path, profile: str) -> Path:
    return home / ".vora" if profile == "default" else home / f".vora-{profile}"
