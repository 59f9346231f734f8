"""The command groups of `vora`, in help order, each with its help up to the first blank line; declared
once, for the app, `vora --help`, the group modules and hints. Light on purpose: no typer, no click.
"""

from __future__ import annotations

GROUP_HELP = {
    "config": "Read and edit vora.json without losing a comment.",
    "context": "What the gateway injects from the workspace bootstrap files, and what it cuts.",
    "sessions": "Session stores and transcripts: context used, compactions, what the model sees now (read-only).",
    "plugins": "Install, link, list, inspect, enable, select and remove gateway plugins.",
    "devices": (
        "Approve, reject and manage paired devices on the gateway's pairing store (works offline). vora itself "
        "connects (vora gateway, vora logs) with operator.read only, so a loopback gateway pairs it silently; "
        "another client sharing this state dir's identity that asks for more scopes then needs one approval "
        "(vora devices approve --latest)."
    ),
    "doctor": "Check a Vora install: config, slots, plugins, workspace, devices (read-only unless --fix).",
    "security": ("Audit a Vora install for what an attacker could use: files, gateway exposure, secrets, plugins, "
                 "channels."),
    "backup": "Back up an install, verify an archive by its hashes, restore it (gateway archives too).",
    "gateway": "Ask the running gateway: reachability, auth, health, memory, loaded plugins; raw RPC.",
    "logs": "Show the gateway's log lines as time, level, subsystem and message.",
    "settings": "Your own vora preferences (default profile, colour, editor, ...): a TOML file in your config dir.",
}
GROUP_NAMES = tuple(GROUP_HELP)
# The groups that work on an install, so that a hint naming one takes the global options typed
# (`vora --state-dir D plugins list`); `vora settings` is the operator's own, the same for every install.
INSTALL_GROUPS = tuple(name for name in GROUP_NAMES if name != "settings")
# The root's options that choose the install, accepted anywhere on the command line (`vora doctor
# --state-dir X` is `vora --state-dir X doctor`, as gh and kubectl take theirs): `cli/app.py` moves
# them before the command, the completion scripts offer them after it, `vora __complete` reads them.
GLOBAL_VALUE_OPTIONS = ("--state-dir", "--config", "--profile")
# `--force`: a command that has its own (`config set --force`) keeps it, and it counts as this too.
GLOBAL_FLAGS = ("--dev", "--force", "--no-pager", "--ascii")
