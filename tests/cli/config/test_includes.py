"""A config whose `$include`s multiply cannot hang vora (issue 35, point 2): every command stops at
once with one line naming the include chain (exit 1), nothing is written, and `config edit`,
`config unset` and `doctor` still help the operator out. The core side, include graphs of any
shape against the spec's definition: tests/core/config/test_include_graphs.py.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hang_guard import cpu_hang_guard

CHAIN = ("vora.json -> f0.json5 -> f1.json5 (x3) -> "
         + " -> ".join(f"f{i}.json5 (x4)" for i in range(2, 10)))


@pytest.fixture
def multiplying(state_dir: Path) -> Path:
    """Eleven files of under 100 bytes, each including the next four times (the issue's shape)."""
    (state_dir / "vora.json").write_text(
        '{ gateway: { port: 18789 }, agents: { "$include": ["f0.json5", "f0.json5", "f0.json5", "f0.json5"] } }\n')
    for i in range(10):
        targets = ", ".join([f'"f{i + 1}.json5"'] * 4)
        include = f', "$include": [{targets}]' if i < 9 else ""
        (state_dir / f"f{i}.json5").write_text(f'{{ list: [{{ id: "a" }}]{include} }}')
    return state_dir


def _files(state: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(state.iterdir()) if p.is_file()}


@pytest.mark.parametrize("args", [
    ("config", "get"), ("config", "get", "gateway.port"), ("config", "validate"), ("config", "set", "gateway.port", "1"),
    ("config", "patch", "-"), ("sessions", "list"), ("gateway", "status", "--timeout", "1"), ("context", "list"),
    ("plugins", "list"), ("backup", "create", "--dry-run"),
], ids=lambda a: " ".join(a[:2]))
def test_every_command_stops_at_once_naming_the_chain(multiplying: Path, vora, args: tuple[str, ...]) -> None:
    before = _files(multiplying)
    with cpu_hang_guard(" ".join(args)):
        run = vora(*args, input="{gateway: {port: 2}}" if "patch" in args else None)
    assert run.exit_code == 1, run.stdout + run.stderr
    shown = run.stdout + run.stderr
    assert f"$include brings in more than 1,000,000 values, through {CHAIN}" in shown
    assert "internal" not in shown and "Traceback" not in shown
    assert _files(multiplying) == before


def test_the_security_audit_skips_what_needs_the_config(multiplying: Path, vora) -> None:
    with cpu_hang_guard("security audit"):
        run = vora("security", "audit", "--json")
    skipped = {c["id"]: c for c in run.json()["checks"] if c["status"] == "skip"}
    assert "see vora doctor's config-syntax" in skipped["gateway-auth"]["message"]


def test_the_error_is_one_line_with_the_next_step(multiplying: Path, vora) -> None:
    run = vora("config", "get", "gateway.port")
    assert run.stderr.splitlines() == [
        f"error: {multiplying / 'vora.json'}: $include brings in more than 1,000,000 values, through {CHAIN}",
        "hint: include each file once where it is needed (a file that includes another several times, in a chain, "
        "multiplies it): fix it with 'vora config edit'",
    ]
    document = vora("config", "get", "--json").json()
    assert document["error"]["code"] == "invalid" and CHAIN in document["error"]["message"]


def test_doctor_names_it_and_the_next_step(multiplying: Path, vora) -> None:
    run = vora("doctor", "--json")
    assert run.exit_code == 1
    checks = {c["id"]: c for c in run.json()["checks"]}
    assert CHAIN in checks["config-syntax"]["message"] and checks["config-syntax"]["status"] == "error"
    assert "vora config edit" in vora("doctor").stdout


def test_unset_removes_the_include_it_names(multiplying: Path, vora) -> None:
    run = vora("config", "unset", "agents.$include")
    assert run.exit_code == 0, run.stderr
    assert vora("config", "get", "agents", "--json").json()["value"] == {}


def test_config_edit_repairs_it(multiplying: Path, vora, tmp_path: Path) -> None:
    fixed = '{ gateway: { port: 18789 }, agents: { "$include": "f9.json5" } }\n'
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({fixed!r})\n")
    run = vora("config", "edit", "--force", env={"EDITOR": f"{sys.executable} {script}"})
    assert run.exit_code == 0, run.stderr
    assert vora("config", "get", "agents.list", "--json").json()["value"] == [{"id": "a"}]


def test_config_edit_refuses_a_result_that_still_multiplies(multiplying: Path, vora, tmp_path: Path) -> None:
    still = '{ gateway: { port: 18790 }, agents: { "$include": ["f0.json5", "f0.json5"] } }\n'
    script = tmp_path / "editor.py"
    script.write_text(f"import sys\nopen(sys.argv[1], 'w').write({still!r})\n")
    before = _files(multiplying)
    run = vora("config", "edit", "--force", env={"EDITOR": f"{sys.executable} {script}"})
    assert run.exit_code == 1
    assert "$include brings in more than" in run.stderr and "nothing was written" in run.stderr
    assert _files(multiplying) == before


def test_big_files_included_again_and_again_stop_at_the_bytes(state_dir: Path, vora) -> None:
    (state_dir / "notes.json5").write_text('{ notes: "' + "n" * 1_900_000 + '" }')
    (state_dir / "vora.json").write_text('{ env: { "$include": ["notes.json5", "notes.json5", "notes.json5", '
                                         '"notes.json5", "notes.json5"] } }')
    run = vora("config", "get", "gateway.port")
    assert run.exit_code == 1
    assert "$include brings in more than 8,388,608 bytes, through vora.json -> notes.json5 (x5)" in run.stderr


def test_a_file_shared_by_many_agents_loads(state_dir: Path, vora) -> None:
    agents = ", ".join(f'{{ "$include": "./agent-base.json5", id: "a{i}" }}' for i in range(200))
    (state_dir / "vora.json").write_text(f"{{ agents: {{ list: [ {agents} ] }} }}")
    (state_dir / "agent-base.json5").write_text('{ model: "anthropic/claude-sonnet-4-5", "$include": "./tools.json5" }')
    (state_dir / "tools.json5").write_text('{ tools: { allow: ["read"] } }')
    run = vora("config", "get", "agents.list[150]", "--json")
    assert run.exit_code == 0, run.stderr
    assert run.json()["value"] == {"model": "anthropic/claude-sonnet-4-5", "tools": {"allow": ["read"]}, "id": "a150"}


@pytest.mark.parametrize("bad", ["x\\u0000.json5", "\\ud800.json5"], ids=["NUL", "lone surrogate"])
def test_an_include_no_file_can_have_is_named_with_its_config(vora, state_dir: Path, bad: str) -> None:
    config = state_dir / "vora.json"
    config.write_text('{ "$include": "' + bad + '", gateway: { port: 1 } }\n')
    before = config.read_bytes()
    result = vora("config", "get", "gateway.port", "--json")
    error = json.loads(result.stdout)["error"]
    assert result.exit_code == 1 and error["code"] == "not_found", result.stdout
    assert error["message"].startswith(f"{config}: $include ") and "no file can have that name" in error["message"]
    assert "config unset '$include'" in error["hint"]
    result = vora("config", "validate", "--json")
    assert result.exit_code == 1 and json.loads(result.stdout)["problems"][0]["message"] == error["message"]
    assert config.read_bytes() == before
