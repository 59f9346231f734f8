"""One rule for every path a user writes (docs/config.md, "Paths the user writes").

`vora context`, plugin discovery (`vora plugins list`, `vora doctor`), skills roots, `$include`
targets and the path flags must all read `agents.defaults.workspace: "  ~/ws-b "` (and every
other spelling) as the same directory; a path flag or a HOME that says nothing (empty, blanks)
never becomes the current directory (issue 12 point 17).
"""

from __future__ import annotations

import json
import os
import pwd
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin

from tests.conftest import Run

# -- every consumer agrees -------------------------------------------------------------------------

SPELLINGS = [
    "  ~/ws-b ",
    "~/ws-b",
    "~/ws-b/",
    "~//ws-b",
    "./ws-b/../ws-b",  # relative: to the config file's folder
    "  ws-b\t",
    "ABS",  # replaced by the absolute path
    "${WS}",
    " ${WS_TILDE} ",
]


def _install(home: Path, spelling: str) -> Path:
    """A state dir whose config names the workspace `spelling`; returns where it must resolve."""
    state = home / ".vora"
    state.mkdir(mode=0o700)
    relative = not spelling.strip().startswith(("~", "$", "ABS"))
    workspace = (state / "ws-b") if relative else (home / "ws-b")
    workspace.mkdir()
    (workspace / "AGENTS.md").write_text("# Agents\n")
    make_plugin(workspace / ".vora" / "extensions" / "ws-plugin", "ws-plugin")
    value = spelling.replace("ABS", str(workspace))
    (state / "vora.json").write_text(
        "// the workspace under test\n{\n  agents: { defaults: { workspace: " + json.dumps(value) + " } },\n}\n"
    )
    os.chmod(state / "vora.json", 0o600)
    return workspace


@pytest.mark.parametrize("spelling", SPELLINGS)
def test_context_plugins_and_doctor_find_the_same_workspace(vora, home: Path, spelling: str) -> None:
    workspace = _install(home, spelling)
    env = {"WS": str(workspace), "WS_TILDE": "~/ws-b"}

    context = vora("context", "json", env=env)
    assert context.exit_code == 0, context.stderr
    assert context.json()["workspace"] == str(workspace)

    plugins = vora("plugins", "list", "--json", env=env)
    assert plugins.exit_code == 0, plugins.stderr
    found = {p["id"]: p for p in plugins.json()["plugins"]}
    assert found["ws-plugin"]["origin"] == "workspace"
    assert found["ws-plugin"]["path"] == str(workspace / ".vora" / "extensions" / "ws-plugin")

    doctor = vora("doctor", "--json", "--only", "workspace", "--only", "plugin-manifests", env=env)
    checks = {c["id"]: c for c in doctor.json()["checks"]}
    assert checks["workspace"]["status"] == "pass"
    assert checks["workspace"]["message"] == str(workspace)
    assert checks["plugin-manifests"]["status"] == "pass"


def test_the_default_agent_own_workspace_is_where_workspace_plugins_come_from(vora, home: Path) -> None:
    # The default agent's agents.list[i].workspace wins over agents.defaults.workspace, for
    # `vora context` (spec context.md, "Which workspace") and so for plugin discovery too.
    state = home / ".vora"
    state.mkdir(mode=0o700)
    make_plugin(home / "own" / ".vora" / "extensions" / "own-plugin", "own-plugin")
    make_plugin(home / "shared" / ".vora" / "extensions" / "shared-plugin", "shared-plugin")
    (state / "vora.json").write_text(
        '{ agents: { defaults: { workspace: "~/shared" },'
        ' list: [{ id: "ops" }, { id: "main", default: true, workspace: " ~/own " }] } }\n'
    )
    assert vora("context", "json").json()["workspace"] == str(home / "own")
    ids = [p["id"] for p in vora("plugins", "list", "--json").json()["plugins"]]
    assert ids == ["own-plugin"]


def test_a_workspace_setting_of_the_wrong_type_does_not_break_plugin_listing(vora, home: Path) -> None:
    state = home / ".vora"
    state.mkdir(mode=0o700)
    make_plugin(home / ".vora" / "workspace" / ".vora" / "extensions" / "default-ws", "default-ws")
    (state / "vora.json").write_text("{ agents: { defaults: { workspace: 42 } } }\n")
    listed = vora("plugins", "list", "--json")
    assert listed.exit_code == 0
    assert [p["id"] for p in listed.json()["plugins"]] == ["default-ws"]
    context = vora("context", "json")
    assert context.exit_code == 1
    assert "agents.defaults.workspace must be a string path" in context.stdout


@pytest.mark.parametrize("spelling", ["  ~/linked ", "~/linked/", "${LINKED}", "./../linked"])
def test_load_paths_follow_the_rule_in_discovery_and_in_the_doctor(vora, home: Path, spelling: str) -> None:
    state = home / ".vora"
    state.mkdir(mode=0o700)
    make_plugin(home / "linked", "linked-engine")
    (state / "vora.json").write_text("{ plugins: { load: { paths: [" + json.dumps(spelling) + "] } } }\n")
    os.chmod(state / "vora.json", 0o600)
    env = {"LINKED": str(home / "linked")}
    plugins = vora("plugins", "list", "--json", env=env).json()["plugins"]
    assert [(p["id"], p["origin"], p["dangling"]) for p in plugins] == [("linked-engine", "linked", False)]
    doctor = vora("doctor", "--json", "--only", "plugin-references", env=env).json()
    assert doctor["checks"][0]["status"] == "pass", doctor["checks"][0]


