"""doctor's config-secrets and pairing-store know hard links: a file with other names is named as the audit names
it, and no fix is offered that must then fail (a chmod would change the other names too)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from devices_support import paired, write_store

from tests.conftest import Run

TOKEN = "0123456789abcdef0123456789abcdef"


def _link(path: Path, elsewhere: Path, count: int) -> None:
    elsewhere.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        os.link(path, elsewhere / f"copy-{i}")


@pytest.mark.parametrize("count", [1, 2])
@pytest.mark.parametrize("check", ["config-secrets", "pairing-store"])
def test_a_linked_file_gets_a_next_step_not_a_failing_fix(check: str, count: int, state_dir: Path, tmp_path: Path,
                                                          vora: Callable[..., Run]) -> None:
    config = state_dir / "vora.json"
    config.write_text(f'{{ gateway: {{ auth: {{ mode: "token", token: "{TOKEN}" }} }} }}\n')
    write_store(state_dir, devices=[paired("laptop")])
    target = config if check == "config-secrets" else state_dir / "devices" / "paired.json"
    for path in (config, state_dir / "devices" / "paired.json"):
        path.chmod(0o600)
    target.chmod(0o644)
    _link(target, tmp_path / "pub", count)
    found = {c["id"]: c for c in vora("doctor", "--json").json()["checks"]}[check]
    assert found["status"] == "warn"
    names = f"{count} other name{'s' if count > 1 else ''} (hard links, {count + 1} in all)"
    assert names in found["message"] + " ".join(found["details"])
    assert found["fix"]["automatic"] is False and "cp -p" in found["fix"]["command"]
    fixed = vora("doctor", "--fix", check, "--yes", "--json")
    assert [f["status"] for f in fixed.json()["fixes"]] in ([], ["skipped"]), fixed.stdout
    assert (target.stat().st_mode & 0o777) == 0o644  # neither this name nor its others changed
    assert all((p.stat().st_mode & 0o777) == 0o644 for p in (tmp_path / "pub").iterdir())
