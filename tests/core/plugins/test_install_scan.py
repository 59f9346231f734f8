"""The gateway installer's scan, run by vora: the same decision on the same packages, and its dependency denylist.

The expected answers are openclaw 2026.4.12's own (`scripts/gen_install_scans.py`): its scan function on
each package of `tests/data/upstream/install_scan_cases.json` and its real `plugins install`. The code
scanner's findings on them are held in `test_code_safety.py`; here, what the installer makes of them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plugins_support import scan_case_package

from vora_cli.core.plugins.install_scan import blocked_dependencies, scan_package

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream"
CASES = {case["id"]: case for case in json.loads((DATA / "install_scan_cases.json").read_text())["cases"]}
SCANS = json.loads((DATA / "install-scans-openclaw-2026.4.12.json").read_text())["scans"]
DANGEROUS = "installation blocked: dangerous code patterns detected: "


@pytest.mark.parametrize("case_id", sorted(SCANS))
def test_each_package_gets_the_gateways_decision(tmp_path: Path, case_id: str) -> None:
    want = SCANS[case_id]
    root = scan_case_package(CASES[case_id], tmp_path)
    package = json.loads((root / "package.json").read_text())
    scan = scan_package(root, package.get("openclaw", {}).get("extensions", []))
    assert scan.to_dict()["findings"] == want["findings"] and scan.to_dict()["scannedFiles"] == want["scannedFiles"]
    blocked = bool(scan.critical or scan.blocked_dependencies)
    assert blocked is (want["blocked"] is not None) is want["cli"]["blocked"]
    reason = want["blocked"]["reason"] if want["blocked"] else ""
    if DANGEROUS in reason:  # the patterns vora names, in the gateway's words and order
        assert "; ".join(map(str, scan.critical)) == reason.partition(DANGEROUS)[2]
    if "blocked dependencies" in reason:
        assert scan.blocked_dependencies == ('"plain-crypto-js" in dependencies of package.json',)


def test_the_recorded_packages_cover_both_decisions_and_the_walks_limit() -> None:
    assert {bool(scan["blocked"]) for scan in SCANS.values()} == {True, False}
    assert max(scan["scannedFiles"] for scan in SCANS.values()) == 500


@pytest.mark.parametrize(("manifest", "why"), [
    ({"name": "plain-crypto-js"}, '"plain-crypto-js" as package name in package.json'),
    ({"optionalDependencies": {"crypto": "npm:plain-crypto-js@4.2.1"}},
     '"plain-crypto-js" via alias "crypto" in optionalDependencies of package.json'),
    ({"peerDependencies": {"plain-crypto-js": "*"}}, '"plain-crypto-js" in peerDependencies of package.json'),
    ({"overrides": {"left-pad": {"plain-crypto-js@1": "1.0.0"}}}, '"plain-crypto-js" in overrides of package.json'),
    ({"overrides": {"x": "npm:plain-crypto-js"}}, '"plain-crypto-js" via alias "x" in overrides of package.json'),
])
def test_the_dependency_denylist_finds_every_way_a_package_is_named(tmp_path: Path, manifest: dict, why: str) -> None:
    (tmp_path / "package.json").write_text(json.dumps(manifest))
    assert blocked_dependencies(tmp_path) == (why,)


def test_the_denylist_looks_under_node_modules_too(tmp_path: Path) -> None:
    (tmp_path / "package.json").write_text("{}")
    (tmp_path / "node_modules" / "Plain-Crypto-Js").mkdir(parents=True)
    (tmp_path / "lib" / "node_modules").mkdir(parents=True)
    (tmp_path / "lib" / "node_modules" / "plain-crypto-js.js").write_text("")
    assert blocked_dependencies(tmp_path) == ('"Plain-Crypto-Js" at node_modules/Plain-Crypto-Js',
                                              '"plain-crypto-js.js" at lib/node_modules/plain-crypto-js.js')
