"""An approval that widens what a device holds is made only when the operator said so (issue 35,
point 8). The commands' side (a real terminal, scripts, `--json`): tests/cli/devices/test_confirm.py.

What "widens" means is held to what an approval actually writes (`merge_approval`): it widens
exactly when the paired record after it holds a role or a scope the one before did not.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from devices_support import NOW, paired, read_store, request, write_store
from hypothesis import given
from hypothesis import strategies as st
from install_support import install_at

from vora_cli.core.devices.approval import approve_request, merge_approval
from vora_cli.core.devices.classify import classify_request, grants_text
from vora_cli.core.devices.lookup import Selection
from vora_cli.core.devices.rules import normalize_scopes
from vora_cli.core.errors import VoraError
from vora_cli.core.paths import VoraPaths, resolve_paths

SCOPES = st.lists(st.sampled_from(["operator.admin", "operator.write", "operator.read", "node.exec", "x.y"]), max_size=4)
ROLES = st.lists(st.sampled_from(["operator", "node"]), min_size=1, max_size=2, unique=True)


@given(st.none() | st.tuples(ROLES, SCOPES), ROLES, SCOPES)
def test_it_widens_exactly_when_the_approval_grants_something_new(held: tuple[list[str], list[str]] | None,
                                                                  roles: list[str], scopes: list[str]) -> None:
    existing = None if held is None else paired("phone", roles=held[0], scopes=held[1])
    ask = request("phone", roles=roles, role=roles[0], scopes=scopes)
    after, _minted = merge_approval(existing, ask, NOW, mint=lambda: "t" * 43)
    before_roles = set(existing["roles"]) if existing else set()
    # what a device holds counts with what it implies (a store may list `operator.admin` alone)
    before_scopes = set(normalize_scopes(existing["approvedScopes"])) if existing else set()
    grants = (set(after["roles"]) - before_roles) | (set(after["approvedScopes"]) - before_scopes)
    c = classify_request(ask, existing)
    assert c.widens == bool(grants)
    assert set(c.new_roles) | set(c.new_scopes) == grants
    assert bool(grants_text(c)) == c.widens


@pytest.fixture
def paths(state_dir: Path) -> VoraPaths:
    return resolve_paths(state_dir=str(state_dir), env={"HOME": str(state_dir.parent)})


def test_a_widening_approval_is_refused_unless_allowed_and_nothing_is_written(paths: VoraPaths, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", roles=["operator", "node"], scopes=["node.exec"], request_id="r1")],
                [paired("phone", roles=["operator"], scopes=["operator.read"])])
    before = read_store(state_dir)
    with pytest.raises(VoraError) as refused:
        approve_request(install_at(paths, NOW), Selection(request_id="r1"))
    assert refused.value.code == "usage"
    assert "grants 1 role (node) and 1 scope (node.exec) it does not hold" in refused.value.message
    assert read_store(state_dir) == before
    assert approve_request(install_at(paths, NOW), Selection(request_id="r1"), dry_run=True).report.dry_run
    done = approve_request(install_at(paths, NOW), Selection(request_id="r1"), allow_widening=True)
    assert done.classification.new_roles == ("node",) and done.classification.new_scopes == ("node.exec",)


def test_a_look_that_said_yes_allows_it(paths: VoraPaths, state_dir: Path) -> None:
    write_store(state_dir, [request("phone", scopes=["operator.admin"], request_id="r1")], [])
    seen = []
    result = approve_request(install_at(paths, NOW), Selection(latest=True), look=lambda view: seen.append(view) or True)
    assert [v.classification.new_scopes for v in seen] == [("operator.admin", "operator.read", "operator.write")]
    assert result.approved_scopes == ("operator.admin", "operator.read", "operator.write")
