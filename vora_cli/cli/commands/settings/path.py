"""`vora settings path`: where the settings file is."""

from __future__ import annotations

from vora_cli.cli.declare import command
from vora_cli.core.wording import plural, size_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("path", examples=("vora settings path", "vora settings path --json"))
def settings_path(state: AppState, json: JsonOption = False) -> None:
    """Print the settings file's path (--json: and the cache dir with its size)."""
    from vora_cli.core.userdirs import cache_dir, dir_size, user_config_dir

    path = state.install.settings.path
    cache = cache_dir()
    size, files = dir_size(cache)
    payload = {"settingsFile": str(path), "exists": path.exists(), "configDir": str(user_config_dir()),
               "cacheDir": str(cache), "cacheSizeBytes": size, "cacheFiles": files}

    def human(o: Output) -> None:
        o.line(str(path))
        o.note(f"Cache: {cache} ({size_text(size)} in {plural(files, 'file')})")

    state.output(json).emit(payload, human)
