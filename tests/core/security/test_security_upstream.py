"""vora's findings are a superset of the gateway's own audit on the same states (issues 20, 36).

The verdicts were recorded once from the real gateway (openclaw 2026.4.12, `security audit --json`,
with `--deep` where a state says so, and `secrets audit --json`) by
`tests/support/record_upstream_security.py` on the states of `tests/support/security_states.py`;
the test rebuilds each state and runs vora's audit on it. Severity must be the gateway's or higher,
except where docs/security.md ("Where vora differs") says why not.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
from pathlib import Path

import pytest
from install_support import make_install
from security_states import STATE_BY_NAME, STATES, UPSTREAM_DATA
from security_support import audit

from vora_cli.core.paths import resolve_paths
from vora_cli.core.security.model import RANK, Finding

DATA = json.loads(UPSTREAM_DATA.read_text(encoding="utf-8"))
REPO = Path(__file__).resolve().parents[3]
# The gateway's severity where vora's differs on purpose (each is in docs/security.md).
DIFFERENT_SEVERITY = {
    "config.secrets.hooks_token_in_config": "warn",  # a plain secret in the file, as the gateway's secrets audit rates it
}
# Not about the install: the gateway's --deep probe of a gateway that was not running.
NOT_A_FINDING = {"gateway.probe_failed"}


def _vora(name: str, tmp_path: Path) -> list[Finding]:
    state = STATE_BY_NAME[name].build(tmp_path)
    report = audit(state)
    return [f for _c, f in report.findings]


def _matching(check_id: str, found: list[Finding]) -> list[Finding]:
    return [f for f in found if any(fnmatch.fnmatchcase(check_id, g) for g in f.gateway)]


def test_the_data_is_the_recorded_release() -> None:
    assert DATA["version"] == "openclaw 2026.4.12"
    assert set(DATA["states"]) == {s.name for s in STATES}


@pytest.mark.parametrize("name", [s.name for s in STATES])
def test_every_gateway_finding_is_a_vora_finding(name: str, tmp_path: Path) -> None:
    recorded = DATA["states"][name]
    found = _vora(name, tmp_path)
    if "refused" in recorded:  # the gateway would not even load the config
        if name == "plugin-escape":
            assert [f.severity for f in found if "plugins.code_safety.entry_escape" in f.gateway] == ["critical"]
        else:  # each setting it refuses over (`agents.list.1.sandbox.docker.network: …`) is a vora finding's key
            refused = [re.sub(r"\.(\d+)(?=\.|$)", r"[\1]", line.split(": ", 1)[0]) for line in recorded["refused"]]
            assert [key for key in refused if key not in {f.key for f in found}] == []
        return
    missing = []
    for check_id, severity, _title in recorded["findings"]:
        if check_id in NOT_A_FINDING:
            continue
        wanted = DIFFERENT_SEVERITY.get(check_id, severity)
        matches = _matching(check_id, found)
        if not any(RANK[f.severity] >= RANK[wanted] for f in matches):  # the same severity, or a higher one
            missing.append((check_id, severity, [f.severity for f in matches]))
    assert missing == []



@pytest.mark.parametrize("name", [s.name for s in STATES
                                  if "refused" in DATA["states"][s.name] and s.name != "plugin-escape"])
def test_the_configs_the_gateway_refuses_to_audit_are_refused_by_vora_in_its_words(name: str, tmp_path: Path) -> None:
    """Where the gateway stops at the config, vora's own verdict on it (`config validate`, doctor,
    every write) is the gateway's: the same settings, the same words."""
    from vora_cli.core.config.gateway import gateway_verdict
    from vora_cli.core.config.migrations import migrate_legacy
    from vora_cli.core.install import Install

    state = STATE_BY_NAME[name].build(tmp_path)
    install = Install(paths=resolve_paths(state_dir=str(state), env={"HOME": str(tmp_path / "home")}))
    verdict = gateway_verdict(migrate_legacy(install.effective))
    assert sorted(f"{i.gateway_path}: {i.message}" for i in verdict.issues) == sorted(DATA["states"][name]["refused"])


# Findings vora reports exactly where the gateway does (its rules are ported, not approximated).
BOTH_WAYS = ("security.trust_model.multi_user_heuristic", "channels.zalouser.groups.mutable_entries",
             "channels.zalouser.allowFrom.dangerous_name_matching_enabled", "channels.synology-chat.dm.open",
             "channels.synology-chat.dm.open_invalid", "channels.synology-chat.dm.disabled",
             "channels.synology-chat.dm.scope_main_multiuser")
SYNOLOGY_WARNING = re.compile(r"^channels\.synology-chat\.warning\.\d+$")


@pytest.mark.parametrize("name", [s.name for s in STATES if "refused" not in DATA["states"][s.name]])
def test_ported_findings_only_where_the_gateway_has_them(name: str, tmp_path: Path) -> None:
    recorded = {check_id for check_id, _severity, _title in DATA["states"][name]["findings"]}
    found = _vora(name, tmp_path)
    assert {i for i in BOTH_WAYS if _matching(i, found)} == {i for i in BOTH_WAYS if i in recorded}


