"""The one place the plugins code reads and writes `vora.json` and parses JSON5.

Config writes belong to the lossless editor (`vora_cli.core.config.writing`); this module only adapts
its API to what the plugins code needs, so switching implementations touches this file alone
(and tests inject a failing config write by patching `write_config` here).
"""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.core.config.loading import MISSING

__all__ = ["MISSING", "ConfigEdit", "ConfigSnapshot", "ConfigWrite", "parse_json5", "read_config",
           "read_effective_config", "read_snapshot", "write_config"]

# The write side (the editor, its read-back checks and validation, the writer, a dozen records) is
# imported by `write_config`, not here: `plugins list`, `doctor` and
# `security audit` read plugin manifests through this module and write nothing.
# `ConfigEdit` too, on first use (`__getattr__` below): its module (the planner, the secrets
# rules) would be a cost `plugins list` and `config validate` only paid to define it.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.loading import LoadedConfig as ConfigSnapshot
    from vora_cli.core.config.planning import ConfigEdit
    from vora_cli.core.config.writing import ConfigWriteResult as ConfigWrite
    from vora_cli.core.install import Install


def __getattr__(name: str) -> Any:
    if name == "ConfigEdit":
        from vora_cli.core.config.planning import ConfigEdit

        return ConfigEdit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parse_json5(text: str, filename: str) -> Any:
    """Parse JSON5 text; a syntax error is `parse_error` naming the file, line and column."""
    from vora_cli.core.json5.parser import loads

    return loads(text, filename=filename)


def read_config(install: Install) -> dict[str, Any]:
    """The merged config tree as it is now (`$include` resolved; `{}` when the file does not exist)."""
    return read_snapshot(install).value


def read_effective_config(install: Install) -> dict[str, Any]:
    """The config as the gateway reads it (`$include` merged, `${VAR}` resolved): what the
    read-only views (`list`, `inspect`) discover plugins from, as `vora doctor` does (the
    install's snapshot). Planning an edit uses `read_config`, the text as written."""
    install.require_config()
    return install.effective


def read_snapshot(install: Install) -> ConfigSnapshot:
    """The config as read now (every file's bytes and tree): plan on it, then pass it to
    `write_config`. Read afresh each time: `plugins update --all` writes once per plugin."""
    from vora_cli.core.config.loading import load_config

    return load_config(install.paths, install.env)


def write_config(install: Install, edits: Sequence[ConfigEdit], *, command: str, dry_run: bool,
                 snapshot: ConfigSnapshot | None = None) -> ConfigWrite:
    """Apply `edits` in ONE lossless write (backups, audit, lock), or show them in a dry run.

    With `snapshot` the edits are planned on what was read then; if the file changed since,
    they are planned again on the new bytes under the lock (or stop with `conflict`).
    """
    from vora_cli.core.config.writing import apply_config_edits

    return apply_config_edits(install, edits, command=command, dry_run=dry_run, snapshot=snapshot)
