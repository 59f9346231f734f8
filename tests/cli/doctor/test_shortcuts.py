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

from plugins_support import make_plugin

REPO = Path(__file__).resolve().parents[3]


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
