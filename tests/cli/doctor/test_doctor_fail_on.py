"""Issue 12 point 13: `doctor --json` `ok` agrees with the exit code under `--fail-on`."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

STALE_REFERENCE = '{ plugins: { allow: ["ghost"] } }\n'
BROKEN_SLOT = '{ plugins: { slots: { contextEngine: "ghost-engine" } } }\n'


def _warn_by_stale_reference(state: Path) -> None:
    (state / "vora.json").write_text(STALE_REFERENCE)


def _warn_by_loose_state_dir(state: Path) -> None:
    (state / "vora.json").write_text("{}\n")
    os.chmod(state, 0o777)


@pytest.mark.parametrize("make_warning", [_warn_by_stale_reference, _warn_by_loose_state_dir])
@pytest.mark.parametrize("extra", [[], ["--fix", "--dry-run"]])
def test_ok_follows_fail_on_for_warnings(state_dir: Path, vora: Callable[..., Run], make_warning: Callable[[Path], None],
                                         extra: list[str]) -> None:
    make_warning(state_dir)
    lenient = vora("doctor", "--json", *extra)
    assert lenient.json()["summary"]["warn"] >= 1
    assert lenient.json()["summary"]["error"] == 0
    assert (lenient.exit_code, lenient.json()["ok"]) == (0, True)
    strict = vora("doctor", "--json", "--fail-on", "warn", *extra)
    assert (strict.exit_code, strict.json()["ok"]) == (1, False)
    explicit = vora("doctor", "--json", "--fail-on", "error", *extra)
    assert (explicit.exit_code, explicit.json()["ok"]) == (0, True)


@pytest.mark.parametrize("fail_on", ["warn", "error"])
def test_ok_is_false_with_an_error_whatever_fail_on(state_dir: Path, vora: Callable[..., Run], fail_on: str) -> None:
    (state_dir / "vora.json").write_text(BROKEN_SLOT)
    result = vora("doctor", "--json", "--fail-on", fail_on)
    assert result.json()["summary"]["error"] >= 1
    assert (result.exit_code, result.json()["ok"]) == (1, False)


def test_a_clean_install_is_ok_under_both(state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    for fail_on in ("warn", "error"):
        result = vora("doctor", "--json", "--fail-on", fail_on, "--skip", "workspace,bootstrap-size")
        assert result.json()["summary"]["warn"] == 0, result.stdout
        assert (result.exit_code, result.json()["ok"]) == (0, True)
