"""`vora config validate`: the config as the gateway judges it."""

from __future__ import annotations

from vora_cli.cli.declare import command

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.cli.output import Output


@command("validate", hot=True, examples=("vora config validate --strict --json",))
def config_validate(
    state: AppState,
    strict: Annotated[bool, typer.Option("--strict", help="vora's own warnings (keys it checks more strictly than the gateway) are errors too.")] = False,
    json: JsonOption = False,
) -> int:
    """Check the config as the gateway does (its schema, its rules, each plugin's configSchema); exit 1 when invalid."""
    from vora_cli.core.plugins.facts import validate_install_config

    report = validate_install_config(state.install, strict=strict)

    def human(o: Output) -> None:
        from vora_cli.core.wording import plural

        for p in report.problems:
            o.line(p.line_text(), hanging="    ", words={"error": "bold red", "warn": "yellow"})
        if report.valid:
            said = [text for n, text in ((report.warning_count, plural(report.warning_count, "warning")),
                                         (report.info_count, f"{plural(report.info_count, 'legacy key')} the gateway "
                                                             "rewrites")) if n]
            o.line(f"{report.path}: valid" + (f" ({', '.join(said)})" if said else ""), words={"valid": "green"})
        else:
            o.line(f"{report.path}: invalid: {plural(report.error_count, 'error')}, "
                   f"{plural(report.warning_count, 'warning')}", words={"invalid": "bold red"})

    return state.output(json).emit(report.to_dict(), human, failed=not report.valid)
