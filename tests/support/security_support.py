"""Helpers for `vora security audit` tests: run the audit in-process on a state in tmp."""

from __future__ import annotations

from pathlib import Path

from install_support import make_install

from vora_cli.core.paths import resolve_paths
from vora_cli.core.security.model import Finding, SecurityReport, findings_of
from vora_cli.core.security.runner import run_security_audit

GOOD = "0123456789abcdef0123456789abcdef"
SAFE_CONFIG = f'{{ gateway: {{ auth: {{ mode: "token", token: "{GOOD}" }}, trustedProxies: ["127.0.0.1"] }} }}\n'


def audit(state: Path, *only: str, env: dict[str, str] | None = None, fail_on: str = "critical") -> SecurityReport:
    home = state.parent / "home"
    home.mkdir(exist_ok=True)
    environ = {"HOME": str(home), **(env or {})}
    paths = resolve_paths(state_dir=str(state), env=environ)
    return run_security_audit(make_install(paths=paths, env=environ, home=home, now_ms=None), only=list(only),
                              fail_on=fail_on)


def found(state: Path, check_id: str, env: dict[str, str] | None = None) -> list[Finding]:
    report = audit(state, check_id, env=env)
    (check,) = [c for c in report.report.checks if c.id == check_id]
    return list(findings_of(check))


def ids(findings: list[Finding]) -> set[str]:
    return {g for f in findings for g in f.gateway}


def titles(findings: list[Finding]) -> list[tuple[str, str]]:
    return [(f.severity, f.title) for f in findings]
