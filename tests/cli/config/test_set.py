"""New text looks like its neighbours (issue 11 point 4): `vora config set` copies the file's key
quoting, string quotes, spacing and trailing commas; a key is quoted only when it is not an
identifier; a strict-JSON file stays strict JSON. Exact resulting text, read back from disk.

Issue 12, point 8: a 2 MiB single line (a base64 blob, a PEM on one line) through `config set`,
`config get`, `config validate` and `doctor`. No timing assertion: before the fix these did not
finish at all (quadratic regexes); the tests simply have to complete. One real process run has a
bounded timeout as a hang guard.

`config set` with an index below a member that is not there yet (found by the config fuzz test):
the missing steps are created (an index makes an array, whose only index is [0]), or the path is
refused naming the index; never an internal error, never a file change on refusal.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import json5
import pytest

EDITS = [("gateway.bind", "lan"), ("agents.defaults.compaction.model", "x"),
         ('plugins.entries["my.plugin"].enabled', "true")]

STYLES = {
    "bare": (
"""\
// bare keys
{
  gateway: {
    port: 18789,
  },
  agents: {
    defaults: {
      workspace: "~/w",
    },
  },
}
""",
"""\
// bare keys
{
  gateway: {
    port: 18789,
    bind: "lan",
  },
  agents: {
    defaults: {
      workspace: "~/w",
      compaction: {
        model: "x",
      },
    },
  },
  plugins: {
    entries: {
      "my.plugin": {
        enabled: true,
      },
    },
  },
}
""",
    ),
    "quoted": (
"""\
{
  // quoted keys, double quotes, no trailing commas
  "gateway": {
    "port": 18789
  },
  "agents": {
    "defaults": {
      "workspace": "~/w"
    }
  }
}
""",
"""\
{
  // quoted keys, double quotes, no trailing commas
  "gateway": {
    "port": 18789,
    "bind": "lan"
  },
  "agents": {
    "defaults": {
      "workspace": "~/w",
      "compaction": {
        "model": "x"
      }
    }
  },
  "plugins": {
    "entries": {
      "my.plugin": {
        "enabled": true
      }
    }
  }
}
""",
    ),
    "single": (
"""\
{
  'gateway': {
    'port': 18789,
    'mode': 'local',
  },
  'agents': {
    'defaults': {
      'workspace': '~/w',
    },
  },
}
""",
"""\
{
  'gateway': {
    'port': 18789,
    'mode': 'local',
    'bind': 'lan',
  },
  'agents': {
    'defaults': {
      'workspace': '~/w',
      'compaction': {
        'model': 'x',
      },
    },
  },
  'plugins': {
    'entries': {
      'my.plugin': {
        'enabled': true,
      },
    },
  },
}
""",
    ),
    "strict": (
"""\
{
    "gateway": {
        "port": 18789
    },
    "agents": {
        "defaults": {
            "workspace": "~/w"
        }
    }
}
""",
"""\
{
    "gateway": {
        "port": 18789,
        "bind": "lan"
    },
    "agents": {
        "defaults": {
            "workspace": "~/w",
            "compaction": {
                "model": "x"
            }
        }
    },
    "plugins": {
        "entries": {
            "my.plugin": {
                "enabled": true
            }
        }
    }
}
""",
    ),
    "inline": (
"""\
{ gateway: { port: 18789 }, agents: { defaults: { workspace: "~/w" } } }
""",
"""\
{ gateway: { port: 18789, bind: "lan" }, agents: { defaults: { workspace: "~/w", compaction: { model: "x" } } }, plugins: { entries: { "my.plugin": { enabled: true } } } }
""",
    ),
}


@pytest.mark.parametrize("style", sorted(STYLES))
def test_new_keys_values_and_objects_follow_the_file(style: str, vora, state_dir: Path) -> None:
    before, after = STYLES[style]
    config = state_dir / "vora.json"
    config.write_text(before)
    for path, value in EDITS:
        result = vora("config", "set", path, value)
        assert result.exit_code == 0, result.stderr
    assert config.read_text() == after
    tree = json5.loads(after)  # the json5 package reads the result as intended
    assert tree["gateway"]["bind"] == "lan"
    assert tree["agents"]["defaults"]["compaction"] == {"model": "x"}
    assert tree["plugins"]["entries"]["my.plugin"] == {"enabled": True}


def test_a_strict_json_file_stays_strict_json(vora, state_dir: Path) -> None:
    before, _ = STYLES["strict"]
    config = state_dir / "vora.json"
    config.write_text(before)
    for path, value in [*EDITS, ("agents.list", '[{id: "main", default: true}]'), ("env.NAME", "it's")]:
        assert vora("config", "set", path, value).exit_code == 0
    tree = json.loads(config.read_text())
    assert tree["agents"]["list"] == [{"id": "main", "default": True}]
    assert tree["env"] == {"NAME": "it's"}


@pytest.mark.parametrize(("value", "written"), [("it's", "'it\\'s'"), ('say "hi"', "'say \"hi\"'"),
                                                 ("back\\slash", "'back\\\\slash'")])
def test_single_quoted_strings_escape_what_they_must(value: str, written: str, vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text("{\n  env: {\n    A: 'b',\n  },\n}\n")
    assert vora("config", "set", "env.NAME", value, "--type", "string").exit_code == 0
    assert config.read_text() == f"{{\n  env: {{\n    A: 'b',\n    NAME: {written},\n  }},\n}}\n"
    assert json5.loads(config.read_text())["env"]["NAME"] == value


@pytest.mark.parametrize(("key", "written"), [("null", '"null"'), ("true", '"true"'), ("a-b", '"a-b"'), ("9x", '"9x"'),
                                               ("_ok$1", "_ok$1"), ("é", '"é"')])
def test_a_key_is_bare_only_when_it_is_an_identifier(key: str, written: str, vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text('{\n  env: {\n    A: "b",\n  },\n}\n')
    assert vora("config", "set", f'env["{key}"]', "v").exit_code == 0
    assert config.read_text() == f'{{\n  env: {{\n    A: "b",\n    {written}: "v",\n  }},\n}}\n'
    assert json5.loads(config.read_text())["env"][key] == "v"


BLOB = ("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo0" * 60_000)[: 2 * 1024 * 1024 - 4096]
ONE_LINE = '{"gateway":{"port":18789,"auth":{"token":"' + BLOB + '"}},"note":"x"}\n'
BROKEN = {
    "unterminated secret": '{ gateway: { auth: { token: "' + BLOB + "\n} } }\n",
    "unquoted secret": "{ channels: { slack: { botToken: " + BLOB + " } } }\n",
    "unquoted word": "{ notes: " + BLOB + " }\n",
    "unterminated plain string": '{ notes: "' + BLOB + "\n}\n",
    "unterminated comment": "{ a: 1, /* " + BLOB + "\n}\n",
}


@pytest.fixture
def config(state_dir: Path) -> Path:
    path = state_dir / "vora.json"
    path.write_text(ONE_LINE)
    os.chmod(path, 0o600)
    return path


def test_set_on_a_one_line_config_shows_a_redacted_diff(config: Path, vora) -> None:
    run = vora("config", "set", "--force", "note", "y", "--json")
    assert run.exit_code == 0, run.stderr
    diff = run.json()["files"][0]["diff"]
    assert BLOB[:40] not in diff and "<redacted>" in diff
    assert '"note":"y"' in config.read_text()


@pytest.mark.parametrize("mode", [(), ("--json",), ("--dry-run",)], ids=["human", "json", "dry-run"])
def test_set_a_2_mib_value(state_dir: Path, vora, mode: tuple[str, ...]) -> None:
    for path in ("channels.main.botToken", "notes.blob"):
        # each on a fresh small file: two such values together are over the 2 MiB config limit
        (state_dir / "vora.json").write_text("{\n  gateway: { port: 18789 },\n}\n")
        run = vora("config", "set", "--force", path, BLOB, *mode)
        assert run.exit_code == 0, run.stderr
        if "botToken" in path:
            assert BLOB[:40] not in run.stdout + run.stderr


@pytest.mark.parametrize("args", [("config", "get"), ("config", "get", "--json"), ("config", "get", "gateway"),
                                  ("config", "validate"), ("config", "validate", "--json"), ("doctor",),
                                  ("doctor", "--json")])
def test_readers_of_a_2_mib_secret(config: Path, vora, args: tuple[str, ...]) -> None:
    run = vora(*args)
    assert BLOB[:40] not in run.stdout + run.stderr


@pytest.mark.parametrize("shape", BROKEN, ids=BROKEN)
@pytest.mark.parametrize("args", [("config", "get"), ("config", "set", "a", "1"), ("config", "validate"),
                                  ("doctor", "--json")])
def test_unparseable_2_mib_line(state_dir: Path, vora, shape: str, args: tuple[str, ...]) -> None:
    (state_dir / "vora.json").write_text(BROKEN[shape])
    run = vora(*args)
    assert run.exit_code == 1
    shown = run.stdout + run.stderr
    assert len(shown) < 20_000  # the excerpt is a window, not the line
    if "secret" in shape:
        assert BLOB[:10] not in shown


def test_doctor_shows_a_window_of_a_long_line(state_dir: Path, vora) -> None:
    (state_dir / "vora.json").write_text('{ notes: "' + "x" * 500 + '", port: @, tail: "' + "y" * 500 + '" }\n')
    check = vora("doctor", "--json", "--only", "config-syntax").json()["checks"][0]
    line = check["details"][0]
    assert line.startswith("1 | …") and line.endswith("…")
    assert "port: @" in line and len(line) < 200


def test_doctor_in_a_real_process_does_not_hang(state_dir: Path, vora_process) -> None:
    (state_dir / "vora.json").write_text(BROKEN["unterminated secret"])
    done = vora_process("--state-dir", str(state_dir), "doctor", "--json", timeout=60)
    assert done.returncode == 1
    assert BLOB[:10] not in done.stdout + done.stderr
    syntax = next(c for c in json.loads(done.stdout)["checks"] if c["id"] == "config-syntax")
    assert syntax["status"] == "error"


CONFIGS = ["{}", "{a: 1}", "// c\n{\n  a: 1,\n}\n", '{"a": 1}', '{_:{_:0,_:{_:""}},_:{A:[{A:""}]}}', "{x: []}"]


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize(("path", "expected"), [
    ("x[0]", [5]), ("x[0].y", [{"y": 5}]), ("x[0][0]", [[5]]), ("x[0].y[0]", [{"y": [5]}]),
])
def test_an_index_below_a_missing_member_makes_an_array(vora, state_dir: Path, config: str, path: str,
                                                        expected: object) -> None:
    file = state_dir / "vora.json"
    file.write_text(config)
    run = vora("config", "set", "--force", path, "5")
    assert run.exit_code == 0, run.stderr
    assert json5.loads(file.read_text())["x"] == expected
    assert vora("config", "get", path, "--json").json()["value"] == 5


@pytest.mark.parametrize("config", CONFIGS)
@pytest.mark.parametrize("path", ["x[1]", "x[0][3]", "x[2].y", "y.z[7]"])
def test_an_index_past_a_new_array_is_refused(vora, state_dir: Path, config: str, path: str) -> None:
    file = state_dir / "vora.json"
    file.write_text(config)
    run = vora("config", "set", "--force", path, "5", "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "not_found" and "past the end" in error["message"]
    assert file.read_text() == config


def test_the_fuzz_finding_itself(vora, state_dir: Path) -> None:
    file = state_dir / "vora.json"
    file.write_text('{_:{_:0,_:{_:""}},_:{A:[{A:""}]}}')
    run = vora("config", "set", "--force", "x[0]", "18800")
    assert run.exit_code == 0, run.stderr
    assert json.loads(json.dumps(json5.loads(file.read_text())))["x"] == [18800]


@pytest.mark.parametrize(("path", "value", "said", "code"), [
    ("plugins.load.paths[1]", "5", "plugins.load.paths[1] must be a string, not integer 5", 1),
    ("plugins.load.paths[3]", '{"a": 1}', "plugins.load.paths[3] must be a string, not an object", 1),
    ("agents.list", '[{"id": "a"}, {"id": 5}]', "agents.list[1].id must be a string, not integer 5", 1),
    ("agents.list[2]", "5", "agents.list[2] cannot be set to integer 5: agents.list must be an array of", 1),
    ("gateway.port.x", "5", "gateway.port.x cannot be set to integer 5: gateway.port must be an integer 1-65535", 1),
    ("gateway.auth.token.x", "abc", "gateway.auth.token.x cannot be set to a string (<redacted>): "
                                    "gateway.auth.token must be", 1),
    ("[0]", "5", "[0]: the config is an object, so a path starts with a key name", 2),
])
def test_a_refused_value_is_named_at_the_path_it_was_set_at(vora, state_dir: Path, path: str, value: str, said: str,
                                                           code: int) -> None:
    config = state_dir / "vora.json"
    config.write_text('{ plugins: { load: { paths: ["a"] } }, agents: { list: [{ id: "main" }] } }\n')
    before = config.read_bytes()
    result = vora("config", "set", path, value)
    assert result.exit_code == code and result.stderr.startswith(f"error: {said}"), result.stderr
    assert config.read_bytes() == before
