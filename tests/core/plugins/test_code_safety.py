"""vora's scanner of plugin code (`core/plugins/code_safety.py`) is the gateway's: its rules, its walk, its limits.

The expected answers are the release's own (openclaw 2026.4.12), recorded once:
- `tests/data/upstream/code-safety-openclaw-2026.4.12.json` (scripts/gen_code_safety.py): its
  `scanDirectoryWithSummary` on 425 sources mixing fragments that match, nearly match or must not match
  every rule, and text JavaScript reads otherwise than Python: each finding's rule, severity, line,
  message and evidence, in order;
- `tests/data/upstream/install-scans-openclaw-2026.4.12.json` (scripts/gen_install_scans.py): the same
  scan, as its installer runs it, on the packages of `install_scan_cases.json` (the walk's order and its
  limits, entry files, published packages): every finding in order, and the number of files read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hang_guard import blocking_hang_guard, cpu_hang_guard
from plugins_support import scan_case_package

from vora_cli.core.plugins.code_safety import js_pattern, plugin_files, rules, scan_plugin_code, scan_source

DATA = Path(__file__).resolve().parents[2] / "data" / "upstream"
SOURCES = json.loads((DATA / "code-safety-openclaw-2026.4.12.json").read_text(encoding="utf-8"))
CASES = {case["id"]: case for case in json.loads((DATA / "install_scan_cases.json").read_text())["cases"]}
PACKAGES = json.loads((DATA / "install-scans-openclaw-2026.4.12.json").read_text())
RULE_IDS = {"dangerous-exec", "dynamic-code-execution", "crypto-mining", "suspicious-network", "potential-exfiltration",
            "obfuscated-code", "env-harvesting"}


def test_the_rules_and_the_answers_are_the_releases() -> None:
    table = rules()
    assert table.version == SOURCES["version"] == PACKAGES["version"] == "openclaw 2026.4.12"
    assert {r.id for r in (*table.line_rules, *table.source_rules)} == RULE_IDS
    assert (table.max_files, table.max_file_bytes) == (500, 1024 * 1024)
    assert len(SOURCES["cases"]) > 400 and sum(1 for c in SOURCES["cases"] if c["findings"]) > 200
    assert {f["rule"] for scan in PACKAGES["scans"].values() for f in scan["findings"]} == RULE_IDS


def test_each_source_gets_the_gateways_findings() -> None:
    for case in SOURCES["cases"]:
        found = [[f.rule, f.severity, f.line, f.message, f.evidence] for f in scan_source(case["source"], "a.js")]
        assert found == case["findings"], case["source"]


@pytest.mark.parametrize("case_id", sorted(PACKAGES["scans"]))
def test_each_package_is_walked_and_scanned_as_the_gateway_does(tmp_path: Path, case_id: str) -> None:
    want = PACKAGES["scans"][case_id]
    root = scan_case_package(CASES[case_id], tmp_path)
    entries = json.loads((root / "package.json").read_text()).get("openclaw", {}).get("extensions", [])
    scan = scan_plugin_code(root, entries)
    assert [f.to_dict() for f in scan.findings] == want["findings"]  # in its order: the walk's
    assert (scan.scanned_files, len(scan.critical), len(scan.warnings)) == (
        want["scannedFiles"], want["critical"], want["warn"])


def test_a_folder_is_listed_in_byte_order_as_node_lists_it(tmp_path: Path) -> None:
    for name in ("b.js", "_x.js", "B.js", "a10.js", "a9.js", "é.js", "中.js", ".h.js", "n.md"):
        (tmp_path / name).write_text("")
    os.symlink(tmp_path / "b.js", tmp_path / "link.js")  # a link is no file to the walk
    names = [name for _path, name in plugin_files(tmp_path)[1]]
    assert names == ["B.js", "_x.js", "a10.js", "a9.js", "b.js", "é.js", "中.js"]


def test_entry_files_come_first_wherever_they_are_inside_the_folder(tmp_path: Path) -> None:
    (tmp_path / "outside.js").write_text("eval(1)\n")
    root = tmp_path / "p"
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "node_modules" / "dep" / "main.js").write_text("eval(1)\n")
    (root / "a.ts").write_text("eval(1)\n")
    entries = ("../outside.js", "./node_modules/dep/main.js", "node_modules/dep/../dep/main.js", "missing.js", "a.ts")
    assert [name for _path, name in plugin_files(root, entries)[1]] == ["node_modules/dep/main.js", "a.ts"]


def test_a_single_file_plugin_is_that_file_alone(tmp_path: Path) -> None:
    (tmp_path / "sibling.js").write_text("eval(1)\n")
    (tmp_path / "plugin.mjs").write_text("const x = 1;\nnew Function('a')\n")
    scan = scan_plugin_code(tmp_path / "plugin.mjs")
    assert (scan.scanned_files, [str(f) for f in scan.findings]) == (1, ["Dynamic code execution detected (plugin.mjs:2)"])
    assert scan.path(scan.findings[0]) == tmp_path / "plugin.mjs" and scan.verdict == "critical"


def test_what_is_not_a_regular_file_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.js")  # an entry naming a FIFO: never opened, so never waited on
    (tmp_path / "dir.js").mkdir()
    with blocking_hang_guard("a FIFO among a plugin's entries"), cpu_hang_guard("a FIFO among a plugin's entries"):
        assert scan_plugin_code(tmp_path, ("pipe.js", "dir.js")).scanned_files == 0


@pytest.mark.parametrize(("source", "flags", "text", "match"), [
    (r"\beval\s*\(", "", "myeval (1)", False),  # `\b` is JavaScript's...
    (r"\beval\s*\(", "", "evaluate(eval\u00a0(1))", True),  # ...and `\s` takes a no-break space
    (r"\beval\s*\(", "", "éeval(1)", True),  # a non-ASCII letter is no word character to JavaScript
    (r"a\s+b", "", "a\x1cb", False),  # Python's `\s` would take U+001C; JavaScript's does not
    (r"a[\s,]b", "", "a\u3000b", True),
    (r"a\Sb", "", "a\ufeffb", False),
    (r"\d+", "", "\u0663", False),  # an Arabic-Indic digit is no `\d` to JavaScript
    (r"a.b", "", "a\u2028b", False),  # nor is a line separator any character
    (r"a$", "", "a\n", False),
    (r"xmrig", "i", "XMRig", True),
    (r"xmrig", "i", "XMR\u0130G", False),
])
def test_javascript_patterns_keep_their_meaning(source: str, flags: str, text: str, match: bool) -> None:
    assert bool(js_pattern(source, flags).search(text)) is match


@pytest.mark.parametrize(("source", "flags"), [(r"[\S]", ""), ("a", "gu"), ("é", "i")])
def test_a_pattern_the_translation_cannot_keep_is_refused(source: str, flags: str) -> None:
    with pytest.raises(ValueError):
        js_pattern(source, flags)


def test_a_two_mebibyte_line_is_scanned_without_hanging() -> None:
    with cpu_hang_guard("the code scan of a 2 MiB line"):
        line = 'new WebSocket("ws://h:' + "9" * (2 * 1024 * 1024) + "\x41" * 5
        assert [f.rule for f in scan_source(line, "a.js")] == ["suspicious-network"]
        assert scan_source("(\\x41" * 400_000, "b.js") == []
        assert scan_source("atob('" + "A" * 2_000_000, "c.js") == []
        assert scan_source('new WebSocket("ws://:' * 100_000 + "x", "d.js") == []
        line = "child_process " + "exec" * 250_000 + " eval " + "(" * 1_000_000 + " eval(x)"
        assert [f.rule for f in scan_source(line, "e.js")] == ["dynamic-code-execution"]


COMPILES = r"""
import re, sys
from pathlib import Path
compiled = []
real = re.compile
re.compile = lambda *a, **k: compiled.append(a[0]) or real(*a, **k)
from vora_cli.core.plugins import code_safety, install_scan
imported = len(compiled)
root = Path(sys.argv[1])
for _ in range(3):
    code_safety.scan_plugin_code(root, ("index.js",))
    install_scan.scan_package(root, ("index.js",))
rules = code_safety.rules()
patterns = {r.pattern.pattern for r in (*rules.line_rules, *rules.source_rules)}
print(sum(1 for p in compiled[:imported] if p in patterns), sum(1 for p in compiled if p in patterns), len(patterns))
"""


def test_the_rules_are_compiled_once_a_run_and_only_to_scan(tmp_path: Path) -> None:
    (tmp_path / "index.js").write_text("eval(1)\n")
    done = subprocess.run([sys.executable, "-c", COMPILES, str(tmp_path)], capture_output=True, text=True, check=True)
    at_import, compiled, distinct = map(int, done.stdout.split())
    assert (at_import, compiled, distinct) == (0, 8, 8)