@pytest.mark.parametrize("name", [s.name for s in STATES if "refused" not in DATA["states"][s.name]])
def test_one_synology_chat_finding_per_gateway_warning(name: str, tmp_path: Path) -> None:
    """The gateway numbers its plugins' warnings (`warning.<n>`, n counting every channel finding
    before it), so each vora finding maps to them all: here they must pair off one to one, each
    at the gateway's severity or higher."""
    gateway = sorted((RANK[severity] for check_id, severity, _title in DATA["states"][name]["findings"]
                      if SYNOLOGY_WARNING.match(check_id)), reverse=True)
    vora = sorted((RANK[f.severity] for f in _matching("channels.synology-chat.warning.1", _vora(name, tmp_path))),
                  reverse=True)
    assert len(vora) == len(gateway)
    assert all(mine >= theirs for mine, theirs in zip(vora, gateway, strict=True))


@pytest.mark.parametrize("name", [s.name for s in STATES if DATA["states"][s.name].get("secrets")])
def test_every_plain_text_secret_the_gateway_finds_vora_finds(name: str, tmp_path: Path) -> None:
    recorded = DATA["states"][name]
    created = set(recorded.get("createdByGateway", []))
    found = {(Path(f.file).name, f.key) for f in _vora(name, tmp_path) if f.key}
    config_keys = {key for _file, key in found}
    missing = []
    for code, _severity, json_path, file in recorded["secrets"]:
        relative = file.replace("<root>/state/", "")
        if code != "PLAINTEXT_FOUND" or relative in created:
            continue  # a file the gateway wrote while it audited is not in the state vora sees
        key = json_path.removeprefix("$env.")
        # the gateway audits the migrated config: a channel's single-account values it reads under
        # accounts.default are where the file holds them, at the channel's top (core/config/migrations)
        written = re.sub(r"^(channels\.[^.]+)\.accounts\.default\.", r"\1.", key)
        ok = bool({key, written} & config_keys) if relative == "vora.json" else (Path(relative).name, key) in found
        if not ok:
            missing.append((relative, json_path))
    assert missing == []


@pytest.mark.parametrize("name", [n for n, s in DATA["states"].items() if "afterVoraFix" in s])
def test_after_vora_fix_neither_audit_finds_a_file_problem(name: str, tmp_path: Path) -> None:
    after = DATA["states"][name]["afterVoraFix"]
    assert [f for f in after["findings"] if f[0].startswith("fs.")] == []  # the gateway's verdict, recorded
    state = STATE_BY_NAME[name].build(tmp_path)
    from vora_cli.core.doctor.fixes import apply_fix, select_fixes
    from vora_cli.core.security.runner import FIXABLE, ONLY_WHEN_NAMED

    report = audit(state)
    fixes, _ = select_fixes(report.report, (), fixable=FIXABLE, only_when_named=ONLY_WHEN_NAMED)
    assert sorted(f.id for f in fixes) == sorted(i for i, _status in after["voraFixes"])
    paths = resolve_paths(state_dir=str(state), env={"HOME": str(state.parent / "home")})
    assert {apply_fix(f, make_install(paths=paths), "").status for f in fixes} == {"applied"}
    files = ("state-dir", "config-files", "credentials", "devices", "sessions", "logs")
    assert [(c.id, f.title) for c, f in audit(state).findings if c.id in files] == []


def test_every_severity_difference_is_documented() -> None:
    page = (REPO / "docs" / "security.md").read_text(encoding="utf-8")
    for check_id in (*DIFFERENT_SEVERITY, *NOT_A_FINDING):
        assert f"`{check_id}`" in page
    assert os.path.basename(UPSTREAM_DATA) in page


@pytest.mark.parametrize("name", ["channels-dm-disabled", "channels-dm-disabled-accounts"])
def test_dms_turned_off_are_named_for_the_channels_the_gateway_names(name: str, tmp_path: Path) -> None:
    """Every channel plugin the gateway says has DMs off, and no other (discord's and slack's
    `dm.policy`, msteams'), at info; per account, where the account writes it, never on an account
    that is turned off."""
    found = [f for f in _vora(name, tmp_path) if any(g.endswith(".dm.disabled") for g in f.gateway)]
    gateway = sorted(c for c, _s, _t in DATA["states"][name]["findings"] if c.endswith(".dm.disabled"))
    assert sorted({g for f in found for g in f.gateway}) == gateway
    assert {f.severity for f in found} == {"info"}
    if name == "channels-dm-disabled-accounts":
        assert sorted(f.detail.split(" is ")[0] for f in found) == [
            "channels.irc.accounts.default.dmPolicy", "channels.matrix.accounts.ops.dm.policy",
            "channels.signal.accounts.work.dmPolicy", "channels.telegram.accounts.a.dmPolicy"]
