"""`vora plugins list`: the plugins the gateway would find."""

from __future__ import annotations

from vora_cli.cli.declare import command
from vora_cli.core.shell import command_line

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption, NoHeadersOption
    from vora_cli.cli.output import Output


@command("list", hot=True, examples=("vora plugins list --verbose", "vora plugins list --enabled --json"))
def plugins_list(
    state: AppState,
    enabled: Annotated[bool, typer.Option("--enabled", help="Only plugins the gateway would load.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Add the reason for each enable decision.")] = False,
    json: JsonOption = False,
    no_headers: NoHeadersOption = False,
) -> int:
    """List the plugins the gateway would find: status, origin, version and path."""
    from vora_cli.core.plugins.report import list_plugins, plugin_rows, shadowed_rows

    discovery = list_plugins(state.install)
    rows = plugin_rows(discovery, enabled_only=enabled)
    shadowed = shadowed_rows(discovery)

    def human(o: Output) -> None:
        if not rows:
            o.line("No plugins found." if not enabled else "No enabled plugins.")
            o.note("Install one with: vora plugins install -l ./my-engine")
            return
        # SLOT marks the plugin each slot selects (plugins.slots): the one the gateway runs there
        headers = ["id", "name", "kind", "status", "slot", "origin", "version", "path"]
        if verbose:
            headers.extend(["read as", "reason"])
        table = []
        for row in rows:
            path = row["path"] or "(bundled with the gateway)"
            if row["origin"] == "linked" and row["target"] != row["path"]:  # never `X -> X`
                path = f"{row['path']} -> {row['target']}" if row["target"] else f"{row['path']} -> (dangling)"
            cells = [row["id"], row["name"] or "-", ",".join(row["kind"]) or "-", row["status"],
                     ",".join(row["slots"]) or "-", row["origin"], row["version"] or "-", path]
            if verbose:
                names = row["names"]
                cells.append(f"{names['manifest']}, \"{names['package']}\"" if names and names["package"]
                             else names["manifest"] if names else "-")
                cells.append(row["problem"] or row["reason"])
            table.append(cells)
        from vora_cli.cli.output import STATUS_STYLES

        slot_styles = {slot: "bold cyan" for row in rows for slot in row["slots"]}
        o.table(headers, table, keep=2, whole=("status", "slot"), styles={"status": STATUS_STYLES, "slot": slot_styles})
        for row in rows:
            if row["dangling"]:
                o.warn(f"{row['id']}: dangling link {row['path']} (fix the path or: {command_line('vora', 'plugins', 'uninstall', row['id'])})")
            elif row["problem"] and not verbose:
                o.warn(f"{row['id']}: {row['problem']}")
        for row in shadowed:
            o.note(f"{row['id']} at {row['path']} is shadowed by an earlier copy")

    return state.output(json, no_headers=no_headers).emit({"plugins": rows, "shadowed": shadowed}, human)
