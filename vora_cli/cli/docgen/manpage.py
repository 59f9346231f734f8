"""Render `man/vora.1` from the command tree: one page with every command, as `git help -a`
lists them but in man(7) form, so `man vora` answers offline what `--help` answers per command.

A generic generator (click-man, argparse-manpage) sees only the two commands the root builds
eagerly: vora's groups are imported on demand (`cli/app.py`, LAZY_GROUPS). This one walks the
tree `command_tree` builds, which imports every group, so each command has its section with its
usage, arguments, options (defaults, environment variables) and examples.

The page is plain man(7) (`.TH`, `.SH`, `.SS`, `.TP`, `.PP`, `.nf`/`.fi`, `\\fB`/`\\fI`), which
groff, mandoc and busybox's man all read. It carries the version and no date, so the committed
file only changes when the app does (the drift test compares it byte for byte).
"""

from __future__ import annotations

from vora_cli.cli.docgen.tree import ArgumentSpec, CommandSpec, OptionSpec

EXIT_STATUS = (
    ("0", "success; for checks: nothing at or above the failing severity"),
    ("1", "the operation failed, or a check found problems (doctor, security audit, config validate)"),
    ("2", "usage error: unknown option, bad argument, invalid profile name"),
    ("3", "conflict: another writer changed the file or holds the lock; nothing was written, safe to retry"),
    ("4", "cancelled: a question was answered no (or with Ctrl-D); nothing was done"),
    ("130", "interrupted (Ctrl-C)"),
)
FILES = (
    ("~/.vora/vora.json", "the config (JSON5); another state dir with --state-dir, --profile or VORA_STATE_DIR"),
    ("~/.vora/devices/pending.json, ~/.vora/devices/paired.json", "the gateway's pairing store"),
    ("~/.vora/extensions/", "installed plugins"),
    ("~/.vora/agents/AGENT/sessions/", "session stores and transcripts"),
    ("~/.config/vora/settings.toml", "your own vora settings (vora settings path shows where)"),
)


def roff(text: str) -> str:
    """`text` as man(7) source on one line: backslashes and hyphens escaped (`\\-` is the hyphen
    a terminal shows and a reader can copy), a leading `.` or `'` kept from being a request, a
    non-ASCII character as its `\\[uXXXX]` glyph and a control character as its escape text."""
    out = " ".join(text.split()).replace("\\", "\\e").replace("-", "\\-")
    if not out.isascii() or not out.isprintable():
        out = "".join(_char(c) for c in out)
    return "\\&" + out if out.startswith((".", "'")) else out


def _char(c: str) -> str:
    if ord(c) < 32 or ord(c) == 127:
        return f"\\ex{ord(c):02x}"
    return c if c.isascii() else f"\\[u{ord(c):04X}]"


def _quoted(text: str) -> str:
    return '"' + roff(text).replace('"', "\\(dq") + '"'


def _paragraphs(text: str) -> list[str]:
    lines: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        if paragraph.strip():
            lines += [".PP", roff(paragraph)]
    return lines


def _option(option: OptionSpec) -> list[str]:
    names = ", ".join(f"\\fB{roff(n)}\\fR" for n in option.names)
    if option.takes_value:
        names += f" \\fI{roff(option.metavar)}\\fR"
    facts = []
    if option.multiple:
        facts.append("repeatable")
    if option.required:
        facts.append("required")
    elif option.default is not None:
        facts.append(f"default: {option.default}")
    facts += [f"env: {e}" for e in option.envvar]
    help_text = option.help + (f" ({'; '.join(facts)})" if facts else "")
    return [".TP", names, roff(help_text) if help_text else "\\&"]


def _argument(argument: ArgumentSpec) -> list[str]:
    need = "required" if argument.required else "optional"
    if argument.variadic:
        need += ", repeatable"
    if argument.default is not None:
        need += f"; default: {argument.default}"
    return [".TP", f"\\fI{roff(argument.metavar)}\\fR", roff(f"{argument.help} ({need})".strip())]


