"""The man page `man/vora.1` is generated from the app (issue 23): every command has its section
with its usage, arguments, options and examples; it renders without a warning; it stays in step
(the drift test in test_docgen_reference.py covers it with the other generated files)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
import typer
import typer.main
from completion_support import REPO, vora_tree

from vora_cli import __version__
from vora_cli.cli import declare
from vora_cli.cli.common import add_command
from vora_cli.cli.docgen.manpage import render_manpage, roff
from vora_cli.cli.docgen.tree import command_tree

PAGE = REPO / "man" / "vora.1"


def _sections(text: str) -> dict[str, str]:
    return dict(re.findall(r'^\.SS "([^"]+)"\n(.*?)(?=^\.SS |^\.SH |\Z)', text, re.MULTILINE | re.DOTALL))


def test_every_command_has_its_section_with_usage_options_and_examples() -> None:
    tree = vora_tree()
    sections = _sections(PAGE.read_text(encoding="utf-8"))
    commands = [c for c in tree.walk() if c is not tree]
    assert len(commands) >= 45  # a generic generator sees 2 (the groups are built on demand)
    assert list(sections) == [roff(c.path) for c in commands]
    for command in commands:
        body = sections[roff(command.path)]
        assert f"\\fBUsage:\\fR {roff(command.path)}" in body
        for option in command.options:
            for name in option.names:
                assert name in ("-h", "--help") or f"\\fB{roff(name)}\\fR" in body, (command.path, name)
        for argument in command.arguments:
            assert f"\\fI{roff(argument.metavar)}\\fR" in body, (command.path, argument.metavar)
        for example in command.examples:
            assert roff(f"$ {example}") in body, (command.path, example)


def test_the_page_names_the_version_and_carries_no_date() -> None:
    head = PAGE.read_text(encoding="utf-8").splitlines()[:5]
    assert f'.TH VORA 1 "" "vora {__version__}" "vora manual"' in head


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff is not installed")
def test_groff_renders_it_without_a_warning() -> None:
    result = subprocess.run(["groff", "-man", "-ww", "-z", "-Tutf8", str(PAGE)], capture_output=True, text=True,
                            check=False, timeout=60)
    assert (result.returncode, result.stderr) == (0, "")
    text = subprocess.run(["groff", "-man", "-Tutf8", "-P-c", str(PAGE)], capture_output=True, text=True,
                          check=True, timeout=60, env={"MANWIDTH": "80", "PATH": "/usr/bin:/bin"}).stdout
    assert "vora plugins install -l" in re.sub(r".\x08", "", text)


def test_roff_escapes_what_man_would_read_as_markup() -> None:
    assert roff(".hidden request") == "\\&.hidden request"
    assert roff("'quote first") == "\\&'quote first"
    assert roff("a\\b --flag") == "a\\eb \\-\\-flag"
    assert roff("more \u2026 and \x1b") == "more \\[u2026] and \\ex1b"
    assert roff("two\n  lines") == "two lines"


def test_a_new_group_shows_up_in_the_page() -> None:
    app = typer.Typer()

    @app.callback()
    def root() -> None:
        """Root: the toolkit."""

    widgets = typer.Typer(help="Manage widgets.")

    @declare.command("spin", examples=("vora widgets spin fast", "vora widgets spin slow"))
    def widgets_spin(state: object, speed: str = typer.Argument(..., help="How fast."),
                     times: int = typer.Option(3, "--times", envvar="VORA_SPINS", help="How often.")) -> None:
        """Spin a widget."""

    add_command(widgets, widgets_spin, declare.declared_commands(widgets_spin)[0])

    app.add_typer(widgets, name="widgets")
    page = render_manpage(command_tree(typer.main.get_command(app)), "9.9.9")
    assert '.SS "vora widgets spin"' in page and "$ vora widgets spin slow" in page
    assert "\\fB\\-\\-times\\fR \\fIINTEGER\\fR\nHow often. (default: 3; env: VORA_SPINS)" in page
