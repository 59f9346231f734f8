"""What keeps `vora doctor` fast, and the shortcuts that must not change a result.

The bench (`bench/doctor_bench.py`) measures the time; these tests pin the causes: modules the
doctor does not need stay unloaded, and each shortcut gives the slow path's answer.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from plugins_support import make_plugin

from vora_cli.core.context.files import read_bootstrap_file
from vora_cli.core.text import js_trim_end, utf16_sort_key

REPO = Path(__file__).resolve().parents[2]


def _install(home: Path) -> Path:
    """A state dir with a plugin, a workspace whose TOOLS.md is truncated, and a skill."""
    state = home / ".vora"
    workspace = state / "workspace"
    (workspace / "skills" / "deploy").mkdir(parents=True)
    os.chmod(state, 0o700)
    (workspace / "AGENTS.md").write_text("# Agents\n")
    (workspace / "TOOLS.md").write_text("## Tools\n" + "tool line\n" * 5000)
    (workspace / "skills" / "deploy" / "SKILL.md").write_text("---\nname: deploy\ndescription: Ship.\n---\n")
    make_plugin(state / "extensions" / "my-engine", "my-engine")
    (state / "vora.json").write_text(
        '// doctor speed\n{ agents: { defaults: { workspace: "./workspace" } },'
        ' plugins: { slots: { contextEngine: "my-engine" } } }\n'
    )
    os.chmod(state / "vora.json", 0o600)
    return state


def test_doctor_loads_only_what_its_checks_need(home: Path) -> None:
    state = _install(home)
    script = (
        "import sys\n"
        "from vora_cli.cli.app import main\n"
        f"sys.argv = ['vora', '--state-dir', {str(state)!r}, 'doctor', '--json']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    report = json.loads(result.stdout)
    assert report["summary"]["warn"] == 1  # TOOLS.md truncated: the checks did run
    loaded = set(result.stderr.split())
    assert "vora_cli.core.context.report" in loaded
    unneeded = {
        "hashlib",  # only writes hash (core/writer.py) and scoped ids need a digest
        # (tempfile is loaded: platformdirs.unix imports it to find the settings file; ~1.5 ms)
        "vora_cli.core.context.lines",  # line ranges are `vora context detail`'s, not the doctor's
        "vora_cli.core.devices",  # no pairing store here
        "encodings.utf_16_be",  # the skills sort key needs no codec
        "rich",
    }
    assert not loaded & unneeded, sorted(loaded & unneeded)


# -- utf16_sort_key: JavaScript's sort order without a codec --------------------------------------

NAMES = st.text(
    alphabet=st.sampled_from(
        ["a", "Z", "\u00e9", "\ud7ff", "\ue000", "\uffff", "\U00010000", "\U0001f600", "\U0010ffff", "\ud800", "\udfff"]
    ),
    max_size=5,
)


@given(st.lists(NAMES, max_size=8))
def test_the_sort_key_orders_as_utf16_code_units(names: list[str]) -> None:
    expected = sorted(names, key=lambda s: s.encode("utf-16-be", "surrogatepass"))
    assert sorted(names, key=utf16_sort_key) == expected


def test_an_astral_character_sorts_below_the_top_of_the_bmp() -> None:
    # Code points say U+E000 < U+1F600; UTF-16 units say 0xD83D < 0xE000, as JavaScript sorts.
    assert sorted(["\ue000", "\U0001f600", "a"], key=utf16_sort_key) == ["a", "\U0001f600", "\ue000"]


# -- read_bootstrap_file drops trailing ASCII whitespace before decoding ----------------------------


@given(
    st.binary(max_size=200),
    st.sampled_from([b"", b" ", b"\n", b" \t\r\n\x0b\x0c" * 20, b"\xe3\x80\x80\n", b"\xe2\x82 \n"]),
)
def test_the_read_text_trims_to_what_the_spec_trims(tmp_path_factory, body: bytes, end: bytes) -> None:
    workspace = tmp_path_factory.mktemp("ws")
    (workspace / "AGENTS.md").write_bytes(body + end)
    text, reason = read_bootstrap_file(workspace, "AGENTS.md")
    assert reason is None and text is not None
    # Decode all, then JavaScript's trimEnd (spec § Which files, § Per-file trim): what the walk
    # computes from the shortened read, which keeps every non-ASCII blank for js_trim_end.
    assert js_trim_end(text) == js_trim_end((body + end).decode("utf-8", "replace"))
    assert (body + end).decode("utf-8", "replace").startswith(text)


def test_a_whitespace_only_2_mib_file_reads_as_empty(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b" \n" * (1024 * 1024))
    assert read_bootstrap_file(tmp_path, "AGENTS.md") == ("", None)


def test_a_truncated_utf8_sequence_before_trailing_blanks_is_one_replacement(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b"ok \xe2\x82   \n\n")
    assert read_bootstrap_file(tmp_path, "AGENTS.md") == ("ok \ufffd", None)


# -- an entry file must stay inside its plugin, through symlinks too -------------------------------


def _entry_error(vora, home: Path, plugin: Path) -> str | None:
    state = home / ".vora"
    state.mkdir(mode=0o700, exist_ok=True)
    (state / "vora.json").write_text("{ plugins: { load: { paths: [" + json.dumps(str(plugin)) + "] } } }\n")
    listed = vora("plugins", "list", "--json").json()["plugins"]
    assert len(listed) == 1
    error: str | None = listed[0]["problem"]
    return error


def test_an_entry_reached_through_a_symlinked_folder_outside_the_plugin_is_refused(vora, home: Path) -> None:
    outside = home / "outside"
    (outside).mkdir()
    (outside / "index.js").write_text("export default () => {};\n")
    plugin = make_plugin(home / "p1", "p1", built=False)
    (plugin / "dist").symlink_to(outside)
    assert _entry_error(vora, home, plugin) == (
        "package.json: \"vora.extensions\" entry './dist/index.js' resolves outside the plugin root"
    )


def test_an_entry_file_that_is_a_symlink_out_of_the_plugin_is_refused(vora, home: Path) -> None:
    (home / "elsewhere.js").write_text("export default () => {};\n")
    plugin = make_plugin(home / "p2", "p2", built=False)
    (plugin / "dist").mkdir()
    (plugin / "dist" / "index.js").symlink_to(home / "elsewhere.js")
    assert "resolves outside the plugin root" in (_entry_error(vora, home, plugin) or "")


def test_symlinks_that_stay_inside_the_plugin_are_fine(vora, home: Path) -> None:
    plugin = make_plugin(home / "p3", "p3", built=False)
    (plugin / "build").mkdir()
    (plugin / "build" / "index.js").write_text("export default () => {};\n")
    (plugin / "dist").symlink_to(plugin / "build")
    assert _entry_error(vora, home, plugin) is None


def test_a_plugin_folder_that_is_itself_a_symlink_is_fine(vora, home: Path) -> None:
    real = make_plugin(home / "real-p4", "p4")
    (home / "p4").symlink_to(real)
    assert _entry_error(vora, home, home / "p4") is None
