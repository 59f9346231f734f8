"""`vora config validate` and every config write say what the gateway's plugin registry raises.

The review's case (h27): `{ plugins: { load: { paths: ["/nonexistent/x"] } } }` is refused by the
gateway (openclaw 2026.4.12: `plugins.load.paths: plugin: plugin path not found: /nonexistent/x`)
and refuses to start; vora said valid. The gateway's answers on that class are recorded in
`tests/data/upstream/validate_verdicts.json` (`tests/core/config/test_gateway_verdicts.py`); this
file holds the commands: exit codes, messages, the JSON document, positions, refused writes,
`--force`, and secrets. The core side (the registry's rules vora cannot ask the gateway about
here) is `tests/core/plugins/test_plugin_registry.py`.

An unknown key is named, with the known key it is a typo of (issue 38): the gateway's schema
(zod: `Unrecognized key: "prot"`), a channel's schema and a plugin's configSchema (ajv: "must NOT
have additional properties", which names neither), alike in `config validate`, `config set` and
doctor; the gateway's words stay (and its rule: refused), vora says more. Nothing is guessed for a
key far from every known one.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import EXAMPLES, Run

from vora_cli.core.config.gateway import bundled_channel_schemas
from vora_cli.core.plugins.bundled import bundled_ids, bundled_plugin

MISSING = '{ plugins: { load: { paths: ["/nonexistent/x"] } } }\n'
GATEWAY_WORDS = "plugins.load.paths: plugin: plugin path not found: /nonexistent/x"


def test_validate_refuses_a_load_path_that_does_not_exist(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(MISSING)
    run = vora("config", "validate")
    assert run.exit_code == 1
    assert run.stdout.splitlines() == [
        f"{config}:1:30: error: {GATEWAY_WORDS}",
        f"{config}: invalid: 1 error, 0 warnings",
    ]
    assert config.read_text() == MISSING


def test_validate_json_names_the_gateway_path_rule_and_position(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(MISSING)
    run = vora("config", "validate", "--json")
    assert run.exit_code == 1
    doc = run.json()
    assert (doc["valid"], doc["errors"], doc["warnings"], doc["gatewayVersion"]) == (False, 1, 0, "openclaw 2026.4.12")
    assert doc["problems"] == [{
        "severity": "error", "file": str(config), "line": 1, "col": 30, "key": "plugins.load.paths",
        "message": "plugin: plugin path not found: /nonexistent/x", "expected": None, "found": None,
        "suggestion": None, "gatewayKey": "plugins.load.paths", "rule": "plugins",
    }]


def test_each_problem_points_at_the_load_path_that_raised_it(vora, state_dir: Path) -> None:
    (state_dir / "plugins" / "empty").mkdir(parents=True)
    (state_dir / "plugins" / "notes.txt").write_text("x\n")
    config = state_dir / "vora.json"
    config.write_text('{\n  plugins: {\n    load: {\n      paths: [\n        "plugins/empty",\n'
                      '        "~/gone",\n        "plugins/notes.txt",\n      ],\n    },\n  },\n}\n')
    run = vora("config", "validate")
    assert run.exit_code == 1
    home = state_dir.parent
    assert run.stdout.splitlines()[:2] == [
        f"{config}:6:9: error: plugins.load.paths: plugin: plugin path not found: {home}/gone",
        f"{config}:7:9: error: plugins: plugin: plugin path is not a supported file: {state_dir}/plugins/notes.txt",
    ]


def test_an_installed_plugin_without_a_manifest_id_is_refused_once_plugins_are_configured(vora, state_dir: Path) -> None:
    broken = state_dir / "extensions" / "noid"
    broken.mkdir(parents=True)
    (broken / "index.js").write_text("export default {};\n")
    (broken / "openclaw.plugin.json").write_text("{ configSchema: {} }\n")
    config = state_dir / "vora.json"
    config.write_text("{ gateway: { port: 18789 } }\n")
    assert vora("config", "validate").exit_code == 0  # the gateway loads no registry for this config
    config.write_text("{ gateway: { port: 18789 }, plugins: {} }\n")
    run = vora("config", "validate")
    assert run.exit_code == 1
    assert f"{config}:1:29: error: plugins: plugin: plugin manifest requires id" in run.stdout
    doctor = vora("doctor", "--only", "config-schema")
    assert doctor.exit_code == 1 and "plugin: plugin manifest requires id" in doctor.stdout


def test_config_set_refuses_a_missing_load_path_in_the_gateways_words(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{ gateway: { port: 18789 } }\n")
    before = config.read_bytes()
    run = vora("config", "set", "plugins.load.paths", '["./missing"]')
    assert run.exit_code == 1
    assert run.stderr.splitlines() == [
        f"error: the gateway would refuse this config: plugins.load.paths: plugin: plugin path not found: "
        f"{state_dir}/missing [plugins rule of openclaw 2026.4.12]; nothing was written",
        "hint: fix the value, or add --force to write it anyway (the gateway will then refuse to start)",
    ]
    assert config.read_bytes() == before and not (state_dir / "vora.json.bak").exists()
    as_json = vora("config", "set", "plugins.load.paths", '["./missing"]', "--json")
    assert as_json.exit_code == 1
    assert as_json.json()["error"]["code"] == "invalid"
    assert f"plugin path not found: {state_dir}/missing" in as_json.json()["error"]["message"]
    assert config.read_bytes() == before


def test_force_writes_it_with_the_gateways_warning(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{ gateway: { port: 18789 } }\n")
    run = vora("config", "set", "plugins.load.paths", '["./missing"]', "--force")
    assert run.exit_code == 0, run.stderr
    assert (f"warning: written with --force: the gateway will refuse to start: plugins.load.paths: plugin: "
            f"plugin path not found: {state_dir}/missing") in run.stderr
    assert config.read_text() == '{ gateway: { port: 18789 }, plugins: { load: { paths: ["./missing"] } } }\n'


def test_only_a_new_missing_path_blocks_a_write(vora, state_dir: Path) -> None:
    """An old problem never blocks an edit: a config already naming a missing path takes a port
    change, and a second path is refused only for what it adds (the `before` of a write is judged on
    what its own load paths raised)."""
    (state_dir / "plugins" / "empty").mkdir(parents=True)
    config = state_dir / "vora.json"
    config.write_text('{ gateway: { port: 18789 }, plugins: { load: { paths: ["./missing"] } } }\n')
    assert vora("config", "set", "gateway.port", "18790").exit_code == 0
    assert vora("config", "set", "plugins.load.paths[1]", "./plugins/empty").exit_code == 0
    refused = vora("config", "set", "plugins.load.paths[2]", "/nope")
    assert refused.exit_code == 1
    assert "plugin path not found: /nope [plugins rule" in refused.stderr
    assert "missing" not in refused.stderr
    assert vora("config", "unset", "plugins.load.paths[0]").exit_code == 0
    assert vora("config", "validate").exit_code == 0


def test_a_password_in_a_load_path_is_never_printed(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text('{ plugins: { load: { paths: ["https://deploy:hunter2secret@plugins.example/p"] } } }\n')
    for run in (vora("config", "validate"), vora("config", "validate", "--json"), vora("doctor", "--json")):
        assert run.exit_code == 1
        assert "hunter2secret" not in run.stdout + run.stderr
    shown = vora("config", "validate", "--json").json()["problems"][0]["message"]
    assert shown == f"plugin: plugin path not found: {state_dir}/https:/deploy:<redacted>@plugins.example/p"
    config.write_text("{}\n")
    refused = vora("config", "set", "plugins.load.paths", json.dumps(["https://deploy:hunter2secret@plugins.example/p"]))
    assert refused.exit_code == 1
    assert "hunter2secret" not in refused.stdout + refused.stderr and "deploy:<redacted>@" in refused.stderr


CASES = [
    # (config path, value, the gateway's words, what vora adds)
    ("gateway", '{"mode": "local", "prot": 1}', 'gateway: Unrecognized key: "prot"', " — did you mean 'port'?"),
    ("channels.telegram", '{"botTokn": "x"}', "channels.telegram: invalid config: must NOT have additional properties",
     ": unknown key 'botTokn' — did you mean 'botToken'?"),
    ('plugins.entries["my-engine"].config', '{"keepTurn": 3}',
     "plugins.entries.my-engine.config: invalid config: must NOT have additional properties",
     ": unknown key 'keepTurn' — did you mean 'keepTurns'?"),
    ('plugins.entries["my-engine"].config', '{"zzzz": 3}',
     "plugins.entries.my-engine.config: invalid config: must NOT have additional properties", ": unknown key 'zzzz'"),
]


@pytest.fixture
def state(tmp_path: Path) -> Path:
    shutil.copytree(EXAMPLES / "vora", tmp_path / "vora")
    shutil.copytree(EXAMPLES / "plugins", tmp_path / "plugins")
    return tmp_path / "vora"


@pytest.mark.parametrize(("path", "value", "words", "more"), CASES, ids=["zod", "channel", "plugin", "far"])
def test_set_validate_and_doctor_name_the_key(vora: Callable[..., Run], state: Path, path: str, value: str,
                                              words: str, more: str) -> None:
    before = (state / "vora.json").read_bytes()
    refused = vora("--state-dir", str(state), "config", "set", path, value)
    assert refused.exit_code == 1 and (state / "vora.json").read_bytes() == before
    assert f"{words}{more} [" in refused.stderr, refused.stderr
    assert ("did you mean" in refused.stderr) == ("did you mean" in more)
    assert vora("--state-dir", str(state), "config", "set", path, value, "--force").exit_code == 0
    validated = vora("--state-dir", str(state), "config", "validate")
    assert validated.exit_code == 1 and f"error: {words}{more}\n" in validated.stdout, validated.stdout
    doctor = vora("--state-dir", str(state), "doctor", "--only", "config-schema")
    assert f"{words}{more}" in doctor.stdout, doctor.stdout
    # JSON keeps the gateway's words; the near key is the problem's `suggestion`, as for zod's
    problem = vora("--state-dir", str(state), "config", "validate", "--json").json()["problems"][0]
    assert problem["message"] == words.split(": ", 1)[1]
    assert (problem["suggestion"] is None) == ("did you mean" not in more)


def test_the_first_near_miss_of_several_unknown_keys(vora: Callable[..., Run], state: Path) -> None:
    vora("--state-dir", str(state), "config", "set", "gateway", json.dumps({"mode": "local", "zzz": 1, "bnd": 2}),
         "--force")
    said = vora("--state-dir", str(state), "config", "validate").stdout
    assert 'gateway: Unrecognized keys: "zzz", "bnd" — did you mean \'bind\' for \'bnd\'?' in said


# A channel is known when a plugin provides it: the shipped config schema also describes `qa-channel`,
# which no plugin of openclaw 2026.4.12 provides, and the gateway's `config validate --json` calls it unknown.
# The verdicts below are the gateway's.

CHANNEL_CASES = {
    '{channels:{"qa-channel":{enabled:true}}}': [("error", "channels.qa-channel", "unknown channel id: qa-channel")],
    '{channels:{"qa-channel":{}},plugins:{}}': [("error", "channels.qa-channel", "unknown channel id: qa-channel")],
    '{channels:{telegram:{botToken:"x"}}}': [],
}


@pytest.mark.parametrize("config", sorted(CHANNEL_CASES))
def test_known_channels_are_the_plugins(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(config + "\n")
    report = vora("config", "validate", "--json").json()
    assert [(p["severity"], p["key"], p["message"]) for p in report["problems"]] == CHANNEL_CASES[config]
    assert report["valid"] is not CHANNEL_CASES[config]


def test_every_schema_channel_but_qa_channel_has_a_bundled_plugin() -> None:
    provided = {c for pid in bundled_ids() for c in bundled_plugin(pid).channels}  # type: ignore[union-attr]
    assert set(bundled_channel_schemas()) - provided == {"qa-channel"} and provided <= set(bundled_channel_schemas())


# Plugin ids the gateway removed (google-gemini-cli-auth, google-antigravity-auth) are a warning wherever the
# config names them, never an error: the gateway's `config validate --json` (openclaw 2026.4.12) says valid on
# each config below but the last, whose id (another case) is not one it removed.

REMOVED = "(stale config entry ignored; remove it from plugins config)"
# config -> (the gateway's verdict, vora's problems: severity, key, message)
REMOVED_CASES = {
    '{plugins:{deny:["google-gemini-cli-auth"]}}':
        (True, [("warn", "plugins.deny", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{allow:["google-antigravity-auth","lobster"]}}':
        (True, [("warn", "plugins.allow", f"plugin removed: google-antigravity-auth {REMOVED}")]),
    '{plugins:{entries:{"google-gemini-cli-auth":{enabled:true}}}}':
        (True, [("warn", "plugins.entries.google-gemini-cli-auth", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{slots:{memory:"google-gemini-cli-auth"}}}':
        (True, [("warn", "plugins.slots.memory", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{deny:["Google-Gemini-CLI-Auth"]}}':
        (False, [("error", "plugins.deny", "plugin not found: Google-Gemini-CLI-Auth")]),
}


@pytest.mark.parametrize("config", sorted(REMOVED_CASES))
def test_a_removed_plugin_is_a_warning(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(config + "\n")
    report = vora("config", "validate", "--json").json()
    valid, problems = REMOVED_CASES[config]
    assert report["valid"] is valid
    assert [(p["severity"], p["key"], p["message"]) for p in report["problems"]] == problems


# The sandbox's Docker rules (the gateway's zod refinements; its answers on these shapes are the
# `sandbox-*` cases of validate_cases.json): validate, doctor and a write share one verdict.

SANDBOX_CONFIG = """{
  agents: {
    defaults: { sandbox: { docker: { network: "bridge" } } },
    list: [{ id: "main" }, { id: "ops", sandbox: { docker: { binds: ["/srv/ops:/ops"] } } }],
  },
}
"""


def test_validate_and_doctor_point_at_a_refused_sandbox_setting(vora: Callable[..., Run], state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(SANDBOX_CONFIG.replace('network: "bridge"', 'network: " Host"')
                      .replace('"/srv/ops:/ops"', '"ops:/ops"'))
    run = vora("config", "validate")
    assert run.exit_code == 1
    assert (f'{config}:3:38: error: agents.defaults.sandbox.docker.network: Sandbox security: network mode "host" '
            'is blocked. Use "bridge" or "none" instead.') in run.stdout
    assert (f'{config}:4:70: error: agents.list[1].sandbox.docker.binds[0]: Sandbox security: bind mount '
            '"ops:/ops" uses a non-absolute source path "ops".') in run.stdout
    problems = vora("config", "validate", "--json").json()["problems"]
    assert [(p["gatewayKey"], p["rule"]) for p in problems] == [
        ("agents.defaults.sandbox.docker.network", "refine"), ("agents.list.1.sandbox.docker.binds.0", "refine")]
    doctor = vora("doctor", "--only", "config-schema")
    assert doctor.exit_code == 1 and 'Sandbox security: network mode "host" is blocked' in doctor.stdout


@pytest.mark.parametrize(("path", "value", "message"), [
    ("agents.defaults.sandbox.docker.network", "HOST", 'network mode "host" is blocked'),
    ("agents.list[1].sandbox.docker.network", "container:db", 'network mode "container:*" is blocked by default'),
    ("agents.list[1].sandbox.docker.binds[1]", "./cache:/cache", 'non-absolute source path "./cache"'),
    ("agents.list[0].sandbox", '{docker: {seccompProfile: " Unconfined"}}', 'seccomp profile "unconfined"'),
    ("agents.defaults.sandbox.docker.apparmorProfile", "unconfined", 'apparmor profile "unconfined"'),
    ("agents.defaults.sandbox.browser", '{network: "container:chrome"}', 'browser network mode "container:*"'),
])
def test_config_set_refuses_a_sandbox_setting_the_gateway_refuses(vora: Callable[..., Run], state_dir: Path,
                                                                  path: str, value: str, message: str) -> None:
    config = state_dir / "vora.json"
    config.write_text(SANDBOX_CONFIG)
    run = vora("config", "set", path, value)
    assert run.exit_code == 1
    assert run.stderr.startswith("error: the gateway would refuse this config: agents.")
    assert message in run.stderr and "[refine rule of openclaw 2026.4.12]; nothing was written" in run.stderr
    assert config.read_text() == SANDBOX_CONFIG and not (state_dir / "vora.json.bak").exists()


def test_the_break_glass_flag_lets_a_namespace_join_be_written(vora: Callable[..., Run], state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(SANDBOX_CONFIG)
    assert vora("config", "set", "agents.list[1].sandbox.docker.dangerouslyAllowContainerNamespaceJoin",
                "true").exit_code == 0
    for path in ("agents.list[1].sandbox.docker.network", "agents.list[1].sandbox.browser.network"):
        run = vora("config", "set", path, "container:vpn")
        assert run.exit_code == 0, run.stderr
    assert vora("config", "validate").exit_code == 0
    forced = vora("config", "set", "agents.defaults.sandbox.docker.network", "host", "--force")
    assert forced.exit_code == 0
    assert "warning: written with --force: the gateway will refuse to start: agents.defaults.sandbox.docker.network:" \
        in forced.stderr


def _channel_plugin(state_dir: Path, schema: dict[str, object], *, channels: tuple[str, ...] = ("mychan",)) -> None:
    """An installed (not bundled) channel plugin declaring its channel's schema in its manifest."""
    folder = state_dir / "extensions" / "mychan"
    folder.mkdir(parents=True)
    (folder / "openclaw.plugin.json").write_text(json.dumps({
        "id": "mychan", "configSchema": {"type": "object"}, "channels": list(channels),
        "channelConfigs": {channel: {"schema": schema} for channel in channels}}))
    (folder / "package.json").write_text(json.dumps({"name": "mychan", "openclaw": {"extensions": ["./index.js"]}}))
    (folder / "index.js").write_text("export default {};\n")


