"""`vora plugins install SOURCE`."""

from __future__ import annotations

from vora_cli.cli.commands.plugins._render import progress_for, report_config
from vora_cli.cli.declare import command
from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import DryRunOption, JsonOption

EXAMPLES = (
    "vora plugins install -l ./my-engine --use",
    "vora plugins install ./my-engine-0.1.0.tgz",
    "vora plugins install @acme/lossless-claw@1.2.0",
    "vora plugins install ./my-engine --force",
)


@command("install", examples=EXAMPLES)
def plugins_install(
    state: AppState,
    source: Annotated[str, typer.Argument(
        help="A folder, an archive (.zip/.tgz/.tar.gz/.tar), a .js/.ts file, file:PATH, or an npm spec.")],
    link: Annotated[bool, typer.Option("--link", "-l", help="Link a local folder for development (copies nothing).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an installed copy (kept aside until the new one is in place).")] = False,
    use: Annotated[bool, typer.Option("--use", help="Also select the plugin for its slot (contextEngine or memory).")] = False,
    pin: Annotated[bool, typer.Option("--pin", help="Record an npm install as its exact <name>@<version>.")] = False,
    deps: Annotated[bool, typer.Option(
        "--deps", help="With -l: first run npm install --omit=dev --ignore-scripts in the folder (npm's progress shows).")] = False,
    allow_risky_code: Annotated[bool, typer.Option(
        "--allow-risky-code", help="Install even when the gateway's code scan finds dangerous patterns (else: stop, "
        "or ask on a terminal).")] = False,
    dry_run: DryRunOption = False,
    json: JsonOption = False,
) -> None:
    """Install a plugin from a folder, an archive, a single file or npm (or link one with -l)."""
    from vora_cli.cli.commands.plugins._render import risky_code_question
    from vora_cli.core.plugins.compat import install_gateway_version
    from vora_cli.core.plugins.install import InstallOptions, install_plugin

    out = state.output(json)
    install = state.install
    known = install_gateway_version(install)
    with progress_for(out) as progress:
        options = InstallOptions(
            link=link, force=force, use=use, dry_run=dry_run, pin=pin, deps=deps,
            stream_npm=progress is not None, gateway_version=known.version,
            progress=progress.step if progress else None, on_extract=progress.extract if progress else None,
            link_flag=out.run.typed_flag("--link", "-l"), allow_risky_code=allow_risky_code,
            confirm_risky=risky_code_question(out, progress))
        result = install_plugin(install, source, options)
    plan = result.plan
    for warning in plan.warnings:
        out.warn(warning)
    for note in result.notes:
        out.warn(note)
    for note in plan.notes:
        out.note(note)
    payload = {**plan.to_dict(), "dryRun": result.dry_run, "config": result.config.to_dict()}

    def human(o: Output) -> None:
        report_config(o, result.config)
        version = plan.version or "no version"
        prefix = "Would install" if result.dry_run else ("Linked" if plan.link else "Installed")
        verb = "->" if not plan.link else "at"
        state = ", disabled until its settings are set" if plan.needs_settings else ""
        o.line(f"{prefix} plugin {plan.plugin_id} ({version}{state}) {verb} {plan.install_path}")
        for change in plan.slot_changes:
            o.line(str(change))
        for hint in plan.slot_hints:
            o.note(hint)
        if not result.dry_run:
            o.line("Restart the gateway to load it.")

    out.emit(payload, human)
