"""vora's `config validate` verdict equals the gateway's, case by case.

The expected answers are the real gateway's (`tests/data/upstream/validate_verdicts.json`, asked
once by `scripts/gen_upstream_verdicts.py` of openclaw 2026.4.12); the configs, the plugins and the
files laid out for them are `validate_cases.json` (`tests/support/verdict_cases.py` lays them out,
for both) and `tests/data/plugins/`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from verdict_cases import compared, lay_out, shown

from vora_cli.core.config import gateway as gateway_module
from vora_cli.core.config.gateway import gateway_verdict
from vora_cli.core.config.migrations import migrate_legacy
from vora_cli.core.config.validation import validate_config
from vora_cli.core.install import Install
from vora_cli.core.paths import resolve_paths
from vora_cli.core.plugins.facts import plugin_facts

DATA = Path(__file__).resolve().parents[2] / "data"
CASES = json.loads((DATA / "upstream" / "validate_cases.json").read_text())["cases"]
ANSWERS = json.loads((DATA / "upstream" / "validate_verdicts.json").read_text())


def vora_verdict(case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    state, home = tmp_path / "state", tmp_path
    lay_out(case, state, home)
    for name, value in case.get("env", {}).items():
        monkeypatch.setenv(name, value)
    paths = resolve_paths(state_dir=str(state), env={"HOME": str(home)})
    install = Install(paths=paths)
    report = validate_config(install, plugin_facts=lambda config: plugin_facts(paths, config))

    def said(severity: str) -> list[tuple[str, str]]:
        return sorted((p.gateway_path or "<root>", compared(shown(p.message, state, home), case))
                      for p in report.problems if p.severity == severity and p.rule is not None)

    ordered = []
    if case.get("ordered"):  # the verdict's own order (the report sorts its problems by position)
        verdict = gateway_verdict(migrate_legacy(install.effective), lambda: plugin_facts(paths, install.effective))
        ordered = [(i.gateway_path, compared(shown(i.message, state, home), case)) for i in verdict.issues]
    missing = install.config.missing_env_vars() if install.config is not None else []
    return {"valid": report.valid, "issues": said("error"), "warnings": said("warn"), "ordered": ordered,
            "missing": missing}


def test_the_answers_come_from_the_release_vora_ships_the_schema_of() -> None:
    from vora_cli.core.config.gateway import schema_version

    assert ANSWERS["version"] == schema_version() == "openclaw 2026.4.12"
    assert len(CASES) >= 40 and {c["id"] for c in CASES} == set(ANSWERS["verdicts"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vora_says_what_the_gateway_says(case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice, in one home: the second run answers the accepted parts from vora's verdict cache
    (core/config/verdicts.py) and must say exactly what the first, validated, run said. A case the
    gateway accepts is held to the warnings it logs too; an `ordered` one to its order of issues."""
    gateway = ANSWERS["verdicts"][case["id"]]
    compiled: list[object] = []
    real_validator = gateway_module._validator
    monkeypatch.setattr(gateway_module, "_validator", lambda schema: compiled.append(schema) or real_validator(schema))
    (tmp_path / "cold").mkdir()
    (tmp_path / "warm").mkdir()
    ours = vora_verdict(case, tmp_path / "cold", monkeypatch)
    first = len(compiled)
    again = vora_verdict(case, tmp_path / "warm", monkeypatch)
    assert again == ours
    if ours["valid"] and "<state>" not in case["config"]:  # (a config naming its folder differs between the two)
        assert len(compiled) == first  # nothing validated again
    assert ours["valid"] == gateway["valid"]
    if case.get("compare", "issues") != "valid":
        assert ours["issues"] == sorted((i["path"], compared(i["message"], case)) for i in gateway.get("issues", []))
    if "warnings" in gateway:
        assert ours["warnings"] == sorted((w["path"], compared(w["message"], case)) for w in gateway["warnings"])
    if case.get("ordered"):
        assert ours["ordered"] == [(i["path"], compared(i["message"], case)) for i in gateway["issues"]]
    if "missingEnvVars" in gateway:  # the ${VAR}s it found unset, after the config's own env.vars
        assert ours["missing"] == list(dict.fromkeys(name for name, _path in gateway["missingEnvVars"]))


def test_a_sandbox_refusal_follows_the_issues_inside_its_object() -> None:
    """zod refines an object once its members are checked: the refusal comes after the object's
    unknown key, in the gateway's order (what `config set` names first)."""
    from vora_cli.core.json5.parser import loads

    case = next(c for c in CASES if c["id"] == "sandbox-beside-unknown-keys")
    verdict = gateway_verdict(migrate_legacy(loads(case["config"])))
    dotted = [(".".join(str(p) for p in issue.path), issue.message) for issue in verdict.issues]
    assert dotted == [(i["path"], i["message"]) for i in ANSWERS["verdicts"][case["id"]]["issues"]]