CHANNEL_SCHEMA = {"type": "object", "additionalProperties": False, "properties": {
    "n": {"type": "number"}, "groupPolicy": {"enum": ["open", "allowlist"], "default": "open"},
    "groups": {"type": "object"}}}


def test_a_channel_plugins_own_schema_judges_validate_set_and_doctor(vora: Callable[..., Run], state_dir: Path) -> None:
    """The gateway validates `channels.<id>` of an installed channel plugin against the schema its
    manifest declares (`channelConfigs.<id>.schema`, recorded in validate_verdicts.json): a write it
    refuses is refused, nothing written; `--force` writes it, and validate and doctor say why."""
    _channel_plugin(state_dir, CHANNEL_SCHEMA)
    config = state_dir / "vora.json"
    config.write_text('{ channels: { mychan: { n: 1 } } }\n')
    assert vora("config", "validate").exit_code == 0
    refused = vora("config", "set", "channels.mychan.n", '"x"')
    assert refused.exit_code == 1 and "channels.mychan.n: invalid config: must be number [" in refused.stderr
    unknown = vora("config", "set", "channels.mychan.gruops", "{}")
    assert unknown.exit_code == 1
    assert "channels.mychan: invalid config: must NOT have additional properties: unknown key 'gruops' — did you " \
        "mean 'groups'?" in unknown.stderr, unknown.stderr
    assert config.read_text() == '{ channels: { mychan: { n: 1 } } }\n'
    assert vora("config", "set", "channels.mychan.groups", '{"g1": {}}').exit_code == 0
    assert vora("config", "set", "channels.mychan.n", '"x"', "--force").exit_code == 0
    validated = vora("config", "validate", "--json")
    assert validated.exit_code == 1
    assert [(p["gatewayKey"], p["message"], p["rule"]) for p in validated.json()["problems"]] == [
        ("channels.mychan.n", "invalid config: must be number", "channel-schema")]
    assert "channels.mychan.n: invalid config: must be number" in vora("doctor", "--only", "config-schema").stdout


def test_a_channel_schema_that_does_not_compile_is_named_not_a_traceback(vora: Callable[..., Run],
                                                                         state_dir: Path) -> None:
    _channel_plugin(state_dir, {"type": "objekt"})
    (state_dir / "vora.json").write_text('{ channels: { mychan: {} } }\n')
    run = vora("config", "validate")
    assert run.exit_code == 1 and "Traceback" not in run.stdout + run.stderr
    assert "channels.mychan: channel mychan: channelConfigs.mychan.schema" in run.stdout, run.stdout
    assert "not a valid JSON Schema" in run.stdout
