"""Issue 12 point 18: `doctor --fix plugin-references` converges in one run, and never deletes a
plugin's settings because its folder is missing for now; `--fix plugin-settings` (only when
named) does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from plugins_support import make_plugin

from tests.conftest import Run
from vora_cli.core.json5 import parser


def _plugins(state_dir: Path) -> dict:
    return parser.loads((state_dir / "vora.json").read_text()).get("plugins", {})


def _dangling_by_folder_name(tmp_path: Path) -> dict:
    gone = str(tmp_path / "unmounted" / "eng")
    return {"load": {"paths": [gone]}, "entries": {"eng": {"enabled": True}}, "allow": ["eng", "real"],
            "installs": {"eng": {"source": "path", "spec": gone, "sourcePath": gone, "installPath": gone}}}


def _dangling_by_record(tmp_path: Path) -> dict:
    gone = str(tmp_path / "unmounted" / "checkout-7")  # folder name differs from the id
    return {"load": {"paths": [gone, gone]}, "entries": {"@acme/eng": {"enabled": False}},
            "deny": ["@acme/eng"],
            "installs": {"@acme/eng": {"source": "path", "spec": gone, "sourcePath": gone, "installPath": gone}}}


def _ghosts_between_real_ones(tmp_path: Path) -> dict:
    return {"allow": ["ghost-a", "real", "ghost-b", "real", "ghost-c"], "deny": ["ghost-d", "real"],
            "entries": {"real": {"enabled": True}, "ghost-e": {"enabled": True}, "ghost-f": {}}}


def _env_load_path(tmp_path: Path) -> dict:
    return {"load": {"paths": ["${PLUGIN_DIR}/eng"]}, "entries": {"eng": {"enabled": True}},
            "installs": {"eng": {"source": "path", "spec": "x", "sourcePath": "${PLUGIN_DIR}/eng",
                                 "installPath": "${PLUGIN_DIR}/eng"}}}


CASES = [_dangling_by_folder_name, _dangling_by_record, _ghosts_between_real_ones, _env_load_path]


@pytest.mark.parametrize("make", CASES)
def test_one_fix_run_reaches_the_end(make: Callable[[Path], dict], tmp_path: Path, state_dir: Path,
                                     vora: Callable[..., Run], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLUGIN_DIR", str(tmp_path / "unmounted"))
    make_plugin(state_dir / "extensions" / "real", "real")
    (state_dir / "vora.json").write_text(json.dumps({"plugins": make(tmp_path)}, indent=2))
    first = vora("doctor", "--fix", "plugin-references", "--yes", "--json")
    assert [f["status"] for f in first.json()["fixes"]] == ["applied"], first.stdout
    after = vora("doctor", "--json", "--only", "plugin-references")
    assert after.json()["checks"][0]["status"] == "pass", after.stdout
    text = (state_dir / "vora.json").read_text()
    second = vora("doctor", "--fix", "plugin-references", "--yes", "--json")
    assert [f["status"] for f in second.json()["fixes"]] == ["skipped"]
    assert (state_dir / "vora.json").read_text() == text
    plugins = _plugins(state_dir)
    if "real" in make(tmp_path).get("entries", {}):
        assert "real" in plugins["entries"]  # what names a plugin that is there stays
    assert all(v == "real" for v in plugins.get("allow", []) + plugins.get("deny", []))


@pytest.mark.parametrize("entry", [
    {"enabled": True, "config": {"apiUrl": "http://127.0.0.1:9000", "apiKey": "sk-live-secret-123"}},
    {"config": {}},
    {"enabled": False, "hooks": {"allowPromptInjection": True}},
])
def test_settings_of_a_plugin_missing_for_now_are_kept(entry: dict, tmp_path: Path, state_dir: Path,
                                                      vora: Callable[..., Run]) -> None:
    gone = str(tmp_path / "unmounted" / "eng")
    config = {"plugins": {"load": {"paths": [gone]}, "entries": {"eng": entry}, "allow": ["eng", "lobster"]}}
    (state_dir / "vora.json").write_text(json.dumps(config, indent=2))
    for args in (["--fix", "--yes"], ["--fix", "plugin-references", "--yes"]):
        run = vora("doctor", *args, "--json")
        assert run.exit_code == 0, run.stdout
        assert "plugin-settings" not in [f["id"] for f in run.json()["fixes"] if f["status"] == "applied"]
        assert _plugins(state_dir)["entries"]["eng"] == entry
    report = vora("doctor", "--json").json()
    checks = {c["id"]: c for c in report["checks"]}
    assert checks["plugin-references"]["status"] == "pass"
    assert checks["plugin-settings"]["status"] == "warn"
    assert "kept" in checks["plugin-settings"]["details"][0]
    assert checks["plugin-settings"]["fix"]["command"] == "vora doctor --fix plugin-settings"
    assert "sk-live-secret-123" not in json.dumps(report)
    # Asked by name, the settings go, in one write with a backup.
    removed = vora("doctor", "--fix", "plugin-settings", "--yes", "--json")
    assert [f["status"] for f in removed.json()["fixes"]] == ["applied"]
    assert "eng" not in _plugins(state_dir).get("entries", {})
    assert {c["id"]: c["status"] for c in removed.json()["checks"]}["plugin-settings"] == "pass"


def test_settings_of_a_plugin_that_is_there_are_not_reported(state_dir: Path, vora: Callable[..., Run]) -> None:
    make_plugin(state_dir / "extensions" / "eng", "eng")
    (state_dir / "vora.json").write_text('{ plugins: { entries: { eng: { config: { a: 1 } } } } }\n')
    checks = {c["id"]: c["status"] for c in vora("doctor", "--json").json()["checks"]}
    assert checks["plugin-settings"] == "pass" and checks["plugin-references"] == "pass"


def test_plain_fix_dry_run_does_not_offer_the_settings_fix(tmp_path: Path, state_dir: Path,
                                                          vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text('{ plugins: { entries: { eng: { config: { a: 1 } } } } }\n')
    run = vora("doctor", "--fix", "--dry-run", "--json")
    assert "plugin-settings" not in [f["id"] for f in run.json()["fixes"]]
    named = vora("doctor", "--fix", "plugin-settings", "--dry-run", "--json")
    assert [f["status"] for f in named.json()["fixes"]] == ["dry-run"]
