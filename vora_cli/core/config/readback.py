"""The read-back check: vora never writes a config it could not read back."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import compress, repeat
from operator import is_not
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.config.loading import MISSING, ConfigFile, LoadedConfig, check_config_size, load_config
from vora_cli.core.config.validation import validate_tree
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.path_syntax import format_config_path
from vora_cli.core.json5.values import same_value
from vora_cli.core.paths import VoraPaths
from vora_cli.core.records import dataclass
from vora_cli.core.strict_json import refuse_non_finite

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.core.config.gateway import GatewayIssue, PluginFacts
    from vora_cli.core.config.migrations import Migrated


@dataclass(frozen=True)
class GatewayCheck:
    """How a write meets the gateway's validator: refuse what it would refuse (default), or write it
    anyway with a warning (`force`, `--force`). `plugin_facts(effective_config)` lets it check
    plugin configs too (the plugins layer builds them); without it only the schema and its rules."""

    force: bool = False
    plugin_facts: Callable[[dict[str, Any]], PluginFacts] | None = None


def _issue_keys(issues: list[GatewayIssue]) -> set[tuple[str, str]]:
    """One key per thing refused; an "Unrecognized keys" issue counts once per key it names."""
    keys: set[tuple[str, str]] = set()
    for issue in issues:
        if issue.unknown:
            keys.update((issue.gateway_path, f"unknown:{k}") for k in issue.unknown)
        else:
            keys.add((issue.gateway_path, issue.message))
    return keys


def gateway_refusals(before_write: Migrated, after_write: Migrated, touched: list[str], check: GatewayCheck) -> list[GatewayIssue]:
    """What the gateway would refuse in the touched top-level members of the config after a write
    that it did not refuse before it (an edit elsewhere never inherits an old problem); each config
    as the gateway validates it (`migrate_legacy`'s)."""
    from vora_cli.core.config.gateway import touched_issues

    before, now = before_write.source, after_write.source
    if not isinstance(now, dict):
        return []
    facts = check.plugin_facts(now) if check.plugin_facts is not None and {"plugins", "channels"} & set(touched) \
        else None
    before_facts = facts
    # asked again only when it can matter: the registry spoke, or a plugin that loads now has settings to judge
    if facts is not None and isinstance(before, dict) and check.plugin_facts is not None and (
            facts.diagnostics or facts.bundled_enabled
            or any(p.enabled and p.config_schema is not None for p in facts.plugins)):
        # What the registry says and which plugins load depend on the config (a load path, a slot, an
        # entry's `enabled`): `before` is judged on what they were then, else a write that turns on a
        # plugin with required settings unset would find the same refusal "before" and pass. The
        # plugins stay those of `now` (an edit is judged on the plugins it runs with).
        from vora_cli.core.records import replace

        then = check.plugin_facts(before)
        was_enabled = {p.id: p.enabled for p in then.plugins}
        before_facts = replace(facts, diagnostics=then.diagnostics, bundled_enabled=then.bundled_enabled,
                               plugins=tuple(replace(p, enabled=was_enabled.get(p.id, p.enabled)) for p in facts.plugins))
    old = _issue_keys(touched_issues(before_write, touched, before_facts)) if isinstance(before, dict) else set()
    fresh = []
    for issue in touched_issues(after_write, touched, facts):
        if not _issue_keys([issue]) <= old:
            fresh.append(issue)
    return fresh


def _refusal_text(issue: GatewayIssue) -> str:
    from vora_cli.core.config.gateway import unknown_key_text

    return f"{issue.gateway_path}: {issue.message}{unknown_key_text(issue.message, issue.unknown, issue.suggestion)}"


def check_reads_back(paths: VoraPaths, loaded: LoadedConfig,
                     planned: Mapping[Path, tuple[bytes, Json5Document | None]],
                     gateway: GatewayCheck | None = None) -> tuple[str, ...]:
    """Refuse a result a later read could not load (spec config.md, docs/config.md).

    The planned bytes are loaded as `load_config` will: size limit, syntax, every `$include`
    resolved; known keys gain no type error; the gateway's validator gains no refusal in the
    top-level members the change touched (under `gateway.force` those come back as warnings);
    strict JSON stays strict JSON.
    """
    gateway = gateway or GatewayCheck()
    warnings: list[str] = []
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
    # per path): validating the rest of a big config twice would cost more than the edit itself.
    before, now = loaded.value, after.value
    # An edit shares every member it did not change (`json5.values.with_value`), and a big config
    # has thousands: only the members that are not the very same object are compared, found in C.
    differ = compress(now, map(is_not, map(before.get, now, repeat(MISSING)), now.values()))
    # same_value: a NaN equals itself (a re-read NaN is another object); 1 and 1.0 are one Number
    touched = [key for key in differ if key not in before or not same_value(before[key], now[key])]
    # Judged as the gateway reads them: after its migrations of legacy keys (a `gateway.bind` of
    # "0.0.0.0" is "lan" to it), which may carry a value to another top-level key.
    from vora_cli.core.config.gateway import migrated_keys

    before, _ = migrated_keys(loaded.migrated_as_written(), touched)
    now, checked = migrated_keys(after.migrated_as_written(), touched)
    before_errors = {(p.path, p.expected) for p in validate_tree({k: before[k] for k in checked if k in before})
                     if p.severity == "error"}
    for problem in validate_tree({k: now[k] for k in checked if k in now}):
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
    warnings.extend(f"the gateway rewrites this legacy spelling as it reads the config: {message}"
                    for message in _new_legacy_keys(loaded.migrated, after.migrated))
    refused = gateway_refusals(loaded.migrated, after.migrated, [str(k) for k in touched], gateway)
    if refused and not gateway.force:
        more = f" (and {len(refused) - 1} more)" if len(refused) > 1 else ""
        raise VoraError(
            "invalid",
            f"the gateway would refuse this config: {_refusal_text(refused[0])}{more} "
            f"[{refused[0].rule} rule of {_version()}]; nothing was written",
            "fix the value, or add --force to write it anyway (the gateway will then refuse to start)",
        )
    warnings.extend(f"written with --force: the gateway will refuse to start: {_refusal_text(i)}" for i in refused)
    return tuple(warnings)


def _new_legacy_keys(before: Migrated, now: Migrated) -> list[str]:
    """The gateway's words for each legacy key a write brings in (core/config/migrations)."""
    seen = {c.message for c in before.changes}
    return [c.message for c in now.changes if c.message not in seen]


def _version() -> str:
    from vora_cli.core.config.gateway import schema_version

    return schema_version()


def is_strict_json(raw: bytes) -> bool:
    """Whether `raw` is strict JSON (RFC 8259: no comments, no NaN/Infinity, no trailing commas)."""
    try:
        nesting.loads(raw.decode("utf-8"), parse_constant=refuse_non_finite)
    except ValueError:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        return False
    return True
