"""Root's devices writes keep the install's owner (issue 35, point 4), with a real second user
(tests/support/second_user.py). The config's side and the issue's story:
tests/cli/config/test_owners.py.

`sudo vora --state-dir ~svc/.vora devices approve …` left the pairing store, its lock, the change
journal's folder and the audit and seen-request logs `root:root`, and the gateway running as `svc`
could no longer read who is paired.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Run, vora_command
from devices_support import NOW, paired, request, write_store
from second_user import give, owner_of, reachable, run_as, svc  # noqa: F401  (fixtures)

pytestmark = pytest.mark.usefixtures("pinned_clock")


@pytest.fixture
def install(reachable: Path, svc) -> Path:  # noqa: F811
    state = reachable / "svc-state"
    state.mkdir(mode=0o700)
    write_store(state, [request("phone", request_id="r-phone"), request("tablet", request_id="r-tablet")],
                [paired("laptop")])
    give(state, svc)
    return state


def _all_svcs(state: Path, svc) -> None:  # noqa: F811
    wrong = {str(p.relative_to(state)): owner_of(p) for p in sorted(state.rglob("*"))
             if owner_of(p) != (svc.pw_uid, svc.pw_gid)}
    assert wrong == {}, f"left to another owner: {wrong}"


@pytest.mark.parametrize("args", [
    ("approve", "r-phone", "--yes"), ("reject", "r-tablet"), ("demo-request",), ("clear", "--yes", "--pending"),
])
def test_a_devices_write_as_root_leaves_the_store_its_owners(vora, install: Path, svc, args) -> None:  # noqa: F811
    run = vora("--state-dir", str(install), "devices", *args)
    assert run.exit_code == 0, run.stderr
    vora("--state-dir", str(install), "devices", "list")  # notes the requests it saw (a log of its own)
    assert (install / "logs").is_dir()
    _all_svcs(install, svc)
    assert oct((install / "devices" / "paired.json").stat().st_mode & 0o777) == "0o600"


def test_as_the_second_user_a_store_it_cannot_keep_is_refused_before_the_journal(install: Path, svc) -> None:  # noqa: F811
    from click.testing import CliRunner

    paired_json = install / "devices" / "paired.json"
    os.chown(paired_json, 0, 0)  # root's: an approval as svc would hand it to svc
    os.chmod(paired_json, 0o644)
    before = {p.name: p.read_bytes() for p in (install / "devices").iterdir()}
    scratch = install.parent / "scratch"
    write_store(scratch, [request("phone", request_id="r-phone")], [])

    def approve(state: Path) -> Run:
        result = CliRunner(mix_stderr=False).invoke(
            vora_command(), ["--state-dir", str(state), "devices", "approve", "r-phone", "--yes"],
            env={"HOME": str(install.parent), "VORA_HOME": str(install.parent), "VORA_NOW_MS": str(NOW)},
            catch_exceptions=False)
        return Run(result.exit_code, result.stdout, result.stderr)

    run = run_as(svc, lambda: approve(install), warm=lambda: approve(scratch))
    assert run.exit_code == 1
    assert run.stderr.splitlines()[0] == (f"error: {paired_json} belongs to root:root; replacing it as {svc.pw_name} "
                                          f"would make it {svc.pw_name}'s and root (a gateway running as root) might "
                                          "no longer read it; nothing was written")
    after = {p.name: p.read_bytes() for p in (install / "devices").iterdir() if not p.name.endswith(".lock")}
    assert after == {k: v for k, v in before.items() if not k.endswith(".lock")}  # no journal, nothing replaced
    assert owner_of(paired_json) == (0, 0)
