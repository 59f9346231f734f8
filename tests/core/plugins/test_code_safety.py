"""vora's port of the gateway's code scanner finds what the release finds.

The expected answers are the release's own (`tests/data/upstream/code-safety-openclaw-2026.4.12.json`,
scripts/gen_code_safety.py: its `scanDirectoryWithSummary` on 400 sources mixing fragments that
match, nearly match or must not match every rule): each finding's rule, severity, line, message
and evidence, in order.
"""

from __future__ import annotations

import json
from pathlib import Path

from vora_cli.core.plugins.code_safety import scan_plugin_code, scan_source

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                   "code-safety-openclaw-2026.4.12.json").read_text())


def test_the_answers_come_from_the_release() -> None:
    assert DATA["version"] == "openclaw 2026.4.12" and len(DATA["cases"]) > 400
    assert sum(1 for c in DATA["cases"] if c["findings"]) > 200


def test_vora_finds_what_the_gateway_finds_in_every_source() -> None:
    for case in DATA["cases"]:
        found = [[f.rule_id, f.severity, f.line, f.message, f.evidence] for f in scan_source(case["source"], Path("a.js"))]
        assert found == case["findings"], case["source"]


def test_a_plugin_folder_is_walked_as_the_gateway_walks_it(tmp_path: Path) -> None:
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / ".hidden").mkdir()
    (root / "node_modules" / "dep").mkdir(parents=True)
    (root / "src" / "a.ts").write_text("eval(x)\n")
    (root / ".hidden" / "b.js").write_text("eval(x)\n")
    (root / "node_modules" / "dep" / "c.js").write_text("eval(x)\n")
    (root / "big.js").write_text("eval(x)\n" + "x" * (1024 * 1024))
    (root / "notes.md").write_text("eval(x)\n")
    scan = scan_plugin_code(root)
    assert (scan.scanned_files, [f.file.name for f in scan.findings]) == (1, ["a.ts"])
    forced = scan_plugin_code(root, ("./.hidden/b.js", "../outside.js"))  # an entry is scanned where it is
    assert sorted(f.file.name for f in forced.findings) == ["a.ts", "b.js"] and forced.verdict == "critical"
