"""One `vora doctor` / `vora config validate` reads and parses each plugin's files once
(core/plugins/reads.py): vora's reader and the gateway's registry share the bytes and the parses,
each still applying its own rules to what it opened. Counted, not timed."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from install_support import make_install

from vora_cli.core import nesting
from vora_cli.core.plugins import config_io
from vora_cli.core.plugins.discovery import discover_plugins
from vora_cli.core.plugins.registry import gateway_registry

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
        real_read, real_json5, real_json = os.read, config_io.parse_json5, nesting.loads

        def read(fd: int, size: int) -> bytes:
            data = real_read(fd, size)
            if data:
                self.reads[os.readlink(f"/proc/self/fd/{fd}")] += 1
            return data

        def parse_json5(text: str, filename: str) -> Any:
            self.json5[text] += 1
            return real_json5(text, filename)

        def loads(text: str | bytes, **options: Any) -> Any:
            self.json[text if isinstance(text, str) else text.decode()] += 1
            return real_json(text, **options)

        monkeypatch.setattr(os, "read", read)
        monkeypatch.setattr(config_io, "parse_json5", parse_json5)
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
