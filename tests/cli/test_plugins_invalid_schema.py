"""A plugin whose `configSchema` is not a JSON Schema: a one-line `invalid` error naming the plugin and
its manifest, never `internal`; the other plugins still listed.

The gateway's verdicts (openclaw 2026.4.12, `config validate` on each state below): it compiles a plugin's
schema only when it loads the plugin, and then refuses the whole config ("read failed: Error: schema is
invalid: …"); a plugin it does not load, or a config with no `plugins` section, is valid.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

BROKEN = [{"type": "objekt"}, {"type": "object", "required": 5}, {"type": "object", "properties": []},
          {"type": "object", "properties": {"a": {"minimum": "x"}}}, {"$ref": "#/nope"}]
# config -> the gateway's `config validate` verdict with bad-s installed (the same for every schema above)
GATEWAY_VALID = {'{ plugins: { entries: { "bad-s": { enabled: true } } } }': False,
                 '{ plugins: { allow: ["bad-s"] } }': False,
                 '{ plugins: { entries: { "bad-s": { enabled: false } } } }': True,
                 "{}": True}


def _plugin(root: Path, plugin_id: str, schema: object) -> Path:
    root.mkdir(parents=True)
    (root / "openclaw.plugin.json").write_text(json.dumps({"id": plugin_id, "configSchema": schema}))
    (root / "package.json").write_text(json.dumps({"name": plugin_id, "version": "1.0.0", "type": "module",
                                                   "openclaw": {"extensions": ["./index.js"]}}))
    (root / "index.js").write_text(f'export default {{ id: "{plugin_id}", register() {{}} }};\n')
    return root


def _one_line_invalid(run: Run, *needles: str) -> None:
    assert run.exit_code == 1, run.stdout
    error = run.json()["error"] if run.stdout.startswith("{") else None
    text = error["message"] if error else run.stderr.splitlines()[0]
    assert (error or {}).get("code", "invalid") == "invalid"
    assert "internal" not in run.stderr and "Traceback" not in run.stderr
    for needle in needles:
        assert needle in text, text


@pytest.mark.parametrize("schema", BROKEN)
@pytest.mark.parametrize("link", [False, True])
def test_install_refuses_with_the_plugin_and_its_manifest(schema: object, link: bool, tmp_path: Path,
                                                          state_dir: Path, vora: Callable[..., Run]) -> None:
    source = _plugin(tmp_path / "src" / "bad-s", "bad-s", schema)
    (state_dir / "vora.json").write_text("{}\n")
    run = vora("plugins", "install", *(["-l"] if link else []), str(source), "--json")
    _one_line_invalid(run, "plugin bad-s", str(source / "openclaw.plugin.json"), "not a valid JSON Schema")
    assert (state_dir / "vora.json").read_text() == "{}\n"
    assert not (state_dir / "extensions").exists() or not list((state_dir / "extensions").iterdir())


@pytest.mark.parametrize("schema", BROKEN)
@pytest.mark.parametrize("config", sorted(GATEWAY_VALID))
def test_every_command_names_the_broken_schema(schema: object, config: str, state_dir: Path,
                                               vora: Callable[..., Run]) -> None:
    _plugin(state_dir / "extensions" / "bad-s", "bad-s", schema)
    _plugin(state_dir / "extensions" / "good-s", "good-s", {"type": "object"})
    (state_dir / "vora.json").write_text(config)
    validate = vora("config", "validate", "--json")
    assert validate.json()["valid"] is GATEWAY_VALID[config], validate.stdout
    assert validate.exit_code == (0 if GATEWAY_VALID[config] else 1)
    if not GATEWAY_VALID[config]:
        messages = [p["message"] for p in validate.json()["problems"] if p["severity"] == "error"]
        assert any("plugin bad-s" in m and "openclaw.plugin.json" in m and "not a valid JSON Schema" in m
                   for m in messages), messages
    listed = vora("plugins", "list", "--json")
    rows = {row["id"]: row for row in listed.json()["plugins"]}
    assert rows["good-s"]["status"] == "enabled" or "allow" in config
    if not GATEWAY_VALID[config] or config == "{}":  # a plugin the gateway would load
        assert rows["bad-s"]["status"] == "error" and "not a valid JSON Schema" in rows["bad-s"]["problem"]


@pytest.mark.parametrize("config", sorted(config for config, valid in GATEWAY_VALID.items() if not valid))
def test_doctor_audit_inspect_and_enable_say_it_too(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    _plugin(state_dir / "extensions" / "bad-s", "bad-s", BROKEN[0])
    (state_dir / "vora.json").write_text(config)
    inspect = vora("plugins", "inspect", "bad-s", "--json")
    assert inspect.exit_code == 0 and "not a valid JSON Schema" in inspect.json()["problem"], inspect.stdout
    doctor = {c["id"]: c for c in vora("doctor", "--json").json()["checks"]}
    assert doctor["config-schema"]["status"] == "error" and "plugin bad-s" in doctor["config-schema"]["message"]
    assert doctor["plugin-manifests"]["status"] == "error"
    audit = vora("security", "audit", "--json")
    assert audit.exit_code in (0, 1) and "\"error\"" not in audit.stdout and not audit.stderr, audit.stderr
    enable = vora("plugins", "enable", "bad-s", "--json")
    _one_line_invalid(enable, "plugin bad-s", "openclaw.plugin.json", "not a valid JSON Schema")
