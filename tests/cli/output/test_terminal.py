"""Issue 15 section 4: how vora behaves at a terminal and in a pipe (docs/terminal.md).

Symbols on a non-UTF-8 stdout, FORCE_COLOR/CLICOLOR_FORCE/NO_COLOR, tables at 80 and 60
columns, --no-headers, the pager (through a real pty), the editor fallback, member-level type
errors, and closed value sets completing in real bash, zsh and fish.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from completion_support import (
    bash_complete,
    fish_complete,
    make_state,
    script,
    vora_on_path,
    zpty_tab_press,
    zsh_complete,
)
from pty_support import run_with_pty

from tests.conftest import EXAMPLES, REPO
from vora_cli.cli.tables import render_table
from vora_cli.core.doctor.fixes import FIXABLE
from vora_cli.core.doctor_names import SELECTABLE_IDS

EXAMPLE_STATE = ["--state-dir", str(EXAMPLES / "vora")]


def _process(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[bytes]:
    full = {**os.environ, **env, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "vora_cli", *args], env=full, capture_output=True, timeout=60,
                          check=False)


# -- symbols on a stdout that cannot encode them ----------------------------------------------------

ASCII_COMMANDS = [
    [*EXAMPLE_STATE, "doctor"],
    [*EXAMPLE_STATE, "context", "list"],
    [*EXAMPLE_STATE, "context", "detail"],
    [*EXAMPLE_STATE, "context", "preview"],
    [*EXAMPLE_STATE, "doctor", "--json"],
    [*EXAMPLE_STATE, "plugins", "list"],
    [*EXAMPLE_STATE, "plugins", "info", "my-engine"],
    [*EXAMPLE_STATE, "devices", "list"],
    [*EXAMPLE_STATE, "settings", "list"],
    [*EXAMPLE_STATE, "config", "schema"],
    [*EXAMPLE_STATE, "sessions", "list"],
    [*EXAMPLE_STATE, "sessions", "show", "agent:main:main"],
    [*EXAMPLE_STATE, "doctor", "--format", "github"],
]


def _on_a_stream_of(encoding: str, args: list[str]) -> tuple[int, bytes, bytes]:
    """Run the real app in-process with stdout and stderr in `encoding` (what a process gets from
    PYTHONIOENCODING or a C locale, as the real-process test below shows): exit code, the bytes."""
    from click.testing import CliRunner
    from conftest import vora_command

    result = CliRunner(mix_stderr=False, charset=encoding).invoke(vora_command(), args, catch_exceptions=False)
    return result.exit_code, result.stdout_bytes, result.stderr_bytes


# Both ways a process ends up with an ASCII stdout: the encoding named, or a C locale without UTF-8 mode.
ASCII_ENVS = [{"PYTHONIOENCODING": "ascii"}, {"LANG": "C", "LC_ALL": "C", "PYTHONUTF8": "0", "PYTHONIOENCODING": ""}]


@pytest.mark.parametrize("env", ASCII_ENVS)
@pytest.mark.parametrize("args", [[*EXAMPLE_STATE, "doctor"], [*EXAMPLE_STATE, "sessions", "show", "agent:main:main"]])
def test_an_ascii_process_stdout_gets_ascii_symbols_not_a_crash(args: list[str], env: dict[str, str]) -> None:
    """A real process: the interpreter picks the stream encoding from the environment."""
    result = _process(args, env)
    assert result.returncode in (0, 1), result.stderr
    assert b"internal" not in result.stderr and b"Traceback" not in result.stderr
    result.stdout.decode("ascii")  # every byte ASCII
    result.stderr.decode("ascii")


@pytest.mark.parametrize("args", ASCII_COMMANDS)
def test_ascii_stdout_gets_ascii_symbols_not_a_crash(args: list[str]) -> None:
    code, stdout, stderr = _on_a_stream_of("ascii", args)
    assert code in (0, 1), stderr
    assert b"internal" not in stderr and b"Traceback" not in stderr
    stdout.decode("ascii")  # every byte ASCII
    stderr.decode("ascii")


def test_ascii_doctor_marks_read_as_words() -> None:
    text = _on_a_stream_of("ascii", [*EXAMPLE_STATE, "doctor"])[1].decode("ascii")
    assert "  + config-file:" in text
    brain = _on_a_stream_of("ascii", [*EXAMPLE_STATE, "context", "list"])[1].decode("ascii")
    assert brain.startswith("* Context breakdown")
    info = _on_a_stream_of("ascii", [*EXAMPLE_STATE, "plugins", "info", "my-engine"])[1]
    assert info.decode("ascii").startswith("my-engine - My Engine")
    utf8 = _on_a_stream_of("utf-8", [*EXAMPLE_STATE, "doctor"])[1].decode("utf-8")
    assert "  \u2713 config-file:" in utf8


def test_ascii_json_stays_the_same_document() -> None:
    import json

    ascii_doc = json.loads(_on_a_stream_of("ascii", [*EXAMPLE_STATE, "doctor", "--json"])[1])
    utf8_doc = json.loads(_on_a_stream_of("utf-8", [*EXAMPLE_STATE, "doctor", "--json"])[1])
    assert ascii_doc == utf8_doc


# -- colour -------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("env", "coloured"), [
    ({"FORCE_COLOR": "1"}, True),
    ({"CLICOLOR_FORCE": "1"}, True),
    ({"FORCE_COLOR": "0"}, False),
    ({"CLICOLOR_FORCE": "0"}, False),
    ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),  # no-color.org: NO_COLOR wins
    ({}, False),  # piped, nothing forced
])
def test_colour_env(vora, env: dict[str, str], coloured: bool) -> None:
    full: dict[str, str | None] = {"NO_COLOR": None, **env}
    result = vora(*EXAMPLE_STATE, "doctor", env=full)
    assert ("\x1b[" in result.stdout) is coloured


def test_force_color_shows_in_settings(vora) -> None:
    doc = vora("settings", "get", "color", "--json", env={"NO_COLOR": None, "FORCE_COLOR": "1"}).json()
    assert (doc["value"], doc["origin"]) == ("always", "FORCE_COLOR")


# -- tables -------------------------------------------------------------------------------------------

LONG_IDS = ["req-7f3a9c12-4b5e-4f00-9d1a-0c2b3e4f5a6b", "req-b210ee00-1111-4222-8333-444455556666"]
ROWS = [[LONG_IDS[0], "ops-laptop-with-a-long-name", "new device + role upgrade (operator; admin)", "operator",
         "operator.read, operator.write, operator.admin", "203.0.113.77", "3m", "4m"],
        [LONG_IDS[1], "ci-runner", "new device", "node", "-", "-", "1h", "expired"]]
HEADERS = ["request", "device", "kind", "roles", "scopes", "ip", "age", "left"]


@pytest.mark.parametrize("width", [80, 60, 30])
def test_tables_fit_without_cutting_ids(width: int) -> None:
    lines = render_table(HEADERS, ROWS, width=width, keep=2)
    assert lines[0].split()[:2] == ["REQUEST", "DEVICE"]
    for row, line in zip(ROWS, lines[1:], strict=True):
        assert line.split()[:2] == row[:2]  # whole, never folded or cut
    key_width = max(len(r[0]) for r in ROWS) + 2 + max(len(r[1]) for r in ROWS)
    if key_width <= width:
        assert all(len(line) <= width for line in lines)
    else:  # not even the ids fit: they are printed whole, and nothing else
        assert all(len(line.split()) == 2 for line in lines)


def test_tables_shrink_then_drop_the_least_important_columns() -> None:
    at80 = render_table(HEADERS, ROWS, width=80, keep=2)
    at100 = render_table(HEADERS, ROWS, width=100, keep=2)
    at60 = render_table(HEADERS, ROWS, width=60, keep=2)
    assert "\u2026" in "".join(at100)  # a long cell shrank to fit
    assert len(at60[0].split()) <= len(at80[0].split()) < len(at100[0].split()) <= len(HEADERS)
    whole = render_table(HEADERS, ROWS, width=None, keep=2)
    assert whole[1].split("  ")[0] == LONG_IDS[0] and "operator.admin" in whole[1]


@pytest.mark.parametrize("args", [["settings", "list"], ["plugins", "list"]])
def test_no_headers_for_awk(vora, args: list[str]) -> None:
    headed = vora(*EXAMPLE_STATE, *args).stdout.splitlines()
    bare = vora(*EXAMPLE_STATE, *args, "--no-headers").stdout.splitlines()
    assert headed[0] == headed[0].upper()
    # the same rows, each cell whole and one tab between cells (`cut -f`, `awk -F'\t'`)
    assert [re.split(r" {2,}", line.strip()) for line in headed[1:]] == [line.split("\t") for line in bare]


def test_no_headers_keeps_a_name_with_spaces_in_one_field(vora) -> None:
    bare = vora(*EXAMPLE_STATE, "plugins", "list", "--no-headers").stdout.splitlines()
    # the id first; the gateway's own memory-core, which the example's memory slot names, has no name
    assert [line.split("\t")[:2] for line in bare] == [["my-engine", "My Engine"], ["memory-core", "-"]]
    assert [line.split()[0] for line in bare] == ["my-engine", "memory-core"]  # awk '{print $1}'


def test_a_cell_never_splits_a_row_or_adds_a_column() -> None:
    from vora_cli.core.text import one_line

    assert one_line("a\tb\nc") == "a\\tb\\nc"


def test_sessions_list_no_headers(vora) -> None:
    headed = vora(*EXAMPLE_STATE, "sessions", "list").stdout.splitlines()
    bare = vora(*EXAMPLE_STATE, "sessions", "list", "--no-headers").stdout.splitlines()
    assert headed[0].split()[:3] == ["KEY", "AGENT", "KIND"]
    # no header row, no summary line; the rows tab-separated
    assert [line.split() for line in bare] == [line.split() for line in headed[1:-1]] and bare
    assert all("\t" in line for line in bare)


def test_devices_list_no_headers(vora, state_dir: Path) -> None:
    make_state(state_dir)
    headed = vora("devices", "list", "--pending").stdout
    bare = vora("devices", "list", "--pending", "--no-headers").stdout
    assert "REQUEST" in headed and "Pending requests" in headed
    assert "REQUEST" not in bare and "Pending" not in bare and "req-7f3a" in bare


def _run_on_pty(args: list[str], env: dict[str, str]) -> str:
    """Run vora with stdout and stderr on a pseudo-terminal; what it printed there."""
    full = {**os.environ, **env, "PYTHONPATH": str(REPO)}
    return run_with_pty([sys.executable, "-m", "vora_cli", *args], full)[2].replace("\r\n", "\n")


def test_table_on_a_terminal_fits_80_columns(state_dir: Path) -> None:
    make_state(state_dir)
    text = _run_on_pty(["--state-dir", str(state_dir), "settings", "list"], {"COLUMNS": "60"})
    lines = [line for line in text.splitlines() if line.strip()]
    table = [line for line in lines if not line.startswith(("Settings file", "  "))]  # the note, folded
    assert table[0].startswith("KEY") and all(len(line) <= 60 for line in table)
    assert any(line.split()[0] == "doctor.fail_on" for line in table)


# -- pager --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["config", "schema"], [*EXAMPLE_STATE, "context", "preview"]])
def test_pager_on_a_terminal_never_when_piped(tmp_path: Path, args: list[str]) -> None:
    paged = tmp_path / "paged.txt"
    env = {"PAGER": f"cat > {paged}"}
    shown = _run_on_pty(args, env)
    assert paged.exists() and paged.stat().st_size > 100
    assert shown.strip() == ""  # the pager had it all
    paged.unlink()
    piped = _process(args, env)
    assert piped.returncode == 0 and not paged.exists() and len(piped.stdout) > 100


def test_pager_cat_or_missing_prints_directly(tmp_path: Path) -> None:
    for pager in ("cat", "no-such-pager-xyz"):
        shown = _run_on_pty(["config", "schema"], {"PAGER": pager})
        assert '"$schema"' in shown or '"properties"' in shown


# -- config edit ----------------------------------------------------------------------------------------

def _fake_editor(bin_dir: Path, name: str, body: str) -> None:
    bin_dir.mkdir(exist_ok=True)
    path = bin_dir / name
    path.write_text(f"#!{sys.executable}\nimport sys\npath = sys.argv[1]\ntext = open(path).read()\n{body}")
    path.chmod(0o755)


@pytest.mark.parametrize("name", ["vi", "nano"])
def test_edit_falls_back_to_vi_then_nano(vora, state_dir: Path, tmp_path: Path, name: str) -> None:
    (state_dir / "vora.json").write_text("// mine\n{ gateway: { port: 18789 } }\n")
    bin_dir = tmp_path / "bin"
    _fake_editor(bin_dir, name, "open(path, 'w').write(text.replace('18789', '18800'))\n")
    result = vora("config", "edit", env={"PATH": str(bin_dir)})
    assert result.exit_code == 0, result.stderr
    assert (state_dir / "vora.json").read_text() == "// mine\n{ gateway: { port: 18800 } }\n"


@pytest.mark.parametrize("body", ["open(path, 'w').write('{oops')\n", "open(path, 'w').write('{gateway: {port: \"x\"}}')\n",
                                  "open(path, 'wb').write(b'{a: \"\\\\xff\\xff\"}')\n"])
def test_edit_errors_name_vora_json_not_the_copy(vora, state_dir: Path, tmp_path: Path, body: str) -> None:
    config = state_dir / "vora.json"
    config.write_text("{ gateway: { port: 18789 } }\n")
    bin_dir = tmp_path / "bin"
    _fake_editor(bin_dir, "vi", body)
    result = vora("config", "edit", env={"PATH": str(bin_dir)})
    assert result.exit_code == 1
    first = result.stderr.splitlines()[0]
    assert "vora-edit-" not in first and ("vora.json" in first or "gateway.port" in first), first
    assert config.read_text() == "{ gateway: { port: 18789 } }\n"


# -- type errors name the key and the type ---------------------------------------------------------------

@pytest.mark.parametrize(("path", "value", "message"), [
    ("env.BAR", "5", "env.BAR must be a string, not integer 5"),
    ("env.FLAG", "true", "env.FLAG must be a string, not boolean true"),
    ("plugins.allow", '["a", 1]', "plugins.allow[1] must be a string, not integer 1"),
    ("gateway.port", "abc", 'gateway.port must be an integer 1-65535, not the string "abc"'),
])
def test_set_type_errors_name_key_and_type(vora, state_dir: Path, path: str, value: str, message: str) -> None:
    config = state_dir / "vora.json"
    config.write_text("{}\n")
    result = vora("config", "set", path, value)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == f"error: {message}"
    assert config.read_text() == "{}\n"


# -- closed value sets complete in every shell ---------------------------------------------------------

CASES = [
    ("vora doctor --only slot-", [i for i in SELECTABLE_IDS if i.startswith("slot-")]),
    ("vora doctor --skip config-s", [i for i in SELECTABLE_IDS if i.startswith("config-s")]),
    ("vora doctor --fix-id state", ["state-dir"]),
    ("vora doctor --fail-on ", ["error", "warn"]),
    ("vora doctor --fix ", list(FIXABLE)),
    ("vora context list --kind ", ["cron", "main", "subagent"]),
    ("vora context preview --kind s", ["subagent"]),
    ("vora context preview TOO", ["TOOLS.md"]),
    ("vora context preview ME", ["MEMORY.md"]),
    ("vora settings get doctor.", ["doctor.fail_on", "doctor.skip"]),
    ("vora plugins init x --kind ", ["context-engine", "memory"]),
]


COMMA_CASES = [
    ("vora doctor --only slot-memory,slot-", ["slot-memory,slot-context-engine", "slot-memory,slot-memory"]),
    ("vora doctor --skip a,b,state", ["a,b,state-dir"]),
]


@pytest.fixture
def shell_env(state_dir: Path, tmp_path: Path) -> dict[str, str]:
    make_state(state_dir)
    return vora_on_path(tmp_path / "bin")


@pytest.mark.parametrize(("line", "expected"), CASES)
def test_closed_sets_complete_in_bash(tmp_path: Path, shell_env: dict[str, str], line: str,
                                      expected: list[str]) -> None:
    path = tmp_path / "vora.bash"
    path.write_text(script("bash"))
    assert sorted(bash_complete(path, shell_env, line)) == sorted(expected)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
@pytest.mark.parametrize(("line", "expected"), CASES)
def test_closed_sets_complete_in_zsh(tmp_path: Path, shell_env: dict[str, str], line: str,
                                     expected: list[str]) -> None:
    path = tmp_path / "_vora"
    path.write_text(script("zsh"))
    assert sorted(zsh_complete(path, shell_env, line)) == sorted(expected)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
@pytest.mark.parametrize(("line", "expected"), CASES)
def test_closed_sets_complete_in_fish(tmp_path: Path, shell_env: dict[str, str], line: str,
                                      expected: list[str]) -> None:
    path = tmp_path / "vora.fish"
    path.write_text(script("fish"))
    assert sorted(fish_complete(path, shell_env, line)) == sorted(expected)


@pytest.mark.parametrize(("line", "expected"), COMMA_CASES)
def test_comma_lists_complete_each_item_in_bash(tmp_path: Path, shell_env: dict[str, str], line: str,
                                                expected: list[str]) -> None:
    path = tmp_path / "vora.bash"
    path.write_text(script("bash"))
    assert sorted(bash_complete(path, shell_env, line)) == sorted(expected)


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed")
@pytest.mark.parametrize(("line", "expected"), COMMA_CASES)
def test_comma_lists_complete_each_item_in_fish(tmp_path: Path, shell_env: dict[str, str], line: str,
                                                expected: list[str]) -> None:
    path = tmp_path / "vora.fish"
    path.write_text(script("fish"))
    assert sorted(fish_complete(path, shell_env, line)) == sorted(expected)


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed")
def test_comma_lists_complete_each_item_in_a_real_zsh(tmp_path: Path, shell_env: dict[str, str]) -> None:
    zdot = tmp_path / "zdot"
    zdot.mkdir()
    path = tmp_path / "_vora"
    path.write_text(script("zsh"))
    (zdot / ".zshrc").write_text(f"autoload -Uz compinit && compinit -u -D\nsource {path}\nPROMPT='> '\n")
    driver = zpty_tab_press("vora doctor --only slot-memory,slot-c\\t", ["slot-memory,slot-context-engine"])
    result = subprocess.run(["zsh", "-f", "-c", driver], capture_output=True, text=True,
                            env={**shell_env, "ZDOTDIR": str(zdot)}, timeout=60, check=False)
    assert "slot-memory,slot-context-engine" in result.stdout


# -- one pager for every long view (issue 38) -------------------------------------------------------

LONG_VIEWS = [["doctor"], ["security", "audit"], ["sessions", "show", "agent:main:main"], ["context", "detail"]]


@pytest.mark.slow
@pytest.mark.parametrize("args", LONG_VIEWS)
def test_every_long_view_goes_through_the_pager(tmp_path: Path, args: list[str]) -> None:
    """A view longer than the screen (the pty has 40 rows) is paged; what it says on stderr comes
    after the pager, so the next steps stay in sight; piped, `--no-pager` or `--json`, nothing is."""
    paged = tmp_path / "paged.txt"
    env = {"PAGER": f"cat > {paged}", "NO_COLOR": "1"}
    shown = _run_on_pty([*EXAMPLE_STATE, *args], env)
    assert paged.exists() and len(paged.read_text().splitlines()) > 40, shown
    assert not (set(paged.read_text().splitlines()) & set(shown.splitlines()) - {""})  # each line in one place
    for other in (["--no-pager"], ["--json"], ["--query", "ok"]):
        paged.unlink(missing_ok=True)
        direct = _run_on_pty([*EXAMPLE_STATE, *args, *other], env)
        assert not paged.exists() and len(direct) > 3, other
    piped = _process([*EXAMPLE_STATE, *args], env)
    assert not paged.exists() and len(piped.stdout) > 100


def test_a_view_that_fits_the_screen_is_printed_not_paged(tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    shown = _run_on_pty([*EXAMPLE_STATE, "plugins", "list"], {"PAGER": f"cat > {paged}", "NO_COLOR": "1"})
    assert not paged.exists() and shown.startswith("ID ")


def test_the_pager_setting_and_no_pager_anywhere_on_the_line(tmp_path: Path, settings_file: Path) -> None:
    paged = tmp_path / "paged.txt"
    settings_file.write_text(f'pager = "cat > {paged}"\n')
    env = {"NO_COLOR": "1", "HOME": str(settings_file.parents[2]), "VORA_HOME": str(settings_file.parents[2])}
    full = {k: v for k, v in os.environ.items() if k != "PAGER"}
    full.update(env, PYTHONPATH=str(REPO))
    run_with_pty([sys.executable, "-m", "vora_cli", *EXAMPLE_STATE, "doctor"], full, default_pager=False)
    assert paged.exists()  # the pager setting, when $PAGER is not set
    paged.unlink()
    run_with_pty([sys.executable, "-m", "vora_cli", "doctor", "--no-pager", *EXAMPLE_STATE], full, default_pager=False)
    assert not paged.exists()  # a global option, after the command too (the fast dispatch parses it)


# -- pictures (issue 38) ------------------------------------------------------------------------------

def test_context_bars_on_a_terminal_only_and_in_ascii_when_asked() -> None:
    """A bar under each file's line (raw against injected, the cap as a mark); `--ascii` draws it
    with `#`, `x` and `|`; piped, the gateway's lines alone (spec context.md)."""
    env = {"NO_COLOR": "1", "PAGER": "cat"}
    shown = _run_on_pty([*EXAMPLE_STATE, "context", "list"], env)
    lines = shown.splitlines()
    tools = lines.index(next(line for line in lines if line.startswith("- TOOLS.md: TRUNCATED")))
    bar = next(line for line in lines[tools + 1:] if line.startswith("  ") and "(" not in line)
    assert "█" in bar and "░" in bar and "│" in bar
    assert "█ injected  ░ cut  │ max/file (20,000 chars)" in shown
    ascii_shown = _run_on_pty([*EXAMPLE_STATE, "context", "list", "--ascii"], env)
    assert "# injected  x cut  | max/file" in ascii_shown and "█" not in ascii_shown
    assert "🧠" not in ascii_shown and "⚠" not in ascii_shown  # every symbol, not just the bars
    piped = _process([*EXAMPLE_STATE, "context", "list"], env).stdout.decode()
    assert "█" not in piped and "#" not in piped and "- TOOLS.md: TRUNCATED |" in piped