def test_a_blank_load_path_is_no_plugin_and_a_stale_reference(vora, home: Path) -> None:
    state = home / ".vora"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text('{ plugins: { load: { paths: ["   "] } } }\n')
    os.chmod(state / "vora.json", 0o600)
    assert vora("plugins", "list", "--json").json()["plugins"] == []
    check = vora("doctor", "--json", "--only", "plugin-references").json()["checks"][0]
    assert check["status"] == "warn"
    assert check["message"] == "plugins.load.paths has    , which does not exist"


@pytest.mark.parametrize("spelling", ["  ~/extra-skills ", "~/extra-skills/", "${SKILLS}", "../extra-skills"])
def test_skill_extra_dirs_follow_the_rule(vora, home: Path, spelling: str) -> None:
    state = home / ".vora"
    state.mkdir(mode=0o700)
    skill = home / "extra-skills" / "deploy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: deploy\ndescription: Ship it.\n---\n")
    (state / "vora.json").write_text("{ skills: { load: { extraDirs: [" + json.dumps(spelling) + "] } } }\n")
    skills = vora("context", "json", env={"SKILLS": str(home / "extra-skills")}).json()["skills"]
    assert skills["names"] == ["deploy"]
    assert skills["roots"][0] == {"path": str(home / "extra-skills"), "source": "extra"}


def test_the_workspace_flag_follows_the_rule(vora, home: Path) -> None:
    (home / "ws-flag").mkdir()
    for spelling in ("  ~/ws-flag ", "~/ws-flag/", "~//ws-flag"):
        result = vora("context", "json", "--workspace", spelling)
        assert result.json()["workspace"] == str(home / "ws-flag"), spelling


@pytest.mark.parametrize("spelling", ["~/.vora/part.json5", " ~/.vora/part.json5 ", "./part.json5", "part.json5"])
def test_include_targets_follow_the_rule(vora, home: Path, tmp_path: Path, spelling: str) -> None:
    # `~` is the Vora home (VORA_HOME), not the OS HOME: the two differ here.
    state = home / ".vora"
    state.mkdir(mode=0o700)
    (state / "part.json5").write_text("{ gateway: { port: 19000 } }\n")
    (state / "vora.json").write_text('{ "$include": ' + json.dumps(spelling) + " }\n")
    other_home = tmp_path / "os-home"
    other_home.mkdir()
    result = vora("config", "get", "gateway.port", env={"HOME": str(other_home)})
    assert (result.exit_code, result.stdout) == (0, "19000\n"), result.stderr


def test_state_dir_flag_and_env_follow_the_rule(vora, home: Path, tmp_path: Path) -> None:
    for args, env in (
        (("--state-dir", "  ~/st/../state "), {}),
        ((), {"VORA_STATE_DIR": " ~/state "}),
        (("--state-dir", "~//state"), {}),
    ):
        result = vora(*args, "config", "file", "--json", env=env)
        assert result.json()["stateDir"] == str(home / "state"), (args, env)


def test_a_plugin_source_argument_follows_the_rule(vora, home: Path, tmp_path: Path) -> None:
    # `~` in the argument is the Vora home even when the OS HOME differs.
    state = home / ".vora"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text("{}\n")
    make_plugin(home / "src-engine", "src-engine")
    os_home = tmp_path / "os-home"
    os_home.mkdir()
    result = vora("plugins", "install", "-l", "  ~/src-engine ", env={"HOME": str(os_home)})
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Linked plugin src-engine (0.1.0) at {home / 'src-engine'}\n")
    written = (state / "vora.json").read_text()
    assert json.dumps(str(home / "src-engine")) in written


# -- a path that says nothing (issue 12 point 17) ---------------------------------------------------
# A path flag that says nothing (`--state-dir "$DIR"` with DIR unset) never resolves to the current
# directory: it is a usage error, exit 2, and nothing is written anywhere.

COMMANDS = [("config", "set", "gateway.port", "18800"), ("config", "get"), ("doctor",), ("plugins", "list"),
            ("config", "file")]


@pytest.mark.parametrize("flag", ["--state-dir", "--config"])
@pytest.mark.parametrize("value", ["", "  ", "\t"])
@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_blank_path_flag_is_a_usage_error(flag: str, value: str, args: tuple[str, ...], vora: Callable[..., Run],
                                            tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    result = vora("--json", flag, value, *args)
    assert result.exit_code == 2, result.stdout
    error = result.json()["error"]
    assert error["code"] == "usage" and flag in error["message"]
    assert list(work.iterdir()) == []


def test_a_real_path_flag_still_works(vora: Callable[..., Run], tmp_path: Path) -> None:
    state = tmp_path / "s"
    assert vora("--state-dir", str(state), "config", "set", "gateway.port", "18800").exit_code == 0
    assert (state / "vora.json").exists()


# A HOME that says nothing never puts files in the current directory either.

DB_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)


@pytest.mark.parametrize("value", ["undefined", "null", ""])
def test_cli_with_a_bogus_home_reads_the_user_database_home(
        value: str, vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VORA_HOME")
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    result = vora("config", "file", "--json", env={"HOME": value})
    assert result.exit_code == 0, result.stderr
    assert result.json()["path"] == str(DB_HOME / ".vora" / "vora.json")
    # A write (state dir and config given, so nothing lands in the real home) leaves the
    # current directory alone.
    target = tmp_path / "c.json5"
    target.write_text("{}\n")
    done = vora("--state-dir", str(tmp_path / "state"), "--config", str(target), "config", "set", "gateway.port",
                "18800", env={"HOME": value})
    assert done.exit_code == 0, done.stderr
    assert list(work.iterdir()) == []


def test_cli_relative_vora_home_is_exit_2(vora: Callable[..., Run]) -> None:
    result = vora("config", "file", "--json", env={"VORA_HOME": "undefined-dir"})
    assert result.exit_code == 2
    assert result.json()["error"]["code"] == "usage"
