"""`vora doctor --fix` on the plugin references: one write with a backup, the dry run's diff, and no secret
in the preview (the checks themselves: tests/core/doctor/test_doctor_plugin_checks.py)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

from conftest import Run
from doctor_helpers import STALE_PLUGIN_CONFIG, make_state, make_state_plugin

VoraRun = Callable[..., Run]


FIXED_CONFIG = """// plugins, some long gone
{
  plugins: {
    allow: [
      "keep", // still here
    ],
    deny: [],
    load: { paths: [] },
    entries: {
      keep: { enabled: true },
      "memory-core": { config: { depth: 2 } },
    },
  },
}
"""


def test_fix_plugin_references_in_one_write_with_backup(tmp_path: Path, vora: VoraRun) -> None:
    state = make_state(tmp_path, STALE_PLUGIN_CONFIG)
    make_state_plugin(state, "keep")
    config = state / "vora.json"
    run = vora("--state-dir", str(state), "doctor", "--fix-id", "plugin-references", "--yes", "--json")
    doc = run.json()
    [outcome] = doc["fixes"]
    assert outcome["status"] == "applied", outcome
    assert outcome["backup"] == str(state / "vora.json.bak")
    assert config.read_text() == FIXED_CONFIG
    assert (state / "vora.json.bak").read_text() == STALE_PLUGIN_CONFIG
    assert stat.S_IMODE(os.stat(state / "vora.json.bak").st_mode) == 0o600
    audit = (state / "logs" / "config-audit.jsonl").read_text().splitlines()
    assert len(audit) == 1 and json.loads(audit[0])["command"] == "doctor --fix"
    assert next(c for c in doc["checks"] if c["id"] == "plugin-references")["status"] == "pass"


def test_fix_plugin_references_dry_run_shows_the_diff(tmp_path: Path, vora: VoraRun) -> None:
    state = make_state(tmp_path, STALE_PLUGIN_CONFIG)
    make_state_plugin(state, "keep")
    run = vora("--state-dir", str(state), "doctor", "--fix", "--dry-run", "--only", "plugin-references")
    assert '-      "gone-a", // removed last spring\n' in run.stdout  # the plan, after the report
    assert (state / "vora.json").read_text() == STALE_PLUGIN_CONFIG
    assert not (state / "vora.json.bak").exists()


def test_fix_preview_hides_a_secret_in_a_removed_entry(tmp_path: Path, vora: VoraRun) -> None:
    state = make_state(tmp_path, '{\n  plugins: {\n    entries: {\n      "gone": { config: { apiKey: "sk-live-abcdef123" } },\n    },\n  },\n}\n')
    # Settings go only when named (--fix plugin-settings; issue 12 point 18).
    for args in (("--fix", "plugin-settings", "--dry-run"), ("--fix", "plugin-settings", "--dry-run", "--json"),
                 ("--fix", "plugin-settings", "--yes", "--json")):
        run = vora("--state-dir", str(state), "doctor", *args)
        assert "sk-live-abcdef123" not in run.stdout + run.stderr
    assert "gone" not in (state / "vora.json").read_text()
    assert "sk-live-abcdef123" in (state / "vora.json.bak").read_text()
