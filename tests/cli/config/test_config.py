"""`vora config`: get, set, unset, patch, validate, schema, edit — against real files on disk."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]

COMMENTED = """\
// The operator's own notes stay where they are.
{
  gateway: {
    port: 18789, // the default port
    bind: 'loopback',
    auth: {
      mode: "token",
      token: "tok-SECRET-1234", // rotate monthly
    },
  },
  /* agents block */
  agents: {
    defaults: {
      workspace: "~/work",
      bootstrapMaxChars: 20000,
    },
    list: [
      { id: "main", default: true },
      { id: "ops" },
    ],
  },
  channels: {
    discord: { "123456": { name: "ops" } },
  },
}
"""


@pytest.fixture
def config(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(COMMENTED)
    path.chmod(0o640)
    return path


def snapshot(directory: Path) -> dict[str, bytes]:
    """Every file's bytes (lock files are empty markers, not content, and are left out)."""
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and not p.name.endswith(".lock")}


# -- get ----------------------------------------------------------------------------------------

def test_get_scalar_prints_raw(vora, config: Path) -> None:
    assert vora("config", "get", "gateway.port").stdout == "18789\n"
    assert vora("config", "get", "gateway.bind").stdout == "loopback\n"
    assert vora("config", "get", "agents.list[1].id").stdout == "ops\n"
    assert vora("config", "get", "agents.list.0.id").stdout == "main\n"


def test_get_numeric_segment_under_object_is_a_key(vora, config: Path) -> None:
    assert vora("config", "get", "channels.discord.123456.name").stdout == "ops\n"


def test_get_object_prints_json_with_secrets_redacted(vora, config: Path) -> None:
    result = vora("config", "get", "gateway.auth")
    assert json.loads(result.stdout) == {"mode": "token", "token": "<redacted>"}
    assert "tok-SECRET" not in result.stdout + result.stderr


def test_get_reveal_shows_the_secret(vora, config: Path) -> None:
    assert vora("config", "get", "gateway.auth.token", "--reveal").stdout == "tok-SECRET-1234\n"


def test_get_default_is_marked(vora, config: Path) -> None:
    result = vora("config", "get", "plugins.slots.memory")
    assert result.stdout == "memory-core\n"
    assert "default" in result.stderr
    assert vora("config", "get", "plugins.slots.memory", "--json").json() == {
        "key": "plugins.slots.memory", "value": "memory-core", "source": "default"}


def test_get_unknown_path_is_exit_1_with_did_you_mean(vora, config: Path) -> None:
    result = vora("config", "get", "gateway.prot", "--json")
    assert result.exit_code == 1
    error = result.json()["error"]
    assert error["code"] == "not_found"
    assert "gateway.port" in error["hint"]


