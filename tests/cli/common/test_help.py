"""Issue 23, "Terminals": help at 80 columns (every command's), the metavars, and the reference's
summaries (docs/terminal.md, "Line wrapping").

`vora --help` lists the lazy groups from `GROUP_HELP` (app.py): it must say what each group says.
"""

from __future__ import annotations

import re

import pytest
from completion_support import REPO, vora_tree

from vora_cli.cli import app as root
from vora_cli.cli.docgen.tree import CommandSpec
from vora_cli.cli.wrapping import shell_words, wrap_command, wrap_words

TREE = vora_tree()
COMMANDS = [c for c in TREE.walk()]
CLICK_TYPE_NAMES = {"TEXT", "INTEGER", "FLOAT", "BOOLEAN", "UUID", "FILENAME"}


def _help(vora, command: CommandSpec) -> str:
    result = vora(*command.path.split()[1:], "--help", env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    return result.stdout


def _examples(text: str) -> list[str]:
    """The examples a help shows, each continuation (` \\` then an indented line) joined back."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.strip() in ("Example:", "Examples:")), None)
    if start is None:
        return []
    examples: list[str] = []
    joined = ""
    for line in lines[start + 1:]:
        if not line.strip():
            break
        joined = f"{joined} {line.strip()}" if joined else line.strip()
        if joined.endswith(" \\"):
            joined = joined[:-2]
            continue
        examples.append(joined)
        joined = ""
    return examples


@pytest.mark.parametrize("command", COMMANDS, ids=[c.path for c in COMMANDS])
def test_help_fits_80_columns_and_shows_each_example_on_its_own_line(vora, command: CommandSpec) -> None:
    text = _help(vora, command)
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert _examples(text) == list(command.examples)
    assert "; vora " not in text  # examples are never joined
    # help text folds between words only: every word of every option's help is on the page whole
    words = set(text.split())
    for option in command.options:
        for word in option.help.split():
            assert word in words, (command.path, option.names[0], word)


def test_every_value_has_a_name_not_a_type() -> None:
    for command in COMMANDS:
        for option in command.options:
            if option.takes_value:
                assert option.metavar not in CLICK_TYPE_NAMES, (command.path, option.names[0], option.metavar)
    root = {o.names[0]: o.metavar for o in TREE.options}
    assert (root["--state-dir"], root["--config"], root["--profile"]) == ("DIR", "FILE", "NAME")


def test_the_doctor_help_as_an_operator_reads_it(vora) -> None:
    text = _help(vora, next(c for c in COMMANDS if c.path == "vora doctor"))
    assert text.split("\n  Examples:\n", 1)[1].splitlines()[:3] == [
        "    vora doctor", "    vora doctor --json --fail-on warn", "    vora doctor --format github"]
    assert "    vora doctor --only slot-context-engine,slot-memory" in text.splitlines()


def test_root_and_group_help_list_whole_summaries(vora) -> None:
    root = vora("--help", env={"COLUMNS": "80"}).stdout
    flat = " ".join(root.split())
    for group in TREE.subcommands:
        assert f"{group.name} {group.short_help}" in flat
        assert not group.short_help.endswith("...")
    devices = " ".join(vora("devices", "--help", env={"COLUMNS": "80"}).stdout.split())
    assert "approve Approve a pairing request: mints one fresh token per requested role (never printed)." in devices


def test_the_reference_prints_every_summary_whole() -> None:
    reference = (REPO / "docs" / "cli-reference.md").read_text(encoding="utf-8")
    listed = re.findall(r"^\s*- \[`(vora[^`]*)`\]\(#[^)]*\): (.*)$", reference, re.MULTILINE)
    assert len(listed) == len(COMMANDS) - 1
    for path, said in listed:
        command = TREE.find(path)
        assert command is not None and said == command.short_help.replace("|", "\\|")
        assert not said.endswith("...") and said.endswith((".", ")"))


# -- the folding rules themselves --------------------------------------------------------------------

def test_words_fold_at_spaces_never_inside_a_flag_or_a_path() -> None:
    text = "run --fix-id plugin-references after /srv/vora/a-very-long-folder-name/plugins is mounted"
    lines = wrap_words(text, 20, indent="  ", hanging="      ")
    assert " ".join(" ".join(lines).split()) == text
    assert lines[0].startswith("  run") and all(line.startswith("      ") for line in lines[1:])
    assert "/srv/vora/a-very-long-folder-name/plugins" in [w for line in lines for w in line.split()]


def test_a_long_command_folds_between_its_words_and_still_runs_when_pasted() -> None:
    command = "secret-tool lookup service vora | vora config set gateway.auth.token --stdin --type string"
    lines = wrap_command(command, 60, indent="    ")
    assert len(lines) == 2 and lines[0].endswith(" \\") and all(len(line) <= 60 for line in lines)
    assert " ".join(line.strip().removesuffix(" \\") for line in lines) == command
    quoted = "vora gateway call logs.tail --params '{\"limit\": 20, \"level\": \"warn\"}' --json"
    assert shell_words(quoted)[-2:] == ["'{\"limit\": 20, \"level\": \"warn\"}'", "--json"]
    assert all("'{\"limit\":" not in line or "\"warn\"}'" in line for line in wrap_command(quoted, 40))


def test_the_table_names_every_lazy_group_and_nothing_else() -> None:
    assert set(root.GROUP_HELP) == set(root.LAZY_GROUPS)


@pytest.mark.parametrize("name", root.LAZY_GROUPS)
def test_the_table_gives_each_group_s_own_short_help_at_every_width(name: str) -> None:
    real = root._build_group(name)
    stand_in = root.click.Command(name, help=root.GROUP_HELP[name])
    assert (real.short_help, real.deprecated, real.hidden) == (None, False, False)
    for limit in range(1, 400):
        assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), limit


@pytest.mark.parametrize("columns", ["50", "80", "200"])
def test_root_help_is_what_click_prints_from_the_built_groups(vora, monkeypatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(root, "_BUILT", {})  # nothing built yet, as at a real start
    listed = vora("--help").stdout
    for name in root.LAZY_GROUPS:
        root._build_group(name)  # now built: the help lists the real groups
    built = vora("--help").stdout
    assert listed == built
    assert "sessions" in listed and "settings" in listed
