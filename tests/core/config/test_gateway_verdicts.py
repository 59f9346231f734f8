"""vora's `config validate` verdict equals the gateway's, case by case.

The expected answers are the real gateway's (`tests/data/upstream/validate_verdicts.json`, asked
once by `scripts/gen_upstream_verdicts.py` of openclaw 2026.4.12); the configs and the plugins
installed for them are `validate_cases.json` and `tests/data/plugins/`.
"""

from __future__ import annotations

import json
import shutil
import tarfile
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.config import gateway as gateway_module
from vora_cli.core.config.validation import validate_config
from vora_cli.core.install import Install
from vora_cli.core.paths import resolve_paths
from vora_cli.core.plugins.facts import plugin_facts

DATA = Path(__file__).resolve().parents[2] / "data"
CASES = json.loads((DATA / "upstream" / "validate_cases.json").read_text())["cases"]
ANSWERS = json.loads((DATA / "upstream" / "validate_verdicts.json").read_text())


def place_plugin(spec: str, extensions: Path, scratch: Path) -> None:
    source = DATA / "plugins" / spec
    if source.suffix == ".tgz":
        with tarfile.open(source) as archive:
            archive.extractall(scratch / source.stem, filter="data")
        source = scratch / source.stem / "package"
    plugin_id = json.loads((source / "openclaw.plugin.json").read_text())["id"]
    shutil.copytree(source, extensions / plugin_id)


def vora_verdict(case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(case["config"])
    for name, text in case.get("includes", {}).items():
        (state / name).write_text(text)
    for spec in case.get("extensions", []):
        (state / "extensions").mkdir(exist_ok=True)
        place_plugin(spec, state / "extensions", tmp_path)
    for name, value in case.get("env", {}).items():
        monkeypatch.setenv(name, value)
    paths = resolve_paths(state_dir=str(state), env={"HOME": str(tmp_path)})
    report = validate_config(Install(paths=paths), plugin_facts=lambda config: plugin_facts(paths, config))
    issues = sorted((p.gateway_path or "<root>", p.message) for p in report.problems if p.severity == "error")
    return {"valid": report.valid, "issues": issues}


def test_the_answers_come_from_the_release_vora_ships_the_schema_of() -> None:
    from vora_cli.core.config.gateway import schema_version

    assert ANSWERS["version"] == schema_version() == "openclaw 2026.4.12"
    assert len(CASES) >= 40 and {c["id"] for c in CASES} == set(ANSWERS["verdicts"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_vora_says_what_the_gateway_says(case: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice, in one home: the second run answers the accepted parts from vora's verdict cache
    (core/config/verdicts.py) and must say exactly what the first, validated, run said."""
    gateway = ANSWERS["verdicts"][case["id"]]
    compiled: list[object] = []
    real_validator = gateway_module._validator
    monkeypatch.setattr(gateway_module, "_validator", lambda schema: compiled.append(schema) or real_validator(schema))
    (tmp_path / "cold").mkdir()
    (tmp_path / "warm").mkdir()
    ours = vora_verdict(case, tmp_path / "cold", monkeypatch)
    first = len(compiled)
    again = vora_verdict(case, tmp_path / "warm", monkeypatch)
    assert json.dumps(again).replace(str(tmp_path / "warm"), str(tmp_path / "cold")) == json.dumps(ours)
    if ours["valid"]:
        assert len(compiled) == first  # nothing validated again
    assert ours["valid"] == gateway["valid"]
    if case.get("compare", "issues") == "issues":
        assert ours["issues"] == sorted((i["path"], i["message"]) for i in gateway.get("issues", []))
