"""vora's port of the gateway's pre-validation migrations says and does what the release does.

The expected answers are the release's own (`tests/data/upstream/legacy-migrations-openclaw-2026.4.12.json`,
made once by `scripts/gen_legacy_migrations.py` from openclaw 2026.4.12's config module): for each
config of a corpus (every migration's members by hand, then seeded random mixes of legacy fragments
with values of every JSON type), the tree it validates, its change messages in order, and the legacy
issues left. vora must produce the same tree (as JSON: key order aside), the same messages, and the
same issues.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.config.migrations import legacy_issues, migrate_legacy
from vora_cli.core.config.migrations.base import dotted
from vora_cli.core.config.migrations.facts import version

DATA = json.loads((Path(__file__).resolve().parents[2] / "data" / "upstream" /
                   "legacy-migrations-openclaw-2026.4.12.json").read_text())
CASES = [c for c in DATA["cases"] if "error" not in c]
BY_HAND = [c for c in CASES if not c["id"].startswith("fuzz-")]
FUZZ = [c for c in CASES if c["id"].startswith("fuzz-")]
CHUNK = 100


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def test_the_answers_and_the_facts_come_from_the_release_vora_follows() -> None:
    assert DATA["version"] == version() == "openclaw 2026.4.12"
    assert len(CASES) > 700
    assert sum(1 for c in CASES if c["changes"]) > 400 and sum(1 for c in CASES if c["legacyIssues"]) > 50


def _same_as_the_gateway(case: dict[str, Any]) -> None:
    config = _json(case["config"])
    before = json.dumps(config)
    done = migrate_legacy(config)
    assert json.dumps(config) == before  # the config itself is never changed
    assert [c.message for c in done.changes] == case["changes"]
    if case["next"] is None:
        assert done.tree is config
    else:
        assert _json(done.tree) == case["next"]
    issues = legacy_issues(done.tree) if isinstance(done.tree, dict) else []
    assert [[dotted(path), message] for path, message in issues] == case["legacyIssues"]


@pytest.mark.parametrize("case", BY_HAND, ids=[c["id"] for c in BY_HAND])
def test_vora_migrates_each_legacy_key_as_the_gateway_does(case: dict[str, Any]) -> None:
    _same_as_the_gateway(case)


@pytest.mark.parametrize("start", range(0, len(FUZZ), CHUNK))
def test_vora_migrates_random_mixes_as_the_gateway_does(start: int) -> None:
    for case in FUZZ[start:start + CHUNK]:
        _same_as_the_gateway(case)


def test_each_change_names_a_legacy_key_that_is_in_the_config() -> None:
    """The path each change carries (where vora points in the file) is a key of the config as
    written, so `validate` and `doctor` can give its line and column."""
    for case in CASES:
        for change in migrate_legacy(_json(case["config"])).changes:
            node: Any = case["config"]
            for seg in change.path:
                assert isinstance(node, dict | list), (case["id"], change)
                node = node[seg]


def test_a_config_the_release_throws_on_does_not_crash_vora() -> None:
    for case in DATA["cases"]:
        if "error" in case:
            migrate_legacy(_json(case["config"]))


def test_the_migrations_copy_every_top_level_member_their_code_names() -> None:
    """A member outside the migrations' roots is shared with the config, not copied: no migration
    may name one (as the gateway's schema or the release's legacy corpus spells a top-level key)."""
    import ast

    from vora_cli.core.config import migrations
    from vora_cli.core.config.gateway import SCHEMA_DIR

    top_level = set(json.loads((SCHEMA_DIR / "index.json").read_text())["files"])
    top_level |= {key for case in DATA["cases"] for key in case["config"]}
    spelled = {node.value for module in Path(migrations.__file__).parent.glob("*.py")
               for node in ast.walk(ast.parse(module.read_text())) if isinstance(node, ast.Constant)}
    assert spelled & top_level <= migrations._ROOTS


def test_a_member_no_migration_reads_is_the_configs_own_object() -> None:
    unknown = {"notes": [{"deep": {"list": [1, 2]}}]}
    config = {"gateway": {"bind": "0.0.0.0"}, "custom": unknown, "bindings": [{"agentId": "main"}]}
    done = migrate_legacy(config)
    assert done.changes and done.tree["gateway"]["bind"] == "lan"
    assert done.tree["custom"] is unknown and done.tree["bindings"] is config["bindings"]
    assert config["gateway"]["bind"] == "0.0.0.0"
