"""`vora completion SHELL`: print (or install) the shell completion script, generated from the app."""

from __future__ import annotations

import enum

from vora_cli.cli.declare import command
from vora_cli.cli.output import Output
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Annotated

    import typer

    from vora_cli.cli.invocation import AppState
    from vora_cli.cli.options import JsonOption
    from vora_cli.core.shell_install import CompletionChange

class Shell(enum.StrEnum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


EXAMPLES = (
    "vora completion bash --install",
    "vora completion zsh --install",
    "vora completion fish --uninstall",
    "vora completion zsh > ~/.zfunc/_vora",
    "vora completion bash --json",
)


@command("completion", examples=EXAMPLES)
def completion(
    state: AppState,
    shell: Annotated[Shell, typer.Argument(metavar="SHELL", help="The shell: bash, zsh or fish.", show_default=False)],
    install: Annotated[bool, typer.Option(
        "--install", help="Write the script where the shell loads it (bash-completion's user dir, zsh's fpath, "
                          "fish's completions dir); again: updates it."
    )] = False,
    uninstall: Annotated[bool, typer.Option("--uninstall", help="Remove exactly what --install added.")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="With --install: replace a script, or a start-up file's vora block, that vora did not "
                        "write (a hand-written file, a symlink, your lines in the block), keeping it as .bak first.")] = False,
    json: JsonOption = False,
) -> None:
    """Print, install or uninstall the completion script for bash, zsh or fish."""
    from vora_cli.cli.app import root_command
    from vora_cli.cli.docgen.shell_scripts import render
    from vora_cli.cli.docgen.tree import command_tree

    out = state.output(json)
    if install and uninstall:
        raise VoraError("usage", "--install and --uninstall cannot be used together", "pick one")
    if force and not install:
        raise VoraError("usage", "--force goes with --install", "vora completion SHELL --install --force")
    run_install = state.install
    if uninstall:
        from vora_cli.core.shell_install import uninstall_completion

        change = uninstall_completion(shell.value, env=run_install.env, lock_timeout=run_install.lock_timeout)
        out.emit(change.to_dict(), lambda o: _render_uninstall(o, change))
        return
    script = render(shell.value, command_tree(root_command()))
    if not install:

        def print_script(o: Output) -> None:
            o.text(script, fold=False)  # a script: what a shell reads, not prose

        out.emit({"shell": shell.value, "script": script}, print_script)
        return

    from vora_cli.core.shell_install import install_completion

    change = install_completion(shell.value, script, env=run_install.env, lock_timeout=run_install.lock_timeout,
                                force=force)
    out.emit(change.to_dict(), lambda o: _render_install(o, change))


def _render_install(o: Output, change: CompletionChange) -> None:
    if not change.changed:
        o.line(f"{change.script} is current; nothing written")
    else:
        verbs = {"added": "Wrote", "replaced": "Updated", "unchanged": "Kept"}
        o.line(f"{verbs[change.script_action]} {change.script}"
               + (f" (the file that was there is kept as {change.backup})" if change.backup else ""))
    kept = f" (the file as it was is kept as {change.rc_backup})" if change.rc_backup else ""
    if change.changed and change.rc_action in ("added", "replaced"):
        o.line(f"{'Added' if change.rc_action == 'added' else 'Updated'} the vora block in {change.rc} "
               f"(puts {change.script.parent} on $fpath){kept}")
    elif change.rc_action == "removed":
        o.line(f"Removed the old vora completion block from {change.rc}{kept}")
    bash = change.bash
    if bash is not None:
        if bash.loads:
            o.note(f"{bash.reason}, in a new shell")
            return
        if bash.loads is None:
            o.warn(f"{bash.reason}; if TAB does not complete vora in a new bash, add this line to ~/.bashrc:")
        elif bash.add_line:
            o.warn(f"TAB will not complete vora yet: {bash.reason}; add this line to ~/.bashrc:")
        else:
            o.warn(f"TAB will not complete vora with this script: {bash.reason}")
        if bash.add_line:  # on stderr with its sentence: one stream holds the whole step
            o.warn_detail(bash.add_line)
        return
    if not change.changed:
        return
    if change.shell == "zsh":
        o.note(f"Open a new shell, or run: source {change.rc}" if change.rc else "Open a new shell")
    else:
        o.note("Fish loads it on the next 'vora <TAB>'")


def _render_uninstall(o: Output, change: CompletionChange) -> None:
    if not change.changed:
        o.line(f"No vora completion for {change.shell} is installed; nothing removed")
        return
    if change.script_action == "removed":
        o.line(f"Removed {change.script}")
    if change.rc_action == "removed":
        o.line(f"Removed the vora block from {change.rc}")
