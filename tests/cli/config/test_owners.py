"""Root's writes keep the install's owner (issue 35, point 4), tested with a real second user
(tests/support/second_user.py: `vora-test-svc`, made by the test; the suite runs as root).

`sudo vora --state-dir ~svc/.vora config set …` left `vora.json`, its lock, the backup ring and
the audit log `root:root 0600`, and the gateway running as `svc` could no longer read its own
config. Now a file vora replaces keeps its owner and group, and what vora creates in the state
dir gets the state dir's owner. A second user who cannot keep a file's owner is refused before
anything is written. The pairing store's side: tests/cli/devices/test_owners.py; the writer's:
tests/core/writer/test_writer_owners.py.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from conftest import Run, vora_command
from second_user import give, owner_of, reachable, run_as, svc  # noqa: F401  (fixtures)

CONFIG = '{\n  // svc\'s gateway\n  gateway: { port: 18789, auth: { token: "svc-token-0123456789" } },\n}\n'


@pytest.fixture
def install(reachable: Path, svc) -> Path:  # noqa: F811
    """A state dir of the second user's, its config 0640 (the gateway's group may read it)."""
    state = reachable / "svc-state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(CONFIG)
    os.chmod(state / "vora.json", 0o640)
    give(state, svc)
    return state


def _everything(state: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(state)): owner_of(p) for p in sorted(state.rglob("*"))}


def _svcs(state: Path, svc) -> None:  # noqa: F811
    wrong = {name: who for name, who in _everything(state).items() if who != (svc.pw_uid, svc.pw_gid)}
    assert wrong == {}, f"left to another owner: {wrong}"


@pytest.mark.parametrize("args", [
    ("config", "set", "gateway.port", "18790"),
    ("config", "unset", "gateway.auth.token"),
    ("config", "patch", "-"),
    ("config", "set", "agents.list", '[{id: "main"}]'),
])
def test_a_config_write_as_root_leaves_the_install_its_owners(vora, install: Path, svc, args) -> None:  # noqa: F811
    for _ in range(3):  # a ring of backups, each write a new .bak
        run = vora("--state-dir", str(install), *args, input='{gateway: {bind: "loopback"}}')
        assert run.exit_code in (0, 1), run.stderr
    config = install / "vora.json"
    assert owner_of(config) == (svc.pw_uid, svc.pw_gid) and (config.stat().st_mode & 0o777) == 0o640
    assert (install / "logs" / "config-audit.jsonl").exists() and (install / "vora.json.bak").exists()
    _svcs(install, svc)


def test_config_edit_as_root_too(vora, install: Path, svc, tmp_path: Path) -> None:  # noqa: F811
    script = tmp_path / "editor.py"
    script.write_text("import sys\nopen(sys.argv[1], 'w').write('{ gateway: { port: 18800 } }\\n')\n")
    run = vora("--state-dir", str(install), "config", "edit", "--force", env={"EDITOR": f"{sys.executable} {script}"})
    assert run.exit_code == 0, run.stderr
    _svcs(install, svc)


def test_a_plugin_link_and_doctor_fix_as_root_too(vora, install: Path, svc, tmp_path: Path) -> None:  # noqa: F811
    from plugins_support import make_plugin

    plugin = make_plugin(install.parent / "src" / "my-engine")
    give(install.parent / "src", svc)
    assert vora("--state-dir", str(install), "plugins", "install", "-l", str(plugin)).exit_code == 0
    assert vora("--state-dir", str(install), "plugins", "install", str(plugin)).exit_code in (0, 1)
    os.chmod(install / "vora.json", 0o644)  # a finding doctor --fix repairs
    run = vora("--state-dir", str(install), "doctor", "--fix", "--yes")
    assert run.exit_code in (0, 1), run.stderr
    _svcs(install, svc)


def test_a_file_of_another_owner_inside_keeps_its_own(vora, install: Path, svc) -> None:  # noqa: F811
    (install / "agents.json5").write_text('{ list: [{ id: "main" }] }')
    os.chown(install / "agents.json5", 0, 0)  # root's, inside svc's state dir: it stays root's
    config = install / "vora.json"
    config.write_text('{ agents: { "$include": "./agents.json5" } }\n')
    os.chown(config, svc.pw_uid, svc.pw_gid)
    run = vora("--state-dir", str(install), "config", "set", "agents.list[0].name", "Main")
    assert run.exit_code == 0, run.stderr
    assert owner_of(install / "agents.json5") == (0, 0)
    assert owner_of(config) == (svc.pw_uid, svc.pw_gid)


def _vora_as_svc(install: Path, *args: str) -> Run:
    from click.testing import CliRunner

    def call() -> Run:
        runner = CliRunner(mix_stderr=False)
        result = runner.invoke(vora_command(), ["--state-dir", str(install), *args], catch_exceptions=False,
                               env={"HOME": str(install.parent), "VORA_HOME": str(install.parent)})
        return Run(result.exit_code, result.stdout, result.stderr)

    return call


def test_as_the_second_user_a_file_it_cannot_keep_is_refused_before_anything_is_written(
        install: Path, svc) -> None:  # noqa: F811
    config = install / "vora.json"
    os.chown(config, 0, 0)  # root's config in svc's writable state dir: a write as svc would make it svc's
    os.chmod(config, 0o644)
    before = {p.name: p.read_bytes() for p in install.iterdir() if p.is_file()}
    scratch = install.parent / "scratch"
    scratch.mkdir()
    (scratch / "vora.json").write_text(CONFIG)
    run = run_as(svc, _vora_as_svc(install, "config", "set", "gateway.port", "18790"),
                 warm=_vora_as_svc(scratch, "config", "set", "gateway.port", "18790"))
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert lines[0] == (f"error: {config} belongs to root:root; replacing it as {svc.pw_name} would make it "
                        f"{svc.pw_name}'s and root (a gateway running as root) might no longer read it; "
                        "nothing was written")
    assert lines[1] == "hint: run it as root: sudo vora …"
    assert owner_of(config) == (0, 0)
    after = {p.name: p.read_bytes() for p in install.iterdir() if p.is_file() and not p.name.endswith(".lock")}
    assert after == before


def test_as_the_second_user_its_own_install_is_written_as_usual(install: Path, svc) -> None:  # noqa: F811
    scratch = install.parent / "scratch"
    scratch.mkdir()
    (scratch / "vora.json").write_text(CONFIG)
    run = run_as(svc, _vora_as_svc(install, "config", "set", "gateway.port", "18790", "--json"),
                 warm=_vora_as_svc(scratch, "config", "set", "gateway.port", "18790", "--json"))
    assert run.exit_code == 0, run.stderr
    assert json.loads(run.stdout)["changed"] is True
    _svcs(install, svc)
