"""A repair that failed is a failed run (issue 22, class 11).

`doctor --fix … --yes` whose fix failed exited 0 with `"ok": true` (the check it should have fixed
was only a warning). Every command that reports per-item results says a failed item in its exit
code, its `"ok"` and, for the CI formats, in a finding of its own: `doctor --fix` in every
format, `security audit --fix`, `plugins update --all`.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run
from plugins_support import make_plugin, tar_of, write_config

from vora_cli.core.errors import VoraError
from vora_cli.core.json5 import parser as json5_parser
from vora_cli.core.plugins import npm


def config_of(state_dir: Path) -> dict:
    return json5_parser.loads((state_dir / "vora.json").read_text())


STALE = '{\n  plugins: { allow: ["ghost-a"], entries: { "ghost-e": { enabled: true } } },\n}\n'


@pytest.fixture
def read_only_config(state_dir: Path) -> Path:
    """Stale plugin references (a warning, fixable) in a config the operator made read-only."""
    path = state_dir / "vora.json"
    path.write_text(STALE)
    path.chmod(0o400)
    return path


@pytest.mark.parametrize("args", [("--fix", "plugin-references"), ("--fix",), ("--fix-id", "plugin-references")])
def test_doctor_fix_that_failed_exits_1_with_ok_false(vora: Callable[..., Run], read_only_config: Path,
                                                      args: tuple[str, ...]) -> None:
    run = vora("doctor", *args, "--yes", "--json")
    assert run.exit_code == 1
    doc = run.json()
    assert doc["ok"] is False
    assert [(f["id"], f["status"]) for f in doc["fixes"]] == [("plugin-references", "failed")]
    assert "read-only" in doc["fixes"][0]["message"]
    assert read_only_config.read_text() == STALE
    human = vora("doctor", *args, "--yes")
    assert human.exit_code == 1 and "  failed: plugin-references: " in human.stdout


@pytest.mark.parametrize("fmt", ["github", "junit", "sarif"])
def test_the_ci_formats_show_the_failed_fix_as_a_finding(vora: Callable[..., Run], read_only_config: Path,
                                                         fmt: str) -> None:
    run = vora("doctor", "--fix", "plugin-references", "--yes", "--format", fmt)
    assert run.exit_code == 1
    if fmt == "github":
        assert any(line.startswith("::error title=vora doctor%3A fix-plugin-references::fix plugin-references failed: ")
                   for line in run.stdout.splitlines())
    elif fmt == "junit":
        case = next(c for c in ET.fromstring(run.stdout).iter("testcase") if c.get("name") == "fix-plugin-references")
        assert case.find("failure") is not None
    else:
        results = json.loads(run.stdout)["runs"][0]["results"]
        assert [r["level"] for r in results if r["ruleId"] == "fix-plugin-references"] == ["error"]


def test_a_fix_that_worked_is_still_ok(vora: Callable[..., Run], state_dir: Path) -> None:
    (state_dir / "vora.json").write_text(STALE)
    run = vora("doctor", "--fix", "plugin-references", "--yes", "--json")
    assert run.exit_code == 0 and run.json()["ok"] is True
    assert run.json()["fixes"][0]["status"] == "applied"


def test_an_unconfirmed_or_dry_run_fix_is_not_a_failure(vora: Callable[..., Run], read_only_config: Path) -> None:
    run = vora("doctor", "--fix", "plugin-references", "--dry-run", "--json")
    assert run.exit_code == 0 and run.json()["ok"] is True
    assert run.json()["fixes"][0]["status"] == "dry-run"


def test_security_audit_fix_that_failed_says_ok_false(vora: Callable[..., Run], state_dir: Path) -> None:
    path = state_dir / "vora.json"
    path.write_text('{\n  gateway: { auth: { mode: "token", token: "short" } },\n}\n')
    path.chmod(0o400)
    run = vora("security", "audit", "--fix", "gateway-token", "--yes", "--json")
    assert run.exit_code == 1
    assert run.json()["ok"] is False and run.json()["fixes"][0]["status"] == "failed"
    github = vora("security", "audit", "--fix", "gateway-token", "--yes", "--format", "github")
    assert github.exit_code == 1 and "fix-gateway-token::fix gateway-token failed" in github.stdout


def test_plugins_update_all_reports_each_failure_and_fails(tmp_path: Path, state_dir: Path, vora: Callable[..., Run],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    versions = {"claw": "1.0.0", "paw": "1.0.0"}
    broken: set[str] = set()

    def fake_pack(spec: str, dest: Path) -> npm.PackResult:
        if spec in broken:
            raise VoraError("external", f"npm pack {spec} failed: E404 Not Found", "check the package name")
        version = versions[spec]
        src = make_plugin(tmp_path / f"registry-{spec}-{version}" / spec, spec, version=version)
        return npm.PackResult(tar_of(src, dest / f"{spec}-{version}.tgz"), spec, version, f"sha512-{version}", None)

    monkeypatch.setattr(npm, "npm_pack", fake_pack)
    for name in ("claw", "paw"):
        assert vora("plugins", "install", name).exit_code == 0
    versions.update(claw="1.1.0", paw="1.1.0")
    broken.add("claw")  # first in the config: it used to abort the run before paw was tried
    run = vora("plugins", "update", "--all", "--json")
    assert run.exit_code == 1
    doc = run.json()
    assert doc["ok"] is False
    assert {p["id"]: p["status"] for p in doc["plugins"]} == {"claw": "failed", "paw": "updated"}
    assert "E404" in next(p["reason"] for p in doc["plugins"] if p["id"] == "claw")
    installs = config_of(state_dir)["plugins"]["installs"]
    assert (installs["claw"]["resolvedVersion"], installs["paw"]["resolvedVersion"]) == ("1.0.0", "1.1.0")
    human = vora("plugins", "update", "--all")
    assert human.exit_code == 1 and "claw: failed (npm pack claw failed: E404 Not Found" in human.stdout
    # one plugin named: its error is the command's, as before
    single = vora("plugins", "update", "claw", "--json")
    assert single.exit_code == 1 and single.json()["error"]["code"] == "external"
