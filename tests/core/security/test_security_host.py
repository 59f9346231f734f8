"""Sandbox settings, node commands, exec safeBins and approvals, hook installs, browser CDP hosts,
unlisted plugins and the other channel plugins' audits (core/security/host_checks.py,
exec_approvals.py, policy_checks.py, browser_config.py, channel_plugin_checks.py). The gateway's
verdicts on each state used here are recorded (test_security_upstream.py holds vora to all of
them); here, where each finding points, which members of the class it names, and the shapes
around the rule.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from security_states import STATE_BY_NAME, UPSTREAM_DATA
from security_support import found

RECORDED = json.loads(UPSTREAM_DATA.read_text(encoding="utf-8"))["states"]


def _state(tmp_path: Path, config: str) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700, exist_ok=True)
    (state / "vora.json").write_text(config, encoding="utf-8")
    return state


def test_each_dangerous_bind_the_gateway_counts_is_a_finding(tmp_path: Path) -> None:
    state = STATE_BY_NAME["sandbox-nodes"].build(tmp_path)
    recorded = [f for f in RECORDED["sandbox-nodes"]["findings"] if f[0] == "sandbox.dangerous_bind_mount"]
    got = found(state, "sandbox")
    assert len(got) == len(recorded) == 6  # /srv/project is the one bind left alone
    assert {f.severity for f in got} == {"critical"}
    assert [f.key for f in got][:2] == ["agents.defaults.sandbox.docker.binds[0]", "agents.defaults.sandbox.docker.binds[1]"]
    assert "agents.list.ops.sandbox.docker.binds" in got[2].detail and "covers /" in got[2].detail
    assert [f.severity for f in found(state, "nodes")] == ["warn"]  # loopback, and sms.send is denied
    assert "sms.send" not in found(state, "nodes")[0].detail


def test_a_home_secret_folder_and_a_symlink_to_a_blocked_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "link").symlink_to("/etc")
    state = _state(tmp_path, json.dumps({"agents": {"defaults": {"sandbox": {"docker": {"binds": [
        f"{home}/.ssh:/ssh:ro", f"{tmp_path}/link/ssl:/ssl", f"{home}/projects:/p", "/var/run/../lib:/l"]}}}}}))
    got = [f for f in found(state, "sandbox") if "sandbox.dangerous_bind_mount" in f.gateway]
    assert [f.key for f in got] == ["agents.defaults.sandbox.docker.binds[0]", "agents.defaults.sandbox.docker.binds[1]"]


@pytest.mark.parametrize(("gateway", "severity"), [
    ({"bind": "lan"}, "critical"), ({"tailscale": {"mode": "serve"}}, "critical"), ({}, "warn")])
def test_dangerous_node_commands_are_critical_when_exposed(tmp_path: Path, gateway: dict[str, object],
                                                           severity: str) -> None:
    config = {"gateway": {**gateway, "nodes": {"allowCommands": ["contacts.add", " reminders.add ", "canvas.present"]}}}
    got = found(_state(tmp_path, json.dumps(config)), "nodes")
    assert [(f.severity, f.key) for f in got] == [(severity, "gateway.nodes.allowCommands")]
    assert "contacts.add, reminders.add" in got[0].detail


def test_safe_bins_per_scope(tmp_path: Path) -> None:
    state = STATE_BY_NAME["exec-safe-bins"].build(tmp_path)
    got = {g: f for f in found(state, "exec-tools") for g in f.gateway}
    interpreters = got["tools.exec.safe_bins_interpreter_unprofiled"].detail
    # bash has a profile, and so has dev's ruby; ops's node and gawk have none
    assert "tools.exec.safeBins: python3.11, sed" in interpreters
    assert "agents.list.ops.tools.exec.safeBins: gawk, node" in interpreters
    assert "bash" not in interpreters and "ruby" not in interpreters
    broad = got["tools.exec.safe_bins_broad_behavior"].detail
    for scope in ("tools.exec.safeBins: jq", "agents.list.ops.tools.exec.safeBins: gawk", "agents.list.lint.tools.exec"):
        assert scope in broad
    assert "dev" not in broad
    assert [f.severity for f in found(state, "nodes")] == ["critical"]  # bound to the LAN


def test_hook_installs_unpinned_without_integrity_or_drifted(tmp_path: Path) -> None:
    state = STATE_BY_NAME["exec-safe-bins"].build(tmp_path)
    got = {g: f for f in found(state, "hooks") for g in f.gateway}
    assert "my-hooks ('my-hooks')" in got["hooks.installs_unpinned_npm_specs"].detail
    assert "ranged" in got["hooks.installs_unpinned_npm_specs"].detail
    assert "pinned" not in got["hooks.installs_unpinned_npm_specs"].detail.replace("unpinned", "")
    assert got["hooks.installs_missing_integrity"].detail.startswith("my-hooks, ranged:")
    assert "hooks.installs_version_drift" not in got
    pack = state / "hooks" / "pinned"
    os.makedirs(pack)
    (pack / "package.json").write_text('{"name": "@scope/hooks", "version": "1.3.0"}')
    text = (state / "vora.json").read_text().replace('integrity: "sha512-abc"', 'integrity: "sha512-abc", version: "1.2.3"')
    (state / "vora.json").write_text(text)
    got = {g: f for f in found(state, "hooks") for g in f.gateway}
    assert got["hooks.installs_version_drift"].detail == "pinned (recorded 1.2.3, installed 1.3.0)"


def test_deny_commands_that_match_nothing(tmp_path: Path) -> None:
    state = STATE_BY_NAME["node-denies-trusted-dirs"].build(tmp_path)
    assert ["gateway.nodes.deny_commands_ineffective", "warn"] in [f[:2] for f in RECORDED["node-denies-trusted-dirs"]["findings"]]
    got = [f for f in found(state, "nodes") if "gateway.nodes.deny_commands_ineffective" in f.gateway]
    assert [(f.severity, f.key) for f in got] == [("warn", "gateway.nodes.denyCommands")]
    # the gateway's own words on this state: four patterns, three unknown names (two with a suggestion)
    assert "patterns camera.*, system.run rm -rf, group:danger, /regex/ " in got[0].detail
    assert "sytem.run (did you mean system.run?), canvas.presnt (did you mean canvas.present?), zzz.unheard:" \
        in got[0].detail
    assert "custom.thing" not in got[0].detail  # allowed by allowCommands, so denying it works


def test_exact_deny_entries_are_no_finding(tmp_path: Path) -> None:
    config = {"gateway": {"nodes": {"denyCommands": ["system.run", " camera.list ", "notifications.actions", ""]}}}
    assert found(_state(tmp_path, json.dumps(config)), "nodes") == []


def test_risky_trusted_dirs_per_scope(tmp_path: Path) -> None:
    state = STATE_BY_NAME["node-denies-trusted-dirs"].build(tmp_path)
    assert ["tools.exec.safe_bin_trusted_dirs_risky", "warn"] in [f[:2] for f in RECORDED["node-denies-trusted-dirs"]["findings"]]
    got = [f for f in found(state, "exec-tools") if "tools.exec.safe_bin_trusted_dirs_risky" in f.gateway]
    assert [(f.severity, f.key) for f in got] == [("warn", "tools.exec.safeBinTrustedDirs")]
    named = [part.split(" (")[0] for part in got[0].detail.split(": a program")[0].split("; ")]
    # the seven entries the gateway names on this state, duplicates once; /usr/bin, /opt/tools and /bin are safe
    assert named == ["tools.exec.safeBinTrustedDirs: /tmp/bins", "tools.exec.safeBinTrustedDirs: /usr/local/bin/",
                     "tools.exec.safeBinTrustedDirs: bin", "agents.list.ops.tools.exec.safeBinTrustedDirs: /home/ops/.local/bin",
                     "agents.list.ops.tools.exec.safeBinTrustedDirs: /srv/x/../../var/tmp",
                     "agents.list.dev.tools.exec.safeBinTrustedDirs: /opt/homebrew/bin",
                     "agents.list.dev.tools.exec.safeBinTrustedDirs: /Users/dev/bin"]


def _approvals_hits(state: Path, check_id: str) -> list[str]:
    got = [f for f in found(state, "exec-tools") if check_id in f.gateway]
    assert [(f.severity, f.file) for f in got] == [("warn", str(state.parent / "home" / ".vora" / "exec-approvals.json"))]
    return got[0].detail.split(" in /")[0].split(", " if "auto_allow" in check_id else "; ")


@pytest.mark.parametrize("name", ["exec-approvals", "exec-approvals-strict"])
def test_auto_allow_skills_in_exec_approvals(tmp_path: Path, name: str) -> None:
    state = STATE_BY_NAME[name].build(tmp_path)
    check = "tools.exec.auto_allow_skills_enabled"
    assert [check, "warn"] in [f[:2] for f in RECORDED[name]["findings"]]
    hits = _approvals_hits(state, check)
    # the gateway's list on each state: defaults and ops on; `off` says false; defaults false in the strict one
    wanted = ["agents.ops.autoAllowSkills"] if name.endswith("strict") else ["defaults.autoAllowSkills",
                                                                             "agents.ops.autoAllowSkills"]
    assert [h.removeprefix("autoAllowSkills is on at ") for h in hits] == wanted


def test_interpreters_allowlisted_without_strict_inline_eval(tmp_path: Path) -> None:
    state = STATE_BY_NAME["exec-approvals"].build(tmp_path)
    check = "tools.exec.allowlist_interpreter_without_strict_inline_eval"
    assert [check, "warn"] in [f[:2] for f in RECORDED["exec-approvals"]["findings"]]
    # the gateway's own list on this state: the legacy agent's plain string is lost in the merge,
    # `strict` has strictInlineEval, git, ls and bash run no inline code
    assert _approvals_hits(state, check) == [
        "agents.main.allowlist: /usr/bin/python3", "agents.main.allowlist: /usr/bin/NODE",
        "agents.ops.allowlist: C:\\Tools\\perl.exe", "agents.off.allowlist: /usr/bin/xargs"]
    strict = STATE_BY_NAME["exec-approvals-strict"].build(tmp_path / "strict")
    assert check not in {g for f in found(strict, "exec-tools") for g in f.gateway}
    assert check not in {f[0] for f in RECORDED["exec-approvals-strict"]["findings"]}


@pytest.mark.parametrize("text", ["{not json", '{"version": 2, "defaults": {"autoAllowSkills": true}}',
                                  '{"version": 1, "defaults": {"autoAllowSkills": true}, "agents": {"a": null}}'])
def test_an_approvals_file_the_gateway_ignores_is_no_finding(tmp_path: Path, text: str) -> None:
    state = _state(tmp_path, "{}")
    (tmp_path / "home" / ".vora").mkdir(parents=True)
    (tmp_path / "home" / ".vora" / "exec-approvals.json").write_text(text)
    assert [f for f in found(state, "exec-tools") if "auto_allow" in str(f.gateway)] == []


@pytest.mark.parametrize(("name", "wanted"), [
    ("sandbox-docker-off", ["agents.defaults.sandbox.docker", "agents.list.main.sandbox.docker",
                            "agents.list.ops.sandbox.docker"]),
    ("sandbox-docker-on", [])])
def test_docker_settings_where_the_sandbox_is_off(tmp_path: Path, name: str, wanted: list[str]) -> None:
    state = STATE_BY_NAME[name].build(tmp_path)
    recorded = [f[:2] for f in RECORDED[name]["findings"] if f[0] == "sandbox.docker_config_mode_off"]
    assert recorded == ([["sandbox.docker_config_mode_off", "warn"]] if wanted else [])
    got = [f for f in found(state, "sandbox") if "sandbox.docker_config_mode_off" in f.gateway]
    # the gateway's list on each state: an empty docker object is no setting; an agent with its
    # sandbox on makes the defaults' docker settings apply
    assert [f.detail.split(": none")[0].split(", ") for f in got] == ([wanted] if wanted else [])
    assert [(f.severity, f.key) for f in got] == ([("warn", "agents.defaults.sandbox.docker")] if wanted else [])


@pytest.mark.parametrize(("name", "severity", "chats"), [
    ("skills-telegram", "critical", "telegram"), ("skills-slack", "critical", "slack"), ("skills-off", "warn", None)])
def test_unlisted_plugins_are_critical_where_skills_are_chat_commands(tmp_path: Path, name: str, severity: str,
                                                                      chats: str | None) -> None:
    state = STATE_BY_NAME[name].build(tmp_path)
    # the gateway's CLI audits without loading channel plugins, so its rule never sees a chat
    # surface and says warn on every one of these states (docs/security.md, "Where vora differs")
    assert [f[:2] for f in RECORDED[name]["findings"] if f[0] == "plugins.extensions_no_allowlist"] == [
        ["plugins.extensions_no_allowlist", "warn"]]
    got = [f for f in found(state, "plugins-allowlist") if "plugins.extensions_no_allowlist" in f.gateway]
    assert [f.severity for f in got] == [severity]
    assert (f"skills are chat commands on {chats}" in got[0].detail) if chats else ("chat commands" not in got[0].detail)


def test_remote_browsers_on_private_hosts(tmp_path: Path) -> None:
    state = STATE_BY_NAME["browser-private-hosts"].build(tmp_path)
    got = found(state, "browser-control")
    private = [f.detail.split('"')[1] for f in got if "browser.remote_cdp_private_host" in f.gateway]
    http = [f.detail.split('"')[1] for f in got if "browser.remote_cdp_http" in f.gateway]
    # the gateway's profiles on this state, in its order (six private hosts, four over http)
    assert len([f for f in RECORDED["browser-private-hosts"]["findings"] if f[0] == "browser.remote_cdp_private_host"]) == 6
    assert private == ["lan", "cgnat", "ula", "meta", "hex", "openclaw"]
    assert sorted(http) == ["lan", "meta", "openclaw", "ula"]
    assert {f.severity for f in got} == {"warn"}
    assert "https://0xc0a80101:9222" in next(f.detail for f in got if '"hex"' in f.detail)
    blocked = STATE_BY_NAME["browser-private-blocked"].build(tmp_path / "blocked")
    assert [f for f in found(blocked, "browser-control") if "browser.remote_cdp_private_host" in f.gateway] == []
    assert "browser.remote_cdp_private_host" not in {f[0] for f in RECORDED["browser-private-blocked"]["findings"]}


@pytest.mark.parametrize(("name", "problem"), [
    ("browser-url-scheme", "browser.cdpUrl must be http(s) or ws(s), got: localhost"),
    ("browser-url-invalid", "Invalid URL"),
    ("browser-port-range", "browser.cdpPortRangeStart (65500) is too high for a 100-port range; max is 65436"),
    ("browser-derived-port", "Derived CDP port (65536) is too high; check gateway port configuration")])
def test_a_browser_config_the_gateway_cannot_load(tmp_path: Path, name: str, problem: str) -> None:
    assert ["browser.control_invalid_config", "warn"] in [f[:2] for f in RECORDED[name]["findings"]]
    got = [f for f in found(STATE_BY_NAME[name].build(tmp_path), "browser-control")
           if "browser.control_invalid_config" in f.gateway]
    assert [(f.severity, f.detail.split(": the gateway")[0]) for f in got] == [("warn", problem)]


@pytest.mark.parametrize("url", ["http://127.0.0.1:9222", "https://example.com", "ws://[::1]:9/devtools/browser/x",
                                 "http://0x7f.1:9222"])
def test_a_browser_config_that_loads_is_no_finding(tmp_path: Path, url: str) -> None:
    config = {"browser": {"cdpUrl": url, "cdpPortRangeStart": 65436, "ssrfPolicy": {"allowPrivateNetwork": True}},
              "gateway": {"auth": {"mode": "token", "token": "x" * 32}}}
    got = found(_state(tmp_path, json.dumps(config)), "browser-control")
    assert [f.gateway for f in got] == []


@pytest.mark.parametrize(("name", "accounts"), [("other-channels", [" (account ops)"]), ("other-channels-single", [""]),
                                                ("other-channels-quiet", [])])
def test_synology_reply_name_matching(tmp_path: Path, name: str, accounts: list[str]) -> None:
    recorded = [f[2] for f in RECORDED[name]["findings"] if f[0] == "channels.synology-chat.reply.dangerous_name_matching_enabled"]
    # the gateway's accounts: ops only (not quiet, not the implicit default); the default alone; none
    assert [t.removeprefix("Synology Chat dangerous name matching is enabled") for t in recorded] == [
        a.replace(" (account ", " (account: ") for a in accounts]
    got = [f for f in found(STATE_BY_NAME[name].build(tmp_path), "channel-policies")
           if "channels.synology-chat.reply.dangerous_name_matching_enabled" in f.gateway]
    assert [f.title.removeprefix("synology-chat sends replies by user name") for f in got] == accounts
    assert {f.severity for f in got} <= {"warn"}  # the gateway's warning line says warn, its audit info


@pytest.mark.parametrize(("name", "on"), [("other-channels", True), ("other-channels-single", True),
                                          ("other-channels-quiet", False)])
def test_feishu_doc_tool(tmp_path: Path, name: str, on: bool) -> None:
    assert ("channels.feishu.doc_owner_open_id" in {f[0] for f in RECORDED[name]["findings"]}) is on
    got = [f for f in found(STATE_BY_NAME[name].build(tmp_path), "channel-policies")
           if "channels.feishu.doc_owner_open_id" in f.gateway]
    assert [(f.severity, f.key) for f in got] == ([("warn", "channels.feishu")] if on else [])


def test_workspace_skills_that_escape_their_workspace(tmp_path: Path) -> None:
    state = STATE_BY_NAME["skill-links"].build(tmp_path)
    assert ["skills.workspace.symlink_escape", "warn"] in [f[:2] for f in RECORDED["skill-links"]["findings"]]
    (got,) = found(state, "skills")
    # the gateway's three on this state: a file link and a folder link in main's, a folder link in
    # ops's; not the real skill, the link inside, the broken link, the dot folder or node_modules
    named = sorted(part.split(" is ")[0] for part in got.detail.split(": the agent")[0].split("; "))
    assert named == [f"skills/dirlink/SKILL.md in {tmp_path}/ws-main", f"skills/linked/SKILL.md in {tmp_path}/ws-main",
                     f"skills/ops/SKILL.md in {tmp_path}/ws-ops"]
    assert got.severity == "warn"
    os.remove(tmp_path / "ws-ops" / "skills" / "ops")
    for link in ("dirlink", "linked"):
        target = tmp_path / "ws-main" / "skills" / link
        (target.unlink() if target.is_symlink() else (target / "SKILL.md").unlink())
    assert found(state, "skills") == []


def test_skill_code_one_finding_per_skill(tmp_path: Path) -> None:
    state = STATE_BY_NAME["skill-code"].build(tmp_path)
    recorded = sorted((f[1], f[2]) for f in RECORDED["skill-code"]["findings"] if f[0] == "skills.code_safety")
    assert recorded == [("critical", 'Skill "runner" contains dangerous code patterns'),
                        ("warn", 'Skill "relay" contains suspicious code patterns')]
    got = {f.title: f for f in found(state, "skills") if "skills.code_safety" in f.gateway}
    # the gateway's two, at its severities; the clean skill is no finding; the skill linked into both
    # workspaces is one finding (the gateway's loader leaves a linked-out skill unscanned)
    assert {t: f.severity for t, f in got.items()} == {"skill runner has dangerous code": "critical",
                                                       "skill relay has suspicious code": "warn",
                                                       "skill shared-skill has dangerous code": "critical"}
    runner = got["skill runner has dangerous code"]
    assert (Path(runner.file).relative_to(tmp_path).as_posix(), runner.line) == ("ws-main/skills/runner/scripts/run.js", 4)


@pytest.mark.parametrize(("name", "wanted"), [
    ("sandbox-namespace-join", [("critical", "agents.defaults.sandbox.docker.network", "sandbox.dangerous_network_mode"),
                                ("critical", "agents.list[1].sandbox.docker.network", "sandbox.dangerous_network_mode")]),
    ("sandbox-isolated", []),
    ("sandbox-refused", [
        ("warn", "agents.defaults.sandbox.docker.binds[0]", "sandbox.bind_mount_non_absolute"),
        ("warn", "agents.defaults.sandbox.docker.binds[1]", "sandbox.bind_mount_non_absolute"),
        ("critical", "agents.defaults.sandbox.docker.network", "sandbox.dangerous_network_mode"),
        ("critical", "agents.defaults.sandbox.docker.seccompProfile", "sandbox.dangerous_seccomp_profile"),
        ("critical", "agents.list[1].sandbox.docker.network", "sandbox.dangerous_network_mode"),
        ("critical", "agents.list[1].sandbox.docker.apparmorProfile", "sandbox.dangerous_apparmor_profile")])])
def test_a_sandbox_that_drops_its_isolation(tmp_path: Path, name: str, wanted: list[tuple[str, str, str]]) -> None:
    """The gateway reports the namespace join the break-glass flag lets load; the rest it refuses
    to start with, and vora names each (its validator does not yet)."""
    got = [(f.severity, f.key, *f.gateway) for f in found(STATE_BY_NAME[name].build(tmp_path), "sandbox")]
    assert sorted(got) == sorted(wanted)
    recorded = RECORDED[name]
    assert [f[:2] for f in recorded.get("findings", []) if f[0].startswith("sandbox.")] == \
        [[check_id, severity] for severity, _key, check_id in wanted if "refused" not in recorded]
    if name == "sandbox-namespace-join":
        assert "dangerouslyAllowContainerNamespaceJoin lets the gateway load it" in found(
            STATE_BY_NAME[name].build(tmp_path / "again"), "sandbox")[0].detail
