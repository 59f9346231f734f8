"""The one value a run works on: the install (docs/architecture.md, "The install value"). A plain class
with `cached_property`, not a data class, so building one reads nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cached_property

from vora_cli.core.errors import VoraError
from vora_cli.core.settings.resolve import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.agents import Agents, StoreTarget, WorkspaceChoice
    from vora_cli.core.config.loading import LoadedConfig
    from vora_cli.core.newer_line import NewerLine
    from vora_cli.core.paths import VoraPaths
    from vora_cli.core.plugins.discovery import Discovery
    from vora_cli.core.sessions.store import Store, StoreError


class Install:
    """One Vora install, as this run sees it.

    `state_dir`, `config`, `profile`, `dev`: the global options as typed (None: not given).
    `env` (default `os.environ`); `settings` (default: the settings file under `env`). `paths`
    and `now_ms` pin what would otherwise be resolved; `VORA_NOW_MS` in `env` pins the clock too.
    """

    def __init__(self, *, state_dir: str | None = None, config: str | None = None, profile: str | None = None,
                 dev: bool = False, env: Mapping[str, str] | None = None, settings: Settings | None = None,
                 paths: VoraPaths | None = None, now_ms: int | None = None, force: bool = False) -> None:
        self.env: Mapping[str, str] = os.environ if env is None else env
        self.settings: Settings = Settings(self.env) if settings is None else settings
        self.flags: dict[str, Any] = {"state_dir": state_dir, "config": config, "profile": profile, "dev": dev}
        # `--force` on the command line: write even into a state dir a newer gateway line wrote.
        self.force = force
        if paths is not None:
            self.__dict__["paths"] = paths
        if now_ms is not None:
            self.__dict__["now_ms"] = now_ms

    def fresh(self) -> Install:
        """The same install read again: same options, env, settings, paths and clock; the config
        and every fact derived from it are read anew (after `doctor --fix` changed them)."""
        return Install(**self.flags, env=self.env, settings=self.settings, paths=self.paths, now_ms=self.now_ms,
                       force=self.force)

    def real_path(self, path: os.PathLike[str] | str) -> str:
        """`os.path.realpath(path)`, asked of the file system once per run (the checks that dedupe
        thousands of agents' session folders each ask for the same ones)."""
        known: dict[str, str] = self.__dict__.setdefault("_real_paths", {})
        key = os.fspath(path)
        found = known.get(key)
        if found is None:
            found = known[key] = os.path.realpath(key)
        return found

    # -- what the run knows ------------------------------------------------------------------------

    @cached_property
    def paths(self) -> VoraPaths:
        """Home, profile, state dir and config path: flag > env > settings > default."""
        from vora_cli.core.paths import resolve_paths

        return resolve_paths(**self.flags, env=self.env, settings=self.settings)

    @cached_property
    def now_ms(self) -> int:
        """The run's "now" (ms since the epoch), read once: `VORA_NOW_MS` pins it (core/clock.py)."""
        from vora_cli.core.clock import now_ms

        return now_ms(self.env)

    @cached_property
    def lock_timeout(self) -> float:
        """Seconds every write waits for another vora's lock: VORA_LOCK_TIMEOUT > setting > 10."""
        return float(self.settings.value("lock_timeout"))

    # -- the config ----------------------------------------------------------------------------------

    @cached_property
    def _loaded(self) -> tuple[LoadedConfig | None, VoraError | None]:
        from vora_cli.core.config.loading import load_config

        try:
            return load_config(self.paths, self.env), None
        except VoraError as error:
            return None, error
        except OSError as error:
            return None, VoraError("io_error", f"{self.paths.config_path}: {error.strerror}", None)

    @property
    def config(self) -> LoadedConfig | None:
        """The config snapshot ($include merged), read once; None when it cannot be read."""
        return self._loaded[0]

    @property
    def config_error(self) -> VoraError | None:
        """Why there is no config snapshot (a parse error, an unreadable file), else None."""
        return self._loaded[1]

    def require_config(self) -> LoadedConfig:
        """The config snapshot, or the error why there is none (for commands that need it)."""
        loaded, error = self._loaded
        if loaded is None:
            assert error is not None
            raise error
        return loaded

    @cached_property
    def raw_config_secrets(self) -> tuple[str, ...]:
        """The values of the secret-named `key: value` members in the config file's raw text, read
        once: for a config that does not parse its text is all there is (doctor scrubs them from
        what it shows, and its `config-secrets` check reports that the file holds some)."""
        from vora_cli.core.config.loading import raw_config_text
        from vora_cli.core.secrets import secret_values_in_text

        return tuple(secret_values_in_text(raw_config_text(self.paths.config_path) or ""))

    @cached_property
    def secret_values(self) -> frozenset[str]:
        """Every secret value this install holds, found once per run (doctor, the audit and its
        content scans each need them): the config's (as written and resolved; the raw text's secret
        members when it does not load) and the environment's secret-named variables."""
        from vora_cli.core.secrets import secret_values

        found = secret_values(dict(self.env))
        if self.config is not None:
            found |= secret_values(self.config.value, self.effective)
        else:
            found.update(self.raw_config_secrets)
        return frozenset(found)

    @cached_property
    def editable_config(self) -> LoadedConfig:
        """The config as the editing commands read it: a broken `$include` is left out (named in
        `.broken`) so that it can still be removed; the main file must parse (else it raises)."""
        from vora_cli.core.config.loading import load_config

        loaded = self.config
        if loaded is not None:
            return loaded  # every include read: the lenient read would be the same
        return load_config(self.paths, self.env, lenient=True)

    @cached_property
    def effective(self) -> dict[str, Any]:
        """The config as the gateway sees it (`${VAR}` resolved, VORA_GATEWAY_TOKEN applied);
        {} when it cannot be read: call `require_config()` first where that must stop the command."""
        return self.config.effective if self.config is not None else {}

    @cached_property
    def runtime(self) -> dict[str, Any]:
        """The effective config after the gateway's own migrations of legacy keys (what it runs
        on: a `gateway.bind` of "0.0.0.0" is "lan", a discord `dm.policy` is `dmPolicy`), for the
        checks that judge what the gateway does (core/config/migrations)."""
        tree = self.config.migrated.tree if self.config is not None else {}
        return tree if isinstance(tree, dict) else {}

    @cached_property
    def newer_line(self) -> NewerLine | None:
        """The marks of a newer gateway line in this state dir (core/newer_line.py), else None (the
        config's mark: from the lenient read when only it gets a tree)."""
        from vora_cli.core.newer_line import detect_newer_line

        loaded = self.config
        if loaded is None:
            try:
                loaded = self.editable_config
            except (VoraError, OSError):
                loaded = None
        return detect_newer_line(self.paths.state_dir, loaded.value if loaded is not None else None)

    def newer_line_seen(self) -> NewerLine | None:
        """`newer_line` for the note at the end of a run: nothing when it never looked at the install;
        else both marks, whichever path the command read the config by, or none (the config is parsed
        here then, when its bytes could hold the mark)."""
        if "paths" not in self.__dict__:
            return None
        if "_loaded" not in self.__dict__ and "newer_line" not in self.__dict__:
            from vora_cli.core.newer_line import detect_newer_line, may_hold_mark

            if not may_hold_mark(self.paths.config_path):
                return detect_newer_line(self.paths.state_dir, None)
        return self.newer_line

    @property
    def may_write_state(self) -> bool:
        """Whether vora's own bookkeeping may be written into the state dir (not a newer line's
        without `--force`): a read-only command skips it there instead of failing."""
        return self.force or self.newer_line is None

    def refuse_newer_line_write(self, what: str, *, forced: bool = False) -> None:
        """Stop a write into a newer gateway line's state dir unless `--force` (the run's, or the
        command's own `forced`): every command that writes there asks before it writes anything.
        A command's own `--force` is the run's from then on (its later writes ask again)."""
        from vora_cli.core.newer_line import refuse_write

        refuse_write(self.newer_line, what, forced=forced or self.force)
        self.force = self.force or forced

    # -- facts several parts share -------------------------------------------------------------------

    @cached_property
    def agents(self) -> Agents:
        """The agents of the effective config (core/agents.py)."""
        from vora_cli.core.agents import Agents

        return Agents(self.effective)

    @cached_property
    def workspaces(self) -> tuple[tuple[str, WorkspaceChoice | VoraError], ...]:
        """Each configured agent's workspace (the implicit agent `main` when agents.list is empty)."""
        seen: list[tuple[str, WorkspaceChoice | VoraError]] = []
        for agent_id in self.agents.ids:
            try:
                choice: WorkspaceChoice | VoraError = self.agents.workspace(agent_id, self.paths)
            except VoraError as error:
                choice = error
            seen.append((agent_id, choice))
        return tuple(seen)

    @cached_property
    def plugins(self) -> Discovery:
        """Every plugin the gateway would find, with its enable decision (core/plugins)."""
        from vora_cli.core.plugins.discovery import discover_plugins

        return discover_plugins(self.paths, self.effective, self.agents)

    @cached_property
    def session_stores(self) -> tuple[tuple[StoreTarget, Store | StoreError], ...]:
        """Every discovered session store (configured agents and stores on disk), read once."""
        from vora_cli.core.sessions.store import read_store

        targets = self.agents.store_targets(self.paths, all_agents=True)
        return tuple((target, read_store(target)) for target in targets)
