"""`vora settings list|get|path`: every value with the place it came from."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from vora_cli.cli.common import JsonOption, NoHeadersOption, install_of, output
from vora_cli.cli.output import Output

KeyArgument = Annotated[str, typer.Argument(metavar="KEY", help="A setting, e.g. color or doctor.fail_on.",
                                            show_default=False)]


def shown(key: str, value: Any, *, reveal: bool = False) -> str:
    """A value as a person reads it: unset is '-', a list is comma-separated, a password inside a
    URL redacted (unless `reveal`)."""
    from vora_cli.core.settings.resolve import shown_value

    if not reveal:
        value = shown_value(key, value)
    if value is None:
        return "-"
    if isinstance(value, list):
        return ",".join(value) if value else "(none)"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def resolved_all(ctx: typer.Context) -> list[Any]:
    """Every setting resolved; the state dir and profile as the global options resolved them."""
    from vora_cli.core.settings.resolve import SETTINGS, ResolvedSetting

    install = install_of(ctx)
    paths, settings = install.paths, install.settings
    rows = []
    for key in SETTINGS:
        if key == "state_dir":
            origin = {"flag": "--state-dir", "env": "VORA_STATE_DIR", "settings": str(settings.path),
                      "profile": "--profile/VORA_PROFILE", "default": "built-in"}[paths.state_dir_source]
            source = paths.state_dir_source
            rows.append(ResolvedSetting(key, str(paths.state_dir), source, origin))
        elif key == "profile":
            origin = {"flag": "--profile/--dev", "env": "VORA_PROFILE", "settings": str(settings.path),
                      "default": "built-in"}[paths.profile_source]
            rows.append(ResolvedSetting(key, paths.profile, paths.profile_source, origin))
        else:
            rows.append(settings.resolve(key))
    return rows


def warn_ignored_env(ctx: typer.Context, out: Output, keys: list[str]) -> None:
    """An env var set to something unusable is ignored by every command: say it here."""
    settings = install_of(ctx).settings
    for key in keys:
        for reason in settings.ignored_env(key):
            out.warn(reason)


def settings_list(ctx: typer.Context, json: JsonOption = False, no_headers: NoHeadersOption = False) -> None:
    """List every setting: its value and where it came from (flag, env, settings, default)."""
    from vora_cli.core.settings.resolve import SETTINGS

    rows = resolved_all(ctx)
    path = install_of(ctx).settings.path
    payload = {"file": str(path), "exists": path.exists(),
               "settings": [{**r.to_dict(), "type": SETTINGS[r.key].type_name} for r in rows]}

    def human(o: Output) -> None:
        o.table(["KEY", "VALUE", "SOURCE", "FROM"], [[r.key, shown(r.key, r.value), r.source, r.origin] for r in rows])
        o.note(f"settings file: {path}" + ("" if path.exists() else " (not created yet)"))

    out = output(ctx, json, no_headers=no_headers)
    warn_ignored_env(ctx, out, [r.key for r in rows])
    out.emit(payload, human)


def settings_get(ctx: typer.Context, key: KeyArgument, json: JsonOption = False,
                 reveal: Annotated[bool, typer.Option(
                     "--reveal", help="Show a password inside gateway.url (hidden by default).")] = False) -> None:
    """Print one setting's value in effect (--json: with where it came from)."""
    from vora_cli.core.settings.resolve import setting_spec

    setting_spec(key)  # an unknown key is a usage error, before anything is read
    (row,) = [r for r in resolved_all(ctx) if r.key == key]

    def human(o: Output) -> None:
        o.line(shown(key, row.value, reveal=reveal))

    out = output(ctx, json)
    warn_ignored_env(ctx, out, [key])
    out.emit(row.to_dict(reveal=reveal), human)


def settings_path(ctx: typer.Context, json: JsonOption = False) -> None:
    """Print the settings file's path (--json: and the cache dir with its size)."""
    from vora_cli.core.userdirs import cache_dir, dir_size, user_config_dir

    path = install_of(ctx).settings.path
    cache = cache_dir()
    size, files = dir_size(cache)
    payload = {"settingsFile": str(path), "exists": path.exists(), "configDir": str(user_config_dir()),
               "cacheDir": str(cache), "cacheSizeBytes": size, "cacheFiles": files}

    def human(o: Output) -> None:
        o.line(str(path))
        o.note(f"cache: {cache} ({size} bytes in {files} files)")

    output(ctx, json).emit(payload, human)
