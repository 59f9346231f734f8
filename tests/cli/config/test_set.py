"""New text looks like its neighbours (issue 11 point 4): `vora config set` copies the file's key
quoting, string quotes, spacing and trailing commas; a key is quoted only when it is not an
identifier; a strict-JSON file stays strict JSON. Exact resulting text, read back from disk."""

from __future__ import annotations

import json
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


