"""Generated files stay in step with the app; the reference covers every command; the docs index links work.

The man page `man/vora.1` is generated from the app (issue 23): every command has its section
with its usage, arguments, options and examples; it renders without a warning; it stays in step
(the drift test in tests/cli/common/test_docgen.py covers it with the other generated files).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import typer
import typer.main
from completion_support import REPO, script, vora_tree

from vora_cli import __version__
from vora_cli.cli import declare
from vora_cli.cli.common import add_command
from vora_cli.cli.docgen.gen import GENERATOR, OUTPUTS, generate, main, stale_files
from vora_cli.cli.docgen.manpage import render_manpage, roff
from vora_cli.cli.docgen.reference import render_reference
from vora_cli.cli.docgen.shell_scripts import render
from vora_cli.cli.docgen.tree import VALUE_HINTS, CommandSpec, closed_value_hints, command_tree

DOCS = REPO / "docs"


def test_committed_completion_scripts_and_reference_match_the_app() -> None:
    stale = stale_files(vora_tree())
    assert not stale, f"out of date: {', '.join(stale)}; run `{GENERATOR}` and commit the result"


def test_check_mode_finds_a_stale_file_and_writing_fixes_it(tmp_path: Path) -> None:
    for rel in OUTPUTS:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, tmp_path / rel)
    assert main(vora_tree(), ["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / "completions/vora.bash").write_text("# edited by hand\n")
    assert main(vora_tree(), ["--check", "--root", str(tmp_path)]) == 1
    assert main(vora_tree(), ["--root", str(tmp_path)]) == 0
    assert (tmp_path / "completions/vora.bash").read_text() == script("bash")


def test_the_generator_is_one_command(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "vora_cli.cli.docgen", "--check"], cwd=REPO, capture_output=True,
                            text=True, check=False)
    assert (result.returncode, result.stderr) == (0, "")
    result = subprocess.run([sys.executable, "-m", "vora_cli.cli.docgen", "--check", "--root", str(tmp_path)],
                            cwd=REPO, capture_output=True, text=True, check=False)
    assert result.returncode == 1
    assert "out of date: completions/vora.bash (run: python -m vora_cli.cli.docgen)" in result.stderr


def test_reference_has_every_command_option_argument_and_example() -> None:
    text = (DOCS / "cli-reference.md").read_text()
    tree = vora_tree()
    sections = dict(re.findall(r"^## `([^`]+)`\n(.*?)(?=^## `|\Z)", text, re.MULTILINE | re.DOTALL))
    for command in tree.walk():
        assert command.path in sections, f"{command.path} has no section"
        body = sections[command.path]
        if command.help:
            assert command.help.strip().split("\n")[0] in body
        for option in command.options:
            for name in option.names:
                assert f"`{name}`" in body, f"{command.path}: {name} missing"
            if option.default is not None:
                assert f"`{option.default}`" in body
            for env in option.envvar:
                assert f"`{env}`" in body
        for argument in command.arguments:
            assert f"`{argument.metavar}`" in body
        if command.epilog.startswith("Example"):
            assert "```console" in body
    assert "$ vora config set gateway.mode local --dry-run" in sections["vora config set"]
    # argument help, though click 8.2+ drops it from typer's TyperArgument
    assert "| `VALUE` | optional |  | The value, parsed as JSON5 (falls back to a string). Omit with --stdin. |" in sections[
        "vora config set"]


def test_value_hints_name_real_parameters() -> None:
    assert unmatched_hints(vora_tree()) == []


def test_a_new_group_shows_up_without_touching_the_generator() -> None:
    """What happens when another group merges: the walk picks it up from the app."""
    app = typer.Typer()

    @app.callback()
    def root(state_dir: str = typer.Option(None, "--state-dir")) -> None:
        """Root."""

    widgets = typer.Typer(help="Manage widgets.")

    @declare.command("spin", examples=("vora widgets spin fast", "vora widgets spin slow"))
    def widgets_spin(state: object, speed: str = typer.Argument(..., help="How fast."),
                     times: int = typer.Option(3, "--times", envvar="VORA_SPINS", help="How often."),
                     json: bool = typer.Option(False, "--json")) -> None:
        """Spin a widget."""

    add_command(widgets, widgets_spin, declare.declared_commands(widgets_spin)[0])
    app.add_typer(widgets, name="widgets")
    tree = command_tree(typer.main.get_command(app))
    assert [c.path for c in tree.walk()] == ["vora", "vora widgets", "vora widgets spin"]
    assert "'vora widgets spin')" in render("bash", tree)
    assert "'spin\tSpin a widget.'" in render("fish", tree)
    reference = render_reference(tree)
    assert "| `--times` | `INTEGER` | `3` | `VORA_SPINS` | How often. |" in reference
    assert "```console\n$ vora widgets spin fast\n$ vora widgets spin slow\n```" in reference


def test_generate_is_deterministic() -> None:
    assert generate(vora_tree()) == generate(vora_tree())


def test_docs_index_links_resolve() -> None:
    index = (DOCS / "README.md").read_text()
    links = re.findall(r"\]\(([^)#]+\.md)\)", index)
    owned_elsewhere = {"plugins.md", "devices.md", "doctor.md"}  # written by those groups' engineers
    for link in links:
        if link in owned_elsewhere and not (DOCS / link).exists():
            continue
        assert (DOCS / link).exists(), f"docs/README.md links to missing {link}"
    for page in ("cli-reference.md", "config.md", "context.md", "exit-codes-and-json.md", "errors.md",
                 "plugins.md", "devices.md", "doctor.md"):
        assert f"({page})" in index, f"docs/README.md does not link {page}"


def test_concept_pages_link_each_other() -> None:
    exit_codes = (DOCS / "exit-codes-and-json.md").read_text()
    assert "(errors.md)" in exit_codes
    from vora_cli.core.errors import ERROR_CODES

    for exit_code in sorted({code for code, _ in ERROR_CODES.values()}):
        assert f"| {exit_code} |" in exit_codes


def unmatched_hints(tree: CommandSpec) -> list[str]:
    """VALUE_HINTS entries whose command exists but whose parameter does not (a stale hint)."""
    stale: list[str] = []
    for (path, key), _kind in (VALUE_HINTS | closed_value_hints()).items():
        command = tree.find(path)
        if command is None:
            continue  # that group is not built (or not merged) yet
        if key.startswith("#"):
            ok = int(key[1:]) < len(command.arguments)
        else:
            ok = any(key in o.names and o.takes_value for o in command.options)
        if not ok:
            stale.append(f"{path} {key}")
    return stale


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