def _examples(command: CommandSpec) -> list[str]:
    lines = _paragraphs(command.epilog) if command.epilog else []
    if not command.examples:
        return lines
    lines += [".PP", "Examples:", ".PP", ".RS 4", ".nf"]
    lines += [roff(f"$ {example}") for example in command.examples]
    return [*lines, ".fi", ".RE"]


def _summary(command: CommandSpec) -> str:
    """The command's first help paragraph, whole (`short_help` cuts it at 80 characters)."""
    return command.help.strip().split("\n\n")[0] if command.help else command.short_help


def _section(command: CommandSpec) -> list[str]:
    lines = [f".SS {_quoted(command.path)}"]
    lines += _paragraphs(command.help)
    lines += [".PP", f"\\fBUsage:\\fR {roff(f'{command.path} {command.usage}'.strip())}"]
    if command.subcommands:
        lines += [".PP", "Commands:"]
        for sub in command.subcommands:
            lines += [".TP", f"\\fB{roff(sub.path)}\\fR", roff(_summary(sub))]
    if command.arguments:
        lines += [".PP", "Arguments:"]
        for argument in command.arguments:
            lines += _argument(argument)
    options = [o for o in command.options if "--help" not in o.names]
    if options:
        lines += [".PP", "Options:"]
        for option in options:
            lines += _option(option)
    return lines + _examples(command)


def _name_line(help_text: str) -> str:
    """The NAME line's words: the root help up to its colon, `the operator toolkit for …`."""
    head = help_text.split(":")[0].strip().rstrip(".") or "the operator toolkit for Vora installs"
    return head[0].lower() + head[1:]


def render_manpage(tree: CommandSpec, version: str) -> str:
    commands = [c for c in tree.walk() if c is not tree]
    lines = [
        '.\\" generated by `python -m vora_cli.cli.docgen` from the app; do not edit by hand:',
        '.\\" tests/cli/common/test_docgen.py fails when this page drifts from the app',
        f'.TH VORA 1 "" "vora {roff(version)}" "vora manual"',
        ".nh",  # no hyphenation: a config key or an option split at a line end cannot be copied
        ".ad l",
        ".SH NAME",
        f"vora \\- {roff(_name_line(tree.help))}",
        ".SH SYNOPSIS",
        ".B vora",
        "[\\fIGLOBAL OPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...",
        ".SH DESCRIPTION",
        roff(tree.help),
        ".PP",
        roff("It works on the install's own files, offline, with no gateway running; only vora gateway, "
             "vora logs and vora doctor --live talk to a running gateway. Every command prints one JSON "
             "document with --json, errors included."),
        ".SH GLOBAL OPTIONS",
        roff("They go before or after the command, as gh and kubectl take theirs: vora config get gateway.port "
             "--profile work is vora --profile work config get gateway.port (an option of the command itself by "
             "the same name wins; nothing after -- moves). --json, --query and --quiet are also every command's own."),
    ]
    for option in tree.options:
        if "--help" not in option.names:
            lines += _option(option)
    lines += [".SH COMMAND OVERVIEW"]
    for command in commands:
        lines += [".TP", f"\\fB{roff(command.path)}\\fR", roff(_summary(command))]
    lines += [".SH COMMANDS"]
    for command in commands:
        lines += _section(command)
    lines += [".SH EXIT STATUS"]
    for code, meaning in EXIT_STATUS:
        lines += [".TP", f"\\fB{code}\\fR", roff(meaning)]
    lines += [".SH ENVIRONMENT", roff(tree.epilog)] if tree.epilog else []
    lines += [".SH FILES"]
    for path, meaning in FILES:
        lines += [".TP", f"\\fI{roff(path)}\\fR", roff(meaning)]
    lines += [
        ".SH SEE ALSO",
        roff("vora COMMAND --help; docs/cli-reference.md (the same reference as Markdown) and "
             "docs/exit-codes-and-json.md (exit codes and every JSON shape) in the source distribution, "
             "https://github.com/vora-ai/vora-cli/tree/main/docs."),
    ]
    return "\n".join(lines) + "\n"
