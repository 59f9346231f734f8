"""What keeps `vora doctor` fast, and the shortcuts that must not change a result.

The bench (`bench/doctor_bench.py`) measures the time; these tests pin the causes: modules the
doctor does not need stay unloaded, and each shortcut gives the slow path's answer.

One `vora doctor` / `vora config validate` reads and parses each plugin's files once
(core/plugins/reads.py): vora's reader and the gateway's registry share the bytes and the parses,
each still applying its own rules to what it opened. Counted, not timed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from install_support import make_install
from plugins_support import make_plugin

from vora_cli.core import nesting
from vora_cli.core.json5 import parser as json5_parser
from vora_cli.core.plugins.discovery import discover_plugins
from vora_cli.core.plugins.registry import gateway_registry

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


PLUGINS = 6


def plugins_at(state: Path, count: int = PLUGINS) -> list[Path]:
    folders = []
    for i in range(count):
        folder = state / "extensions" / f"plugin-{i}"
        (folder / "dist").mkdir(parents=True)
        (folder / "vora.plugin.json").write_text(f'// plugin {i}\n{{ id: "plugin-{i}", configSchema: {{}} }}\n')
        (folder / "package.json").write_text(json.dumps(
            {"name": f"plugin-{i}", "version": "1.0.0", "vora": {"extensions": ["./dist/index.js"]}}))
        (folder / "dist" / "index.js").write_text("export default {};\n")
        folders.append(folder)
    # entries with a config: `config validate` asks for the plugins only then
    entries = {f"plugin-{i}": {"config": {}} for i in range(count)}
    (state / "vora.json").write_text(json.dumps({"plugins": {"entries": entries}}) + "\n")
    return folders


class Counts:
    """What the run read (by file, from the descriptor) and parsed (by text)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads: Counter[str] = Counter()
        self.json5: Counter[str] = Counter()
        self.json: Counter[str] = Counter()
        real_read, real_json5, real_json = os.read, json5_parser.loads, nesting.loads

        def read(fd: int, size: int) -> bytes:
            data = real_read(fd, size)
            if data:
                self.reads[os.readlink(f"/proc/self/fd/{fd}")] += 1
            return data

        def json5_loads(text: str, **options: Any) -> Any:
            self.json5[text] += 1
            return real_json5(text, **options)

        def loads(text: str | bytes, **options: Any) -> Any:
            self.json[text if isinstance(text, str) else text.decode()] += 1
            return real_json(text, **options)

        monkeypatch.setattr(os, "read", read)
        monkeypatch.setattr(json5_parser, "loads", json5_loads)
        monkeypatch.setattr(nesting, "loads", loads)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="names an open file by /proc/self/fd")
@pytest.mark.parametrize("command", [("doctor", "--json"), ("config", "validate", "--json")])
def test_each_plugin_file_is_read_and_parsed_once_a_run(
        tmp_path: Path, vora: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...]) -> None:
    state = tmp_path / "state"
    folders = plugins_at(state)
    counts = Counts(monkeypatch)
    vora("--state-dir", str(state), *command)
    for folder in folders:
        manifest, package = folder / "vora.plugin.json", folder / "package.json"
        assert counts.reads[str(manifest)] == 1 and counts.reads[str(package)] == 1, folder
        assert counts.json5[manifest.read_text()] == 1, folder
        assert counts.json[package.read_text()] == 1, folder


def diagnostics(state: Path) -> list[str]:
    install = make_install(state)
    discovery = discover_plugins(install.paths, install.effective)
    return [d.message for d in gateway_registry(discovery, install.paths).diagnostics]


def test_a_read_both_share_is_still_judged_by_each_readers_rules(tmp_path: Path) -> None:
    """vora's reader takes a package.json with NaN in it, the gateway reads no `openclaw` block
    from it (so no minHostVersion); the gateway refuses a hard-linked manifest vora reads."""
    state = tmp_path / "state"
    nan, linked = plugins_at(state, 2)
    block = {"extensions": ["./dist/index.js"], "install": {"minHostVersion": ">=9999.0.0"}}
    (nan / "package.json").write_text(json.dumps({"name": "plugin-0", "vora": block})[:-1] + ', "x": NaN}')
    (linked / "package.json").write_text(json.dumps({"name": "plugin-1", "vora": block}))
    os.link(linked / "vora.plugin.json", tmp_path / "second-name.json")
    install = make_install(state)
    discovery = discover_plugins(install.paths, install.effective)
    assert [p.error for p in discovery.plugins] == [None, None]  # vora's reader read both
    assert [d.message for d in gateway_registry(discovery, install.paths).diagnostics] == [
        f"unsafe plugin manifest path: {linked}/vora.plugin.json (validation)",
    ]
    (nan / "package.json").write_text(json.dumps({"name": "plugin-0", "vora": block}))
    assert any(m.startswith("plugin requires OpenClaw >=9999.0.0") for m in diagnostics(state))


@pytest.mark.parametrize(("floor", "said"), [
    (">=2026.4." + "9" * 5000, "plugin requires OpenClaw >=2026.4.999"),  # Number.parseInt: Infinity, no error
    (">=1.0." + "9" * 5000, None),  # the major part decides first
    (">=" + "9" * 400 + ".0.0", "plugin requires OpenClaw >=999"),
    (">=1.0.\u0663", "plugin manifest invalid"),  # JavaScript's \d is ASCII: an Arabic-Indic digit is none
    (">=0001.0.0", None),  # leading zeros read as the number, met
])
def test_a_min_host_version_is_read_as_the_gateway_reads_it(tmp_path: Path, floor: str, said: str | None) -> None:
    state = tmp_path / "state"
    [plugin] = plugins_at(state, 1)
    block = {"extensions": ["./dist/index.js"], "install": {"minHostVersion": floor}}
    (plugin / "package.json").write_text(json.dumps({"name": "plugin-0", "vora": block}))
    found = diagnostics(state)
    if said is None:
        assert not any("minHostVersion" in m or "requires OpenClaw" in m for m in found), found
    else:
        assert any(m.startswith(said) for m in found), found
