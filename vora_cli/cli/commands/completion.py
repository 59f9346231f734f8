"""`vora completion SHELL`: print (or install) the shell completion script, generated from the app."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from vora_cli.cli.common import JsonOption, output, paths_of
from vora_cli.cli.output import Output


class Shell(enum.StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


EPILOG = (
    "Examples: vora completion bash --install; vora completion zsh > ~/.zfunc/_vora; "
    "vora completion fish --install; vora completion bash --json"
)


def completion(
    ctx: typer.Context,
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="The shell: bash, zsh or fish.", show_default=False)],
    install: Annotated[bool, typer.Option(
        "--install", help="Add the script to your shell start-up file as one marked block (replaced on reinstall)."
    )] = False,
    json: JsonOption = False,
) -> None:
    """Print or install the completion script for bash, zsh or fish."""
    from vora_cli.cli.docgen.shell_scripts import render
    from vora_cli.cli.docgen.tree import command_tree

    script = render(shell.value, command_tree(ctx.find_root().command))
    out = output(json)
    if not install:

        def print_script(o: Output) -> None:
            o.text(script)

        out.emit({"shell": shell.value, "script": script}, print_script)
        return

    from vora_cli.core.shell_install import BEGIN, install_completion

    result = install_completion(shell.value, script, paths_of(ctx).home)

    def human(o: Output) -> None:
        where = str(result.path)
        if result.action == "unchanged":
            o.line(f"{where} already has the current vora completion block; nothing written")
            return
        verb = "Added" if result.action == "added" else "Replaced"
        o.line(f"{verb} the vora completion block in {where} (starts at '{BEGIN}')")
        if shell is Shell.fish:
            o.note("fish loads it on the next 'vora <TAB>'")
        else:
            o.note(f"Open a new shell, or run: source {where}")

    out.emit(result.to_dict(), human)
