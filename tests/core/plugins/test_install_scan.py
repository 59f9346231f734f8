"""The gateway installer's code scan, run by vora: the same findings and the same decision on the same packages.

The expected answers are openclaw 2026.4.12's own (`scripts/gen_install_scans.py`): its scan function on
each package of `tests/data/upstream/install_scan_cases.json` (every rule's members and what each passes
over, the walk's limits, a blocked dependency, the published packages) and its real `plugins install`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hang_guard import cpu_hang_guard
from plugins_support import scan_case_package

from vora_cli.core.plugins.install_scan import (
    blocked_dependencies,
    js_pattern,
    rules,
    scan_package,
    scan_source,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream"
CASES = {case["id"]: case for case in json.loads((DATA / "install_scan_cases.json").read_text())["cases"]}
RECORDED = json.loads((DATA / "install-scans-openclaw-2026.4.12.json").read_text())
SCANS = RECORDED["scans"]


def _scan(tmp_path: Path, case_id: str) -> tuple[Path, object]:
    root = scan_case_package(CASES[case_id], tmp_path)
    package = json.loads((root / "package.json").read_text())
    return root, scan_package(root, package.get("openclaw", {}).get("extensions", []))


def test_the_rules_are_the_releases() -> None:
    table = rules()
    assert table.version == RECORDED["version"] == "openclaw 2026.4.12"
    assert {r.id for r in (*table.line_rules, *table.source_rules)} == {
        "dangerous-exec", "dynamic-code-execution", "crypto-mining", "suspicious-network", "potential-exfiltration",
        "obfuscated-code", "env-harvesting"}
    assert table.max_files == 500 and table.max_file_bytes == 1024 * 1024 and table.blocked_packages == {"plain-crypto-js"}


@pytest.mark.parametrize("case_id", sorted(SCANS))
def test_each_package_gets_the_gateways_findings_and_decision(tmp_path: Path, case_id: str) -> None:
    want = SCANS[case_id]
    _root, scan = _scan(tmp_path, case_id)
    found = sorted((f.rule, f.severity, f.file, f.line, f.message) for f in scan.findings)  # type: ignore[attr-defined]
    assert found == sorted((f["rule"], f["severity"], f["file"], f["line"], f["message"]) for f in want["findings"])
    assert scan.scanned_files == want["scannedFiles"]  # type: ignore[attr-defined]
    blocked = bool(scan.critical or scan.blocked_dependencies)  # type: ignore[attr-defined]
    assert blocked is (want["blocked"] is not None) is want["cli"]["blocked"]
    if want["blocked"] and want["blocked"]["reason"].count("blocked dependencies"):
        assert scan.blocked_dependencies == ('"plain-crypto-js" in dependencies of package.json',)  # type: ignore[attr-defined]


def test_the_recorded_packages_cover_every_rule_and_both_verdicts() -> None:
    rules_seen = {f["rule"] for scan in SCANS.values() for f in scan["findings"]}
    assert rules_seen == {"dangerous-exec", "dynamic-code-execution", "crypto-mining", "suspicious-network",
                          "potential-exfiltration", "obfuscated-code", "env-harvesting"}
    assert {bool(scan["blocked"]) for scan in SCANS.values()} == {True, False}


@pytest.mark.parametrize(("source", "flags", "text", "match"), [
    (r"\beval\s*\(", "", "myeval (1)", False),  # `\b` is JavaScript's...
    (r"\beval\s*\(", "", "evaluate(eval\u00a0(1))", True),  # ...and `\s` takes a no-break space
    (r"\beval\s*\(", "", "éeval(1)", True),  # a non-ASCII letter is no word character to JavaScript
    (r"a\s+b", "", "a\x1cb", False),  # Python's `\s` would take U+001C; JavaScript's does not
    (r"\d+", "", "\u0663", False),  # an Arabic-Indic digit is no `\d` to JavaScript
    (r"xmrig", "i", "XMRig", True),
])
def test_javascript_patterns_keep_their_meaning(source: str, flags: str, text: str, match: bool) -> None:
    assert bool(js_pattern(source, flags).search(text)) is match


def test_a_pattern_the_translation_cannot_keep_is_refused() -> None:
    with pytest.raises(ValueError):
        js_pattern(r"[\s]", "")
    with pytest.raises(ValueError):
        js_pattern("a", "gu")


def test_each_rule_reports_one_line_per_file_the_first() -> None:
    text = 'const cp = require("child_process");\ncp.exec("a");\ncp.spawn("b");\neval(1);\neval(2);\n'
    found = [(f.rule, f.line) for f in scan_source(text, "index.js")]
    assert found == [("dangerous-exec", 2), ("dynamic-code-execution", 4)]


def test_a_match_across_lines_is_reported_at_line_one() -> None:
    payload = "x" * 3 + "A" * 250
    text = f'const a = 1;\nconst p = atob(\n"{payload}");\n'
    assert [(f.rule, f.line) for f in scan_source(text.replace("(\n", "("), "a.js")] == [("obfuscated-code", 2)]


def test_a_two_mebibyte_line_is_scanned_without_hanging() -> None:
    line = "new WebSocket(\"ws://h:" + "9" * (2 * 1024 * 1024) + "\x41" * 5
    with cpu_hang_guard("the install scan of a 2 MiB line"):
        assert [f.rule for f in scan_source(line, "a.js")] == ["suspicious-network"]
        assert scan_source("(\\x41" * 400_000, "b.js") == []
        assert scan_source("atob('" + "A" * 2_000_000, "c.js") == []


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
