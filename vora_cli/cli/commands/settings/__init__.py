"""`vora settings`: the operator's own preferences, in the user config dir (docs/settings.md).

One small module per concern; core logic is `vora_cli/core/settings.py`, imported inside the
commands so `vora --help` stays light.
"""

from __future__ import annotations

import typer

from vora_cli.cli.commands.settings import edit, show

app = typer.Typer(
    help="Your own vora preferences (default profile, colour, editor, ...): a TOML file in your config dir.",
    no_args_is_help=True,
)

app.command("list", epilog="Examples: vora settings list; vora settings list --json")(show.settings_list)
app.command("get", epilog="Examples: vora settings get color; vora settings get doctor.fail_on --json")(
    show.settings_get
)
app.command("set", epilog="Examples: vora settings set color never; vora settings set doctor.skip devices-pending,"
            "workspace-files; vora settings set lock_timeout 30")(edit.settings_set)
app.command("unset", epilog="Example: vora settings unset profile")(edit.settings_unset)
app.command("path", epilog="Examples: vora settings path; vora settings path --json")(show.settings_path)
