"""What a config write did, as every writing `vora config` command reports it."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from vora_cli.cli.output import Output
    from vora_cli.core.config.writing import ConfigWriteResult


def _inline(value: Any) -> str:
    """A value inside a one-line change message (a number as JavaScript prints it)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        from vora_cli.core.strict_json import js_number

        return js_number(value)
    from vora_cli.cli.json_text import to_json

    return to_json(value, indent=None, js_numbers=True)


def report_write(out: Output, result: ConfigWriteResult, *, show_diff: bool) -> int:
    """The changes (and the diff), then `Wrote FILE` on stderr."""
    def human(o: Output) -> None:
        if not result.changed:
            o.line("No change")
            return
        if show_diff or result.dry_run:
            for f in result.files:
                o.diff(f.diff)
        would = "Would " if result.dry_run else ""  # a dry run says what it would do, never that it did
        for change in result.changes:
            if change.action == "remove":
                o.line(f"{would}{'remove' if would else 'Removed'} {change.path} (was {_inline(change.old)})")
            elif change.action == "add":
                o.line(f"{would}{'set' if would else 'Set'} {change.path}: {_inline(change.new)}")
            else:
                o.line(f"{would}{'update' if would else 'Updated'} {change.path}: {_inline(change.old)} -> "
                       f"{_inline(change.new)}")
        for warning in result.warnings:
            o.warn(warning)
        if result.dry_run:
            o.note("Dry run: nothing was written.")
        else:
            for f in result.files:
                backup = f" (backup: {f.backup})" if f.backup else ""
                o.note(f"Wrote {f.path}{backup}")

    return out.emit(result.to_dict, human, js_numbers=True)