def test_sessions_show_draws_the_window_the_timeline_and_the_largest_segments() -> None:
    env = {"NO_COLOR": "1", "PAGER": "cat"}
    shown = _run_on_pty([*EXAMPLE_STATE, "sessions", "show", "agent:main:main", "--ascii"], env)
    assert re.search(r"^ {11}\[#+ +\] 45% of the window$", shown, re.MULTILINE), shown
    assert "  * 2025-11-29 19:00:12  auto-threshold: 118,400 -> 21,950 tok  (0000000b)" in shown
    assert re.search(r"^  \|   #+ -> #+$", shown, re.MULTILINE)
    assert re.search(r"^  #2 assistant ~38 tok +#+$", shown, re.MULTILINE)
    piped = _process([*EXAMPLE_STATE, "sessions", "show", "agent:main:main"], env).stdout.decode()
    assert "  #2 assistant ~38 tok (152 chars) 088d6470e652" in piped and "[#" not in piped


def test_colour_marks_status_values_and_diffs(tmp_path: Path) -> None:
    shutil.copytree(EXAMPLES / "vora", tmp_path / "vora")
    shutil.copytree(EXAMPLES / "plugins", tmp_path / "plugins")
    env = {"FORCE_COLOR": "1", "NO_COLOR": "", "PAGER": "cat"}
    listed = _run_on_pty(["--state-dir", str(tmp_path / "vora"), "plugins", "list"], env)
    assert "\x1b[32menabled\x1b[0m" in listed and "\x1b[1;36mcontextEngine\x1b[0m" in listed
    diff = _run_on_pty(["--state-dir", str(tmp_path / "vora"), "config", "set", "gateway.port", "1234", "--dry-run"],
                       env)
    assert "\x1b[31m-    port: 18789," in diff and "\x1b[32m+    port: 1234," in diff


def test_a_question_folds_at_the_terminal_s_width(tmp_path: Path) -> None:
    """A question longer than the terminal is folded as every line is, the answer typed after its
    last line (stdin, stdout and stderr on one terminal of 50 columns)."""
    import fcntl
    import pty
    import struct
    import subprocess
    import termios

    state = tmp_path / "vora"
    shutil.copytree(REPO / "examples" / "vora", state)
    primary, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 50, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "vora_cli", "--state-dir", str(state), "devices", "clear",
                             "--pending"], env={**{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}, "PYTHONPATH": str(REPO),
                                 "VORA_HOME": str(tmp_path)},
                            stdin=secondary, stdout=secondary, stderr=secondary)
    os.close(secondary)
    os.write(primary, b"n\n")
    chunks = []
    while True:
        try:
            data = os.read(primary, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    assert proc.wait(timeout=60) == 4
    os.close(primary)
    shown = [line for line in b"".join(chunks).decode().replace("\r\n", "\n").splitlines() if line.strip() != "n"]
    assert shown[:2] == ["Remove 1 paired device (its tokens stop working)", "  and reject 0 pending requests? [y/N] Cancelled."]
