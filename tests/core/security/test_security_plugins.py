"""The audit's plugin checks and its static code scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from security_states import example, plugin_escape, plugins
from security_support import audit, found, ids

from vora_cli.core.security import code_scan
from vora_cli.core.security.code_scan import scan_plugin, scan_source


def test_an_unpinned_npm_install_with_suspicious_code(tmp_path: Path) -> None:
    state = plugins(tmp_path)
    assert ids(found(state, "plugins-allowlist")) == {"plugins.extensions_no_allowlist"}
    assert ids(found(state, "plugin-installs")) == {"plugins.installs_unpinned_npm_specs",
                                                    "plugins.installs_missing_integrity",
                                                    "plugins.installs_version_drift"}
    assert ids(found(state, "plugin-tools")) == {"plugins.tools_reachable_permissive_policy"}
    code = found(state, "plugin-code")
    rules = {f.detail.split("]")[0].strip("[") for f in code}
    assert rules == {"child-process", "dynamic-code", "env-and-network", "undeclared-host", "secret-files"}
    assert {f.severity for f in code} == {"warn"}  # suspicious, not proof
    assert {(Path(f.file).name, f.line) for f in code if "child-process" in f.detail} == {("index.js", 4)}


def test_an_entry_escaping_the_plugin_folder_is_critical(tmp_path: Path) -> None:
    (f,) = found(plugin_escape(tmp_path), "plugin-entries")
    assert (f.severity, f.gateway) == ("critical", ("plugins.code_safety.entry_escape",))
    assert "'../escape.js'" in f.detail


def test_the_example_plugin_passes(tmp_path: Path) -> None:
    report = audit(example(tmp_path), "plugins-allowlist", "plugin-installs", "plugin-entries", "plugin-code",
                   "plugin-tools")
    assert {c.id: c.status for c in report.report.checks} == dict.fromkeys(
        ("plugins-allowlist", "plugin-installs", "plugin-entries", "plugin-code", "plugin-tools"), "pass")


def test_pinned_hashed_allowed_installs_pass(tmp_path: Path) -> None:
    state = plugins(tmp_path)
    config = (state / "vora.json").read_text().replace("evil-plugin@latest", "evil-plugin@1.2.0").replace(
        'version: "1.0.0"', 'version: "1.2.0", integrity: "sha512-abc"').replace(
        "plugins: {", 'tools: { profile: "coding" }, plugins: { allow: ["evil"],')
    (state / "vora.json").write_text(config)
    report = audit(state, "plugins-allowlist", "plugin-installs", "plugin-tools")
    assert [c.status for c in report.report.checks] == ["pass", "pass", "pass"]


def test_allow_entries_naming_nothing(tmp_path: Path) -> None:
    state = example(tmp_path)
    text = (state / "vora.json").read_text().replace("enabled: true,\n", 'enabled: true, allow: ["my-engine", "ghost"],\n', 1)
    (state / "vora.json").write_text(text)
    (f,) = found(state, "plugins-allowlist")
    assert f.key == "plugins.allow[1]" and '"ghost"' in f.detail


def test_declared_and_loopback_hosts_are_not_suspicious(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "package.json").write_text(json.dumps({"name": "p", "homepage": "https://api.example.com/docs"}))
    (root / "index.js").write_text('fetch("https://api.example.com/v1"); fetch("http://127.0.0.1:8080/x");\n'
                                   'fetch("https://sub.api.example.com/y");\n')
    assert scan_plugin(root).hits == ()
    (root / "index.js").write_text('const u = "https://elsewhere.test/v1";\nfetch(u);\n')
    (hit,) = scan_plugin(root).hits
    assert (hit.rule, hit.line, hit.col) == ("undeclared-host", 1, 11)


def test_the_scan_is_linear_and_bounded_on_a_2_mib_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    line = "child_process " + "exec" * 250_000 + " eval " + "(" * 1_000_000 + " eval(x)"
    hits = scan_source(line, tmp_path / "big.js", set())  # has to finish: a hang guard, no clock
    assert [h.rule for h in hits] == ["dynamic-code"]
    root = tmp_path / "p"
    root.mkdir()
    monkeypatch.setattr(code_scan, "MAX_FILE_BYTES", 4096)
    (root / "big.js").write_bytes(b"x" * 5000 + b"\neval(1)\n")
    scan = scan_plugin(root)
    assert scan.cut and scan.hits == ()  # past the byte cap: not read, and said so
