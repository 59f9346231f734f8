"""Rendering shared by the plugins commands: config write reports and progress."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.progress import TerminalProgress
    from vora_cli.core.config.writing import ConfigWriteResult
    from vora_cli.core.plugins.install_scan import InstallScan


@contextmanager
def progress_for(out: Output) -> Iterator[TerminalProgress | None]:
    """Progress on stderr, only when stderr is a terminal (never in --json mode); closed on the
    way out, so what follows (the result, an error) starts on a fresh line."""
    from vora_cli.cli.progress import terminal_progress

    progress = terminal_progress(out.run, out.json_mode)
    try:
        yield progress
    finally:
        if progress is not None:
            progress.close()


def report_config(out: Output, write: ConfigWriteResult) -> None:
    """The diff on a dry run; which file was written otherwise (stderr, like every write note)."""
    if out.json_mode:
        return
    if write.dry_run:
        for f in write.files:
            out.diff(f.diff)
        out.note("Dry run: nothing was written.")
        return
    if not write.changed:
        out.note("No change to the config")
    for f in write.files:
        backup = f" (backup: {f.backup})" if f.backup else ""
        out.note(f"Wrote {f.path}{backup}")


def toggle_plugin(state: AppState, plugin_id: str, enabled: bool, dry_run: bool, json: bool) -> None:
    """`plugins enable`/`disable`: set `plugins.entries.<id>.enabled`, report it."""
    from vora_cli.core.plugins.selection import set_plugin_enabled

    out = state.output(json)
    result = set_plugin_enabled(state.install, plugin_id, enabled, dry_run=dry_run)
    for warning in result.warnings:
        out.warn(warning)

    def human(o: Output) -> None:
        report_config(o, result.config)
        word = "enabled" if enabled else "disabled"
        if not result.config.changed:
            o.line(f"{plugin_id} is already {word} in plugins.entries")
        else:
            o.line(f"{'Would set' if result.config.dry_run else 'Set'} plugins.entries[\"{plugin_id}\"].enabled = "
                   f"{'true' if enabled else 'false'}")
            o.line("Restart the gateway to apply it.")

    out.emit(result.to_dict(), human)


def risky_code_question(out: Output, progress: TerminalProgress | None) -> Callable[[str, InstallScan], bool]:
    """What install asks when the gateway's code scan finds dangerous patterns: on a terminal, the
    patterns (file:line) and "install anyway?"; elsewhere (a pipe, --json) no, so the install stops
    with the patterns and the `--allow-risky-code` hint."""
    import sys

    from vora_cli.cli.output import stdin_is_interactive, write_stderr

    def ask(plugin_id: str, scan: InstallScan) -> bool:
        if out.json_mode or not stdin_is_interactive():
            return False
        if progress is not None:
            progress.close()
        for finding in scan.critical:
            out.warn(f"{plugin_id}: dangerous code pattern: {finding}")
        write_stderr(f"Install {plugin_id} anyway? The gateway's own installer blocks it. [y/N] ")
        return sys.stdin.readline().strip().lower() in ("y", "yes")

    return ask
