"""`vora [GLOBAL OPTIONS] __complete KIND [PREFIX]`: the values a shell offers on TAB, answered before
typer, click or rich are imported; on any failure it prints nothing and exits 0 (docs/terminal.md,
"Completion of closed sets").
"""

from __future__ import annotations

import functools
import os
import sys
from typing import TypeVar

from vora_cli.cli.groups import GLOBAL_FLAGS, GLOBAL_VALUE_OPTIONS

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: every import here costs on each TAB press
    from collections.abc import Callable, Iterable, Iterator, Sequence
    from pathlib import Path
    from typing import Any

    from vora_cli.core.paths import VoraPaths

T = TypeVar("T")
MARKER = "__complete"
_MAX_PATHS = 5000


def split_global_options(argv: Sequence[str]) -> tuple[dict[str, Any], list[str]] | None:
    """(global options, words after `__complete`), or None when argv is not a completion call.

    Only the root's path options may come before `__complete`; anything else means this is
    an ordinary command line (`vora config get __complete` is a config path, not this entry).
    """
    options: dict[str, Any] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == MARKER:
            return options, list(argv[i + 1:])
        if word in GLOBAL_FLAGS:
            if word == "--dev":  # `--force` chooses no install: nothing to complete differently
                options["dev"] = True
        elif word in GLOBAL_VALUE_OPTIONS and i + 1 < len(argv):
            options[word[2:].replace("-", "_")] = argv[i + 1]
            i += 1
        elif "=" in word and word.split("=", 1)[0] in GLOBAL_VALUE_OPTIONS:
            name, value = word.split("=", 1)
            options[name[2:].replace("-", "_")] = value
        else:
            return None
        i += 1
    return None


def _read_text(path: os.PathLike[str] | str) -> str:
    """The file's text; a FIFO or a device in its place is an error here too (a TAB press must
    never wait on one)."""
    from vora_cli.core.reading import read_bytes

    data = read_bytes(os.fspath(path))
    if data is None:
        raise FileNotFoundError(path)
    return data.decode("utf-8")


def _read_json5(path: os.PathLike[str] | str) -> Any:
    from vora_cli.core import nesting

    text = _read_text(path)
    try:
        return nesting.loads(text)  # strict JSON is valid JSON5: skip compiling the JSON5 scanner
    except ValueError:
        from vora_cli.core.json5.parser import loads

        return loads(text, filename=str(path))


def _read_json(path: os.PathLike[str] | str) -> Any:
    from vora_cli.core import nesting

    return nesting.loads(_read_text(path))


def _keys(value: Any) -> list[str]:
    return [k for k in value if isinstance(k, str)] if isinstance(value, dict) else []


def plugin_ids(paths: VoraPaths) -> Iterator[str]:
    yield from _quietly(lambda: _config_plugin_ids(paths))
    yield from _quietly(lambda: _extension_folders(paths))


def _config_plugin_ids(paths: VoraPaths) -> list[str]:
    config = _read_json5(paths.config_path)
    plugins = config.get("plugins") if isinstance(config, dict) else None
    if not isinstance(plugins, dict):
        return []
    return _keys(plugins.get("entries")) + _keys(plugins.get("installs"))


def _extension_folders(paths: VoraPaths) -> list[str]:
    with os.scandir(paths.extensions_dir) as entries:
        return [e.name for e in entries if not e.name.startswith(".") and e.is_dir()]


def paired_device_ids(paths: VoraPaths) -> list[str]:
    return _keys(_read_json(paths.devices_dir / "paired.json"))


def pending_request_ids(paths: VoraPaths) -> list[str]:
    return _keys(_read_json(paths.devices_dir / "pending.json"))


def pending_device_ids(paths: VoraPaths) -> list[str]:
    pending = _read_json(paths.devices_dir / "pending.json")
    if not isinstance(pending, dict):
        return []
    return [r["deviceId"] for r in pending.values() if isinstance(r, dict) and isinstance(r.get("deviceId"), str)]


