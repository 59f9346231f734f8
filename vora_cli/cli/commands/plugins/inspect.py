"""`vora plugins inspect ID` (alias `info`)."""

from __future__ import annotations

import json as jsonlib

from vora_cli.cli.declare import command
from vora_cli.cli.output import Output

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption


@command("inspect", examples=("vora plugins inspect my-engine --json",))
@command("info", examples=("vora plugins inspect my-engine --json",), help="Same as 'inspect'.")
def plugins_inspect(
    state: AppState,
    plugin_id: Annotated[str, typer.Argument(metavar="ID", help="The plugin id.")],
    json: JsonOption = False,
) -> None:
    """Show a plugin: manifest, package, entry files, install record, enable decision, slots, problems."""
    from vora_cli.core.plugins.compat import install_gateway_version
    from vora_cli.core.plugins.report import inspect_plugin

    install = state.install
    report = inspect_plugin(install, plugin_id, install_gateway_version(install).version)
    data = report.to_dict()

    def human(o: Output) -> None:
        p = report.plugin
        o.line(f"{p.id}" + (f" — {data['name']}" if data["name"] else ""))
        o.line(f"  status:   {report.verdict.status} ({report.verdict.reason})")
        o.line(f"  origin:   {p.origin}")
        # a link's target beside it, when the link is not the folder itself (`X -> X` says nothing)
        where = f"{p.path} -> {p.target or '(dangling)'}" if p.origin == "linked" and str(p.target) != str(p.path) \
            else str(p.path or "")
        o.line(f"  path:     {where or '(bundled with the gateway)'}")
        if data["bundled"]:
            channels = data["bundled"]["channels"]
            o.line(f"  provides: {', '.join(data['bundled']['provides'])}" + (f" ({', '.join(channels)})" if channels else ""))
        o.line(f"  kind:     {', '.join(p.kind) or '-'}")
        o.line(f"  version:  {p.version or '-'}")
        if data["names"]:
            block = data["names"]["package"]
            o.line(f"  read as:  {data['names']['manifest']}" + (f', package.json "{block}"' if block else ""))
        if data["idFrom"] and data["idFrom"] != "manifest":
            o.line(f"  id from:  {data['idFrom']}")
        if data["package"]:
            pkg = data["package"]
            o.line(f"  package:  {pkg['name']} {pkg['version'] or ''}".rstrip())
            deps = ", ".join(f"{k}@{v}" for k, v in pkg["dependencies"].items()) or "none"
            o.line(f"  deps:     {deps}")
        for entry in data["entries"]:
            o.line(f"  entry:    {entry['spec']} ({'present' if entry['exists'] else 'MISSING'})")
        if data["manifest"]:
            extra = {k: v for k, v in data["manifest"].items()
                     if k not in ("id", "name", "version", "kind", "description")}
            for key, value in extra.items():
                o.line(f"  {key}: {jsonlib.dumps(value, ensure_ascii=False)}")
        if data["install"]:
            o.line("  install:  " + jsonlib.dumps(data["install"], ensure_ascii=False))
        for check in report.slot_checks:
            owner = "selected" if check.value == p.id else f"not selected ({check.value} is)"
            state = "ok" if check.ok or check.value != p.id else f"broken at '{check.broken}'"
            o.line(f"  slot {check.slot}: {owner}" + (f", {state}" if check.value == p.id else ""))
        for problem in report.problems:
            o.line(f"  problem:  {problem}")

    state.output(json).emit(data, human)
