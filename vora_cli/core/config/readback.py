"""The read-back check: vora never writes a config it could not read back (issue 12, point 4)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from vora_cli.core.config.loading import ConfigFile, LoadedConfig, check_config_size, load_config
from vora_cli.core.config.validation import validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import format_config_path
from vora_cli.core.paths import VoraPaths
from vora_cli.core.strict_json import refuse_non_finite


def check_reads_back(paths: VoraPaths, loaded: LoadedConfig,
                     planned: Mapping[Path, tuple[bytes, Json5Document | None]]) -> None:
    """Refuse a result a later read could not load (spec config.md; issue 12, point 4).

    The planned bytes are loaded the way `load_config` will load them after the write: size
    limit, syntax, every `$include` resolved (present, inside the config folder, no cycle); the
    keys vora knows must not gain a type error; a file that was strict JSON stays strict JSON.
    """
    try:
        for file, (new, _doc) in planned.items():
            check_config_size(new, file)
        # The planned documents are the editor's: their text was checked to hold exactly the
        # intended change, so their values are what a parse of the new bytes would give.
        after = load_config(paths, loaded.env, lenient=False,
                            planned={file: ConfigFile(file, new, doc) for file, (new, doc) in planned.items()})
    except VoraError as error:
        raise VoraError(error.code if error.code != "conflict" else "invalid",
                        f"the config would not load after this change ({error.message}); nothing was written",
                        error.hint) from None
    # Only the top-level members the change touched can gain an error (the schema's rules are
    # per path): validating the other 99% of a 1 MB config twice cost more than the edit itself.
    before, now = loaded.value, after.value
    touched = [key for key in now if key not in before or before[key] != now[key]]
    before_errors = {(p.path, p.expected) for p in validate_tree({k: before[k] for k in touched if k in before})
                     if p.severity == "error"}
    for problem in validate_tree({k: now[k] for k in touched}):
        if problem.severity == "error" and (problem.path, problem.expected) not in before_errors:
            raise VoraError(
                "invalid",
                f"{format_config_path(problem.path)} must be {problem.expected}, not {problem.found}; nothing was written",
                "see 'vora config schema' for the keys vora knows",
            )
    for file, (new, _doc) in planned.items():
        read = loaded.file_for(file)
        # New text copies its neighbours' style (core/json5/style.py), so in a strict-JSON file
        # only a NaN or an Infinity can make it JSON5: parse twice only when one is there.
        if read is None or read.raw is None or (b"NaN" not in new and b"Infinity" not in new):
            continue
        if is_strict_json(read.raw) and not is_strict_json(new):
            raise VoraError(
                "invalid",
                f"{file} is strict JSON and this change would make it JSON5 only (NaN or Infinity); nothing was written",
                "write a finite number, or a string such as \"Infinity\"",
            )


def is_strict_json(raw: bytes) -> bool:
    """Whether `raw` is strict JSON (RFC 8259: no comments, no NaN/Infinity, no trailing commas)."""
    try:
        json.loads(raw.decode("utf-8"), parse_constant=refuse_non_finite)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False
    return True