def test_get_env_placeholder_is_resolved(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{gateway: {mode: "${VORA_TEST_MODE}", bind: "$${LITERAL}"}}')
    doc = vora("config", "get", "gateway.mode", "--json", env={"VORA_TEST_MODE": "remote"}).json()
    assert doc == {"key": "gateway.mode", "value": "remote", "source": "env"}
    assert vora("config", "get", "gateway.bind").stdout == "${LITERAL}\n"
    missing = vora("config", "get", "gateway.mode")
    assert missing.stdout == "${VORA_TEST_MODE}\n" and "VORA_TEST_MODE" in missing.stderr


def test_a_placeholder_spelled_with_an_escape_or_in_an_include_is_resolved(vora, state_dir: Path) -> None:
    # a text without `${` is not copied to substitute (issue 24): an escape, or an included
    # file, can still hold a placeholder
    env = {"VORA_TEST_MODE": "remote", "VORA_TEST_BIND": "lan"}
    (state_dir / "vora.json").write_text('{gateway: {mode: "\\u0024{VORA_TEST_MODE}"}}')
    assert vora("config", "get", "gateway.mode", env=env).stdout == "remote\n"
    (state_dir / "vora.json").write_text('{gateway: {mode: "local"}, $include: "./more.json5"}')
    (state_dir / "more.json5").write_text('{gateway: {bind: "${VORA_TEST_BIND}"}}')
    assert vora("config", "get", "gateway.bind", env=env).stdout == "lan\n"


def test_gateway_token_env_stands_in(vora, state_dir: Path) -> None:
    result = vora("config", "get", "gateway.auth.token", "--json", env={"VORA_GATEWAY_TOKEN": "env-tok"})
    assert result.json() == {"key": "gateway.auth.token", "value": "<redacted>", "source": "env"}


def test_missing_config_is_empty(vora, state_dir: Path) -> None:
    assert vora("config", "get", "gateway.port").stdout == "18789\n"


# -- set ----------------------------------------------------------------------------------------

def test_set_rewrites_only_the_value(vora, config: Path) -> None:
    result = vora("config", "set", "agents.defaults.bootstrapMaxChars", "30000")
    assert result.exit_code == 0
    assert result.stdout == "Updated agents.defaults.bootstrapMaxChars: 20000 -> 30000\n"
    assert config.read_text() == COMMENTED.replace("bootstrapMaxChars: 20000", "bootstrapMaxChars: 30000")
    assert f"Wrote {config}" in result.stderr


def test_set_keeps_mode_and_keeps_a_backup(vora, config: Path) -> None:
    vora("config", "set", "gateway.port", "18790")
    backup = config.with_name("vora.json.bak")
    assert backup.read_text() == COMMENTED
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    assert stat.S_IMODE(config.stat().st_mode) == 0o640


def test_backup_ring_keeps_five(vora, config: Path) -> None:
    for port in range(20001, 20008):
        assert vora("config", "set", "gateway.port", str(port)).exit_code == 0
    names = sorted(p.name for p in config.parent.iterdir() if ".bak" in p.name)
    assert names == ["vora.json.bak", "vora.json.bak.1", "vora.json.bak.2", "vora.json.bak.3", "vora.json.bak.4"]
    assert "port: 20006" in config.with_name("vora.json.bak").read_text()
    assert "port: 20002" in config.with_name("vora.json.bak.4").read_text()


def test_set_appends_an_audit_line(vora, config: Path, state_dir: Path) -> None:
    vora("config", "set", "gateway.port", "18790")
    lines = (state_dir / "logs" / "config-audit.jsonl").read_text().splitlines()
    record = json.loads(lines[-1])
    assert record["command"] == "config set" and record["paths"] == ["gateway.port"]
    assert record["before"]["size"] == len(COMMENTED.encode())
    assert record["after"]["sha256"] and record["time"].endswith("Z")


def test_set_no_change_touches_nothing(vora, config: Path, state_dir: Path) -> None:
    before = snapshot(state_dir)
    result = vora("config", "set", "gateway.port", "18789")
    assert (result.exit_code, result.stdout) == (0, "No change\n")
    assert snapshot(state_dir) == before


def test_set_inserts_new_key_with_sibling_indentation(vora, config: Path) -> None:
    vora("config", "set", "gateway.mode", "local")
    text = config.read_text()
    assert '    auth: {\n' in text
    assert text.count("// rotate monthly") == 1
    assert "    mode: 'local'," in text  # bare key like its siblings, quoted like the nearest strings


def test_set_boolean_typo_is_an_error_not_a_string(vora, config: Path) -> None:
    result = vora("config", "set", "plugins.enabled", "ture", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "invalid"
    assert "true or false" in result.json()["error"]["message"]
    assert config.read_text() == COMMENTED


def test_set_string_fallback_and_type_string(vora, config: Path) -> None:
    vora("config", "set", "agents.defaults.compaction.model", "gpt-large")
    assert vora("config", "get", "agents.defaults.compaction.model").stdout == "gpt-large\n"
    vora("config", "set", "env.PORT_TEXT", "8080", "--type", "string")
    assert vora("config", "get", "env.PORT_TEXT", "--json").json()["value"] == "8080"


def test_set_strict_json_refuses_json5(vora, config: Path) -> None:
    result = vora("config", "set", "plugins.allow", "['a',]", "--strict-json")
    assert result.exit_code == 2
    assert config.read_text() == COMMENTED
    assert vora("config", "set", "plugins.allow", '["a"]', "--strict-json").exit_code == 0


def test_set_dry_run_shows_diff_and_writes_nothing(vora, config: Path, state_dir: Path) -> None:
    before = snapshot(state_dir)
    result = vora("config", "set", "gateway.port", "1234", "--dry-run")
    assert result.exit_code == 0
    assert "-    port: 18789, // the default port\n+    port: 1234, // the default port\n" in result.stdout
    assert snapshot(state_dir) == before


def test_secret_never_in_diff_or_messages(vora, config: Path) -> None:
    outputs = []
    for args in (
        ("config", "set", "gateway.auth.token", "brand-NEW-secret", "--dry-run"),
        ("config", "set", "gateway.auth.token", "brand-NEW-secret", "--dry-run", "--json"),
        ("config", "set", "gateway.auth.token", "brand-NEW-secret"),
        ("config", "get"),
        ("config", "get", "--json"),
        ("config", "validate"),
        ("config", "validate", "--json"),
        ("config", "unset", "gateway.auth.token", "--dry-run"),
        ("config", "set", "gateway.auth.token", "42", "--json"),
    ):
        result = vora(*args)
        outputs.append(result.stdout + result.stderr)
    joined = "\n".join(outputs)
    assert "brand-NEW-secret" not in joined and "tok-SECRET" not in joined
    assert "<redacted>" in joined


def test_set_through_a_scalar_is_an_error(vora, config: Path) -> None:
    result = vora("config", "set", "gateway.port.x", "1")
    assert result.exit_code == 1
    assert config.read_text() == COMMENTED


def test_set_creates_missing_config_0600(vora, state_dir: Path) -> None:
    result = vora("config", "set", "gateway.port", "18790")
    assert result.exit_code == 0
    path = state_dir / "vora.json"
    assert json.loads(path.read_text()) == {"gateway": {"port": 18790}}
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_set_writes_through_a_symlink(vora, state_dir: Path, tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "vora.json"
    real.parent.mkdir()
    real.write_text(COMMENTED)
    (state_dir / "vora.json").symlink_to(real)
    vora("config", "set", "gateway.port", "18790")
    assert (state_dir / "vora.json").is_symlink()
    assert "port: 18790" in real.read_text()


# -- unset and patch ----------------------------------------------------------------------------

def test_unset_removes_member_and_its_own_comment(vora, config: Path) -> None:
    result = vora("config", "unset", "gateway.auth.token")
    assert result.exit_code == 0
    assert result.stdout == "Removed gateway.auth.token (was <redacted>)\n"
    text = config.read_text()
    assert "rotate monthly" not in text and "tok-SECRET" not in text
    assert "// the default port" in text and "/* agents block */" in text


def test_unset_array_element(vora, config: Path) -> None:
    vora("config", "unset", "agents.list[1]")
    assert vora("config", "get", "agents.list", "--json").json()["value"] == [{"id": "main", "default": True}]


def test_unset_missing_is_not_found(vora, config: Path) -> None:
    result = vora("config", "unset", "gateway.nope", "--json")
    assert (result.exit_code, result.json()["error"]["code"]) == (1, "not_found")
    assert config.read_text() == COMMENTED


def test_patch_merges_in_one_write(vora, config: Path, state_dir: Path) -> None:
    result = vora("config", "patch", "-", input='{gateway: {port: 18790, bind: null}, plugins: {allow: ["x"]}}')
    assert result.exit_code == 0, result.stderr
    assert vora("config", "get", "gateway.port").stdout == "18790\n"
    assert vora("config", "get", "gateway.bind", "--json").json()["source"] == "default"
    assert vora("config", "get", "plugins.allow").stdout.split() == ["[", '"x"', "]"]
    audit = (state_dir / "logs" / "config-audit.jsonl").read_text().splitlines()
    assert len(audit) == 1
    assert "// the default port" in config.read_text()


def test_patch_from_file_with_bad_value_writes_nothing(vora, config: Path, tmp_path: Path) -> None:
    patch = tmp_path / "p.json5"
    patch.write_text("{gateway: {port: 'high'}}")
    result = vora("config", "patch", str(patch))
    assert result.exit_code == 1
    assert config.read_text() == COMMENTED


# -- validate and schema ------------------------------------------------------------------------

def test_validate_reports_position_expected_found_and_did_you_mean(vora, state_dir: Path) -> None:
    path = state_dir / "vora.json"
    path.write_text('{\n  gateway: {\n    port: "high",\n    bnd: "lan",\n  },\n}\n')
    result = vora("config", "validate")
    assert result.exit_code == 1
    # the gateway's verdict, in its words (tests/core/config/test_gateway_verdicts.py holds the rest)
    assert f"{path}:3:5: error: gateway.port: Invalid input: expected number, received string" in result.stdout
    assert f'{path}:4:5: error: gateway: Unrecognized key: "bnd" — did you mean \'bind\'?' in result.stdout


def test_validate_strict_makes_voras_own_warnings_errors(vora, state_dir: Path) -> None:
    # The gateway takes a port above 65535 (its schema stops at 2^53 - 1); vora's key table warns.
    (state_dir / "vora.json").write_text('{gateway: {port: 70000}}')
    loose = vora("config", "validate", "--json")
    assert loose.exit_code == 0 and loose.json()["warnings"] == 1
    result = vora("config", "validate", "--strict", "--json")
    assert result.exit_code == 1
    assert result.json()["valid"] is False


def test_validate_valid_file(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text(COMMENTED.replace('discord: { "123456": { name: "ops" } },', ""))
    result = vora("config", "validate", "--json")
    assert result.exit_code == 0, result.stdout
    assert result.json()["valid"] is True
    assert result.json()["gatewayVersion"] == "openclaw 2026.4.12"


def test_validate_refuses_what_the_gateway_refuses(vora, config: Path) -> None:
    # discord's own schema has no key "123456" (the channel is validated by the gateway's ajv)
    result = vora("config", "validate", "--json")
    assert result.exit_code == 1
    problem = result.json()["problems"][0]
    assert (problem["gatewayKey"], problem["rule"]) == ("channels.discord", "channel-schema")
    assert problem["message"] == "invalid config: must NOT have additional properties"


def test_schema_is_json_schema(vora) -> None:
    schema = vora("config", "schema").json()
    assert schema["properties"]["gateway"]["properties"]["port"]["maximum"] == 65535
    assert schema["properties"]["plugins"]["properties"]["slots"]["properties"]["contextEngine"]["default"] == "legacy"


# -- malformed input: exit 1, position, nothing changed -----------------------------------------

MALFORMED = {
    "unclosed string": '{gateway: {mode: "local}}\n',
    "bad escape": '{a: "\\x4g"}',
    "trailing garbage": '{a: 1} x',
    "nul byte": '{a: 1\x00}',
    "unclosed comment": '{a: 1 /* never closed',
    "lone comma": '{,}',
    "empty": "",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_config_is_refused_and_untouched(vora, state_dir: Path, name: str) -> None:
    path = state_dir / "vora.json"
    path.write_text(MALFORMED[name])
    before = snapshot(state_dir)
    for args in (("config", "set", "gateway.port", "1"), ("config", "unset", "a"), ("config", "get", "a")):
        result = vora(*args, "--json")
        assert result.exit_code == 1, (name, args, result.stdout)
        error = result.json()["error"]
        assert error["code"] == "parse_error"
        assert str(path) in error["message"]
        assert ":" in error["message"].replace(str(path), "")
    assert snapshot(state_dir) == before


def test_invalid_utf8_names_the_position(vora, state_dir: Path) -> None:
    path = state_dir / "vora.json"
    path.write_bytes(b'{\n  a: "\xff"\n}')
    result = vora("config", "set", "b", "1")
    assert result.exit_code == 1
    assert f"{path}:2:7: invalid UTF-8" in result.stderr
    assert path.read_bytes() == b'{\n  a: "\xff"\n}'


def test_file_over_2_mib_is_refused(vora, state_dir: Path) -> None:
    path = state_dir / "vora.json"
    path.write_text("{a: '" + "x" * (3 * 1024 * 1024) + "'}")
    result = vora("config", "get", "a", "--json")
    assert result.exit_code == 1 and "2 MiB" in result.json()["error"]["message"]


def test_parse_error_hint_names_the_backup(vora, config: Path) -> None:
    vora("config", "set", "gateway.port", "18790")
    config.write_text("{broken")
    result = vora("config", "set", "gateway.port", "1")
    assert "vora.json.bak" in result.stderr and "vora config edit" in result.stderr


# -- $include -----------------------------------------------------------------------------------

def test_include_is_merged_and_writes_go_to_the_owner(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{\n  // agents live elsewhere\n  agents: {"$include": "./agents.json5"},\n}\n')
    agents = state_dir / "agents.json5"
    agents.write_text("{\n  defaults: {\n    bootstrapMaxChars: 1000, // small\n  },\n}\n")
    assert vora("config", "get", "agents.defaults.bootstrapMaxChars").stdout == "1000\n"
    result = vora("config", "set", "agents.defaults.bootstrapMaxChars", "2000")
    assert result.exit_code == 0, result.stderr
    assert agents.read_text() == "{\n  defaults: {\n    bootstrapMaxChars: 2000, // small\n  },\n}\n"
    assert "agents.json5" in result.stderr


def test_include_array_deep_merges_and_ambiguous_write_is_refused(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{plugins: {"$include": ["./a.json5", "./b.json5"]}}')
    (state_dir / "a.json5").write_text('{allow: ["a"], slots: {memory: "none"}}')
    (state_dir / "b.json5").write_text('{allow: ["b"], slots: {memory: "mem-b"}}')
    assert json.loads(vora("config", "get", "plugins.allow").stdout) == ["a", "b"]
    assert vora("config", "get", "plugins.slots.memory").stdout == "mem-b\n"
    before = snapshot(state_dir)
    result = vora("config", "set", "plugins.slots.memory", "x", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused"
    assert "a.json5" in result.json()["error"]["message"] and "b.json5" in result.json()["error"]["message"]
    assert snapshot(state_dir) == before


def test_include_cycle_names_the_chain(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{"$include": "./a.json5"}')
    (state_dir / "a.json5").write_text('{"$include": "./vora.json"}')
    result = vora("config", "get", "--json")
    assert result.exit_code == 1
    assert "vora.json -> a.json5 -> vora.json" in result.json()["error"]["message"]


def test_include_outside_config_dir_is_refused(vora, state_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "outside.json5").write_text("{}")
    (state_dir / "vora.json").write_text('{"$include": "../../outside.json5"}')
    result = vora("config", "get", "--json")
    assert result.exit_code == 1 and result.json()["error"]["code"] == "refused"


# -- edit ---------------------------------------------------------------------------------------

def _editor(tmp_path: Path, body: str) -> str:
    script = tmp_path / "editor.py"
    script.write_text("import sys\npath = sys.argv[1]\ntext = open(path).read()\n" + body)
    return f"{sys.executable} {script}"


def test_edit_writes_a_valid_result(vora, config: Path, tmp_path: Path) -> None:
    editor = _editor(tmp_path, "open(path, 'w').write(text.replace('18789', '18800'))\n")
    result = vora("config", "edit", env={"EDITOR": editor})
    assert result.exit_code == 0, result.stderr
    assert config.read_text() == COMMENTED.replace("18789", "18800")
    assert config.with_name("vora.json.bak").read_text() == COMMENTED


def test_edit_never_writes_an_invalid_result(vora, config: Path, tmp_path: Path, state_dir: Path) -> None:
    before = snapshot(state_dir)
    editor = _editor(tmp_path, "open(path, 'w').write(text.replace('port: 18789', 'port: \"x\"'))\n")
    result = vora("config", "edit", "--json", env={"EDITOR": editor})
    assert result.exit_code == 1
    assert "nothing was written" in result.json()["error"]["message"]
    assert snapshot(state_dir) == before
    broken = _editor(tmp_path, "open(path, 'w').write('{oops')\n")
    assert vora("config", "edit", env={"EDITOR": broken}).exit_code == 1
    assert snapshot(state_dir) == before


def test_edit_without_editor_says_how(vora, config: Path, tmp_path: Path) -> None:
    result = vora("config", "edit", "--json", env={"PATH": str(tmp_path)})  # no vi, no nano either
    assert result.exit_code == 2 and "EDITOR" in result.json()["error"]["hint"]


# -- real concurrency ---------------------------------------------------------------------------

@pytest.mark.slow
def test_twenty_concurrent_sets_all_land(config: Path, state_dir: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "VORA_LOCK_TIMEOUT": "60"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "vora_cli", "config", "set", f"env.KEY_{i}", f"value-{i}"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        for i in range(20)
    ]
    codes = [p.wait(timeout=120) for p in procs]
    assert codes == [0] * 20
    from vora_cli.core.json5.parser import loads

    value = loads(config.read_text())
    assert value["env"] == {f"KEY_{i}": f"value-{i}" for i in range(20)}
    assert "// rotate monthly" in config.read_text()


# -- regressions from the QA review -------------------------------------------------------------

ONE_LINE_SECRETS = ('{ gateway: { auth: { mode: "token", token: "TOPSECRET-AAA" } }, '
                    'channels: { discord: { botToken: "SECRETCCC" } } }')


@pytest.mark.parametrize("args", [
    ("config", "set", "gateway.auth.mode", "password", "--json"),
    ("config", "set", "gateway.auth.mode", "password", "--dry-run"),
    ("config", "set", "gateway.auth.token", "NEWSECRET-BBB", "--dry-run"),
    ("config", "set", "gateway.auth.token", "NEWSECRET-BBB", "--dry-run", "--json"),
    ("config", "unset", "gateway.auth.mode", "--dry-run", "--json"),
])
def test_diffs_never_show_secrets_even_on_a_shared_line(vora, state_dir: Path, args: tuple[str, ...]) -> None:
    (state_dir / "vora.json").write_text(ONE_LINE_SECRETS)
    result = vora(*args)
    assert result.exit_code == 0, result.stderr
    text = result.stdout + result.stderr
    assert "TOPSECRET" not in text and "SECRETCCC" not in text and "NEWSECRET" not in text
    assert "<redacted>" in text


def test_patch_diff_never_shows_secrets(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text(ONE_LINE_SECRETS)
    result = vora("config", "patch", "-", "--dry-run", "--json", input='{gateway: {auth: {password: "PW-SECRET-9"}}}')
    assert result.exit_code == 0
    assert "PW-SECRET-9" not in result.stdout and "TOPSECRET" not in result.stdout


def test_json_output_is_strict_json_with_infinity_and_nan(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text("{ b: +Infinity, c: NaN, d: -Infinity }")
    text = vora("config", "get", "--json").stdout
    assert "Infinity" in text
    parsed = json.loads(text, parse_constant=lambda name: pytest.fail(f"non-JSON constant {name}"))
    assert parsed["value"] == {"b": "Infinity", "c": "NaN", "d": "-Infinity"}
    assert vora("config", "get", "b").stdout == "Infinity\n"


def test_control_characters_in_values_reach_scripts_as_stored(vora, state_dir: Path) -> None:
    # piped: the stored value (a terminal gets escapes: tests/cli/config/test_get.py)
    (state_dir / "vora.json").write_text('{ name: "ok\\u001b[2K\\rfake" }')
    assert vora("config", "get", "name").stdout == "ok\x1b[2K\rfake\n"
    assert json.loads(vora("config", "get", "name", "--json").stdout)["value"] == "ok\x1b[2K\rfake"


def test_a_fifo_config_is_refused_not_waited_on(vora, state_dir: Path) -> None:
    os.mkfifo(state_dir / "vora.json")
    result = vora("config", "get", "--json")
    assert result.exit_code == 1
    assert "not a regular file" in result.json()["error"]["message"]


def test_read_only_config_is_refused(vora, config: Path, state_dir: Path) -> None:
    config.chmod(0o444)
    before = snapshot(state_dir)
    result = vora("config", "set", "gateway.port", "1", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused"
    assert "chmod u+w" in result.json()["error"]["hint"]
    assert snapshot(state_dir) == before


def test_dangling_symlink_does_not_create_folders(vora, state_dir: Path, tmp_path: Path) -> None:
    link = state_dir / "vora.json"
    link.symlink_to(tmp_path / "missing-dir" / "vora.json")
    result = vora("config", "set", "a", "1", "--json")
    assert result.exit_code == 1
    assert not (tmp_path / "missing-dir").exists()


def test_validate_strict_reports_unknown_keys_as_errors(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text("{gatewy: {port: 1}}")
    doc = vora("config", "validate", "--strict", "--json").json()
    assert (doc["errors"], doc["warnings"]) == (1, 0)
    assert doc["problems"][0]["severity"] == "error"


def test_validate_parse_error_has_line_and_col_as_data(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text("{\n  a: 1,\n  b: ,\n}")
    problem = vora("config", "validate", "--json").json()["problems"][0]
    assert (problem["line"], problem["col"]) == (3, 6)


def test_get_unset_object_shows_its_defaults(vora, state_dir: Path) -> None:
    doc = vora("config", "get", "plugins.slots", "--json").json()
    assert doc == {"key": "plugins.slots", "value": {"contextEngine": "legacy", "memory": "memory-core"},
                   "source": "default"}


def test_parse_error_in_an_include_points_at_that_file(vora, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text('{"$include": "./bad.json5"}')
    (state_dir / "bad.json5").write_text("{oops")
    result = vora("config", "get", "--json")
    error = result.json()["error"]
    assert "bad.json5" in error["message"] and "bad.json5" in error["hint"]
    assert "vora config edit" not in error["hint"]
