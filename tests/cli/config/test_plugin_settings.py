"""A bundled plugin the gateway loads is validated even when no settings are set: memory-lancedb
requires `embedding`, so a config that selects it with none set is one the gateway refuses to start on.

The verdicts are the gateway's own `config validate --json` (openclaw 2026.4.12) on each config below.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

MISSING = "plugins.entries.memory-lancedb.config.embedding"
# config -> the gateway's verdict: None when valid, else the path of its one issue
GATEWAY = {
    '{plugins:{slots:{memory:"memory-lancedb"}}}': MISSING,
    '{plugins:{entries:{"memory-lancedb":{enabled:true}}}}': None,  # on, but the slot selects memory-core
    '{plugins:{entries:{"memory-lancedb":{enabled:true}},slots:{memory:"memory-lancedb"}}}': MISSING,
    '{plugins:{slots:{memory:"memory-lancedb"},entries:{"memory-lancedb":{enabled:false}}}}': None,
    '{plugins:{slots:{memory:"memory-lancedb"},deny:["memory-lancedb"]}}': None,
    '{plugins:{slots:{memory:"memory-lancedb"},entries:{"memory-lancedb":{config:{embedding:{apiKey:"sk-x"}}}}}}': None,
    '{plugins:{enabled:false,slots:{memory:"memory-lancedb"}}}': None,
    '{plugins:{slots:{memory:"memory-lancedb"},entries:{"memory-lancedb":{config:{}}}}}': MISSING,
}


@pytest.mark.parametrize("config", sorted(GATEWAY))
def test_validate_gives_the_gateways_verdict(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(config + "\n")
    report = vora("config", "validate", "--json").json()
    errors = [p["key"] for p in report["problems"] if p["severity"] == "error"]
    assert report["valid"] is (GATEWAY[config] is None), report
    assert errors == ([GATEWAY[config]] if GATEWAY[config] else [])


@pytest.mark.parametrize(("start", "args"), [
    ("{}", ("config", "set", "plugins.slots.memory", "memory-lancedb")),
    ('{plugins:{entries:{"memory-lancedb":{enabled:true}}}}', ("config", "set", "plugins.slots.memory", "memory-lancedb")),
    ('{plugins:{slots:{memory:"memory-lancedb"},entries:{"memory-lancedb":{config:{embedding:{apiKey:"sk-x"}}}}}}',
     ("config", "unset", "plugins.entries.memory-lancedb.config")),
    ('{plugins:{slots:{memory:"memory-lancedb"},entries:{"memory-lancedb":{enabled:false}}}}',
     ("config", "set", "plugins.entries.memory-lancedb.enabled", "true")),
    ('{plugins:{slots:{memory:"memory-lancedb"},deny:["memory-lancedb"]}}', ("config", "unset", "plugins.deny")),
])
def test_a_write_that_leaves_it_loaded_without_settings_is_refused(start: str, args: tuple[str, ...], state_dir: Path,
                                                                   vora: Callable[..., Run]) -> None:
    path = state_dir / "vora.json"
    path.write_text(start + "\n")
    run = vora(*args)
    assert run.exit_code == 1, run.stdout
    assert "embedding" in run.stderr and "internal" not in run.stderr
    assert path.read_text() == start + "\n"
    assert json.loads(json.dumps(vora("config", "validate", "--json").json()["valid"])) is True


@pytest.mark.parametrize(("start", "args"), [
    ('{plugins:{entries:{"keyed-a":{enabled:false}}}}', ("config", "set", "plugins.entries.keyed-a.enabled", "true")),
    ('{plugins:{deny:["keyed-a"]}}', ("config", "unset", "plugins.deny")),
    ('{plugins:{entries:{"keyed-a":{config:{apiKey:"k"}}}}}', ("config", "unset", "plugins.entries.keyed-a.config")),
])
def test_the_same_for_an_installed_plugin(start: str, args: tuple[str, ...], state_dir: Path,
                                          vora: Callable[..., Run]) -> None:
    # the gateway's verdict on keyed-a loaded with no apiKey: tests/data/upstream (required-config-missing)
    root = state_dir / "extensions" / "keyed-a"
    root.mkdir(parents=True)
    (root / "openclaw.plugin.json").write_text(json.dumps({"id": "keyed-a", "configSchema": {
        "type": "object", "required": ["apiKey"], "properties": {"apiKey": {"type": "string"}}}}))
    (root / "package.json").write_text(json.dumps({"name": "keyed-a", "version": "1.0.0", "type": "module",
                                                   "openclaw": {"extensions": ["./index.js"]}}))
    (root / "index.js").write_text('export default { id: "keyed-a", register() {} };\n')
    path = state_dir / "vora.json"
    path.write_text(start + "\n")
    run = vora(*args)
    assert run.exit_code == 1 and "apiKey" in run.stderr, (run.stdout, run.stderr)
    assert path.read_text() == start + "\n"