def config_paths(paths: VoraPaths) -> Iterator[str]:
    from vora_cli.core.config.keys import known_paths

    for known in known_paths():
        parts = known.replace("[]", ".[]").split(".")
        concrete = parts[: next((i for i, p in enumerate(parts) if p in ("*", "[]")), len(parts))]
        for end in range(1, len(concrete) + 1):
            yield ".".join(concrete[:end])
    yield from _quietly(lambda: _present_paths(_read_json5(paths.config_path)))


def _present_paths(tree: Any) -> list[str]:
    from vora_cli.core.json5.path_syntax import format_config_path

    found: list[str] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), tree)]
    while stack and len(found) < _MAX_PATHS:
        prefix, value = stack.pop()
        if isinstance(value, dict):
            children: Iterable[tuple[str | int, Any]] = value.items()
        elif isinstance(value, list) and prefix:
            children = enumerate(value)
        else:
            continue
        for key, child in children:
            path = (*prefix, key)
            found.append(format_config_path(path))
            stack.append((path, child))
    return found


def profile_names(paths: VoraPaths) -> list[str]:
    with os.scandir(paths.home) as entries:
        names = [e.name[len(".vora-"):] for e in entries if e.name.startswith(".vora-") and e.is_dir()]
    return ["default", *names]


def _store_keys(path: Path) -> list[str]:
    return _keys(_read_json(path))


def session_keys(paths: VoraPaths) -> Iterator[str]:
    """Every stored session key (the stores `sessions list --all-agents` reads), and the default
    agent's keys without their `agent:<id>:` part (`vora sessions show main`)."""
    from vora_cli.core.agents import Agents

    config = _quietly(lambda: [_read_json5(paths.config_path)])
    agents = Agents(config[0] if config and isinstance(config[0], dict) else {})
    default = f"agent:{agents.default_id}:"
    for target in _quietly(lambda: agents.store_targets(paths, all_agents=True)):
        for key in _quietly(functools.partial(_store_keys, target.path)):
            yield key
            if key.startswith(default):
                yield key[len(default):]


def _quietly(source: Callable[[], Iterable[T]]) -> list[T]:
    try:
        return list(source())
    except Exception:
        return []


SOURCES: dict[str, Callable[[VoraPaths], Iterable[str]]] = {
    "plugins": plugin_ids,
    "devices": paired_device_ids,
    "pending-devices": pending_device_ids,
    "requests": pending_request_ids,
    "config-paths": config_paths,
    "profiles": profile_names,
    "sessions": session_keys,
}


def candidates(kind: str, prefix: str, paths: VoraPaths) -> list[str]:
    source = SOURCES.get(kind)
    if source is None:
        return []
    values = _quietly(lambda: source(paths))
    if kind == "sessions" and not prefix:
        values = [v for v in values if v.startswith("agent:")]  # the whole keys first; `m<TAB>` finds `main`
    # Only printable ids: the shells quote what they insert (bash %q, zsh compadd, fish's own
    # escaping), but a newline would split one candidate in two, a tab starts fish's description,
    # and an escape sequence would be written raw into the menu on the terminal.
    return sorted({v for v in values if v.startswith(prefix) and v.isprintable()})


def run(argv: Sequence[str]) -> int | None:
    """Answer a completion call (exit code 0), or None when argv is an ordinary command line."""
    split = split_global_options(argv)
    if split is None:
        return None
    try:
        options, words = split
        from vora_cli.core.install import Install

        paths = Install(**options).paths
        kind = words[0] if words else ""
        prefix = words[1] if len(words) > 1 else ""
        found = candidates(kind, prefix, paths)
        if found:
            text = "\n".join(found) + "\n"
            if text.isascii():  # the usual case: any stdout takes it as it is (write_stdout would too)
                from vora_cli.cli.streams import quiet_stdout

                quiet_stdout(text)
            else:
                from vora_cli.cli.output import write_stdout  # no typer, click or rich behind it

                write_stdout(text, flush=True)
    except BaseException:  # a TAB press must never show an error: nothing, exit 0
        _unflushable()
    return 0


def _unflushable() -> None:
    """A write that failed (stdout full or closed) leaves its text buffered: pointed at /dev/null,
    it cannot fail again in Python's flush at exit (which would print "Exception ignored")."""
    try:
        from vora_cli.cli.streams import silence

        silence(sys.stdout)
    except BaseException:
        pass
