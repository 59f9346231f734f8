"""vora's cache of the gateway schema's "no errors" verdicts (core/config/verdicts.py).

What it must never do: change an answer. Every test compares a run answered from the cache with
one that validated, and counts the validators compiled (the work the cache saves) instead of
timing anything.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core.config import gateway as gateway_module
from vora_cli.core.config import verdicts
from vora_cli.core.userdirs import cache_dir

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "vora"


@pytest.fixture
def state(tmp_path: Path) -> Path:
    copy = tmp_path / "state"
    shutil.copytree(EXAMPLE, copy, symlinks=True)
    # the plugin the example links (`../plugins/my-engine`): without it the gateway refuses the config
    shutil.copytree(EXAMPLE.parent / "plugins", tmp_path / "plugins", symlinks=True)
    return copy


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The schemas a validator was compiled for, in this test."""
    seen: list[object] = []
    real = gateway_module._validator
    monkeypatch.setattr(gateway_module, "_validator", lambda schema: seen.append(schema) or real(schema))
    return seen


def _lines() -> list[str]:
    path = cache_dir() / verdicts.FILE_NAME
    return path.read_text().splitlines() if path.exists() else []


def _validate(vora: Callable[..., Any], state: Path) -> tuple[int, str, str]:
    """`vora config validate --json`, as a new process would run it (the cache file read afresh)."""
    verdicts._state.clear()
    run = vora("--state-dir", str(state), "config", "validate", "--json")
    return run.exit_code, run.stdout, run.stderr


def test_a_second_run_answers_from_the_cache_and_says_the_same(vora: Callable[..., Any], state: Path,
                                                               compiled: list[object]) -> None:
    first = _validate(vora, state)
    cold = len(compiled)
    assert cold >= 3  # agents, gateway, plugins, skills: each validated once
    path = cache_dir() / verdicts.FILE_NAME
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(_lines()) == cold and all(len(line) == 64 for line in _lines())
    assert _validate(vora, state) == first
    assert len(compiled) == cold  # nothing compiled again
    run = vora("--state-dir", str(state), "doctor", "--only", "config-schema", "--json")
    assert run.exit_code in (0, 1) and len(compiled) == cold


def test_a_value_with_errors_is_never_remembered(vora: Callable[..., Any], state: Path, compiled: list[object]) -> None:
    config = state / "vora.json"
    config.write_text(config.read_text().replace("port: 18789", 'port: "http"'))
    first = _validate(vora, state)
    assert first[0] == 1 and "gateway.port" in first[1]
    remembered = len(_lines())
    cold = len(compiled)
    assert _validate(vora, state) == first
    assert len(_lines()) == remembered  # the other keys only
    assert len(compiled) == cold + 1  # `gateway` validated again, every time


def test_a_changed_value_is_validated_again(vora: Callable[..., Any], state: Path, compiled: list[object]) -> None:
    assert _validate(vora, state)[0] == 0
    config = state / "vora.json"
    for bad, where in (('bind: "everywhere"', "gateway.bind"), ('bind: "lan", port: -1', "gateway.port")):
        config.write_text((EXAMPLE / "vora.json").read_text().replace('bind: "loopback"', bad))
        code, out, _ = _validate(vora, state)
        assert code == 1 and where in out
    config.write_text((EXAMPLE / "vora.json").read_text())
    assert _validate(vora, state)[0] == 0


@pytest.mark.parametrize("spoil", ["group-writable", "world-writable", "symlink", "folder"])
def test_a_cache_file_that_is_not_vora_s_own_is_not_trusted(vora: Callable[..., Any], state: Path,
                                                            compiled: list[object], spoil: str,
                                                            tmp_path: Path) -> None:
    first = _validate(vora, state)
    cold = len(compiled)
    path = cache_dir() / verdicts.FILE_NAME
    saved = path.read_bytes()
    if spoil == "group-writable":
        path.chmod(0o620)
    elif spoil == "world-writable":
        path.chmod(0o602)
    elif spoil == "symlink":
        elsewhere = tmp_path / "planted"
        elsewhere.write_bytes(saved)
        elsewhere.chmod(0o600)
        path.unlink()
        path.symlink_to(elsewhere)
    else:
        path.unlink()
        path.mkdir()
    assert _validate(vora, state) == first
    assert len(compiled) == 2 * cold  # validated again: the file's digests were not used
    if spoil != "folder":
        assert path.read_bytes() == saved  # and nothing was appended to it


def test_an_unwritable_cache_dir_changes_nothing_but_the_speed(vora: Callable[..., Any], state: Path,
                                                             compiled: list[object]) -> None:
    folder = cache_dir()
    folder.parent.mkdir(parents=True, exist_ok=True)
    folder.write_text("not a folder")
    first = _validate(vora, state)
    assert first[0] == 0 and first[2] == ""
    assert _validate(vora, state) == first
    assert folder.read_text() == "not a folder"


def test_a_full_file_starts_afresh_and_garbage_lines_are_ignored(vora: Callable[..., Any], state: Path,
                                                               compiled: list[object],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = cache_dir() / verdicts.FILE_NAME
    path.parent.mkdir(parents=True, mode=0o700)
    path.write_text("not a digest\n" + "f" * 63 + "\n" + "0" * 64 + "\n")
    path.chmod(0o600)
    monkeypatch.setattr(verdicts, "MAX_LINES", 2)
    first = _validate(vora, state)
    assert first[0] == 0
    assert "0" * 64 not in _lines() and 1 <= len(_lines()) <= 2
    assert _validate(vora, state) == first


def test_the_digest_changes_with_the_schema_file_the_value_and_the_validator(tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    schema.write_text("{}")
    os.utime(schema, ns=(1_000_000_000, 1_000_000_000))
    one = verdicts.file_identity(schema)
    base = verdicts.digest(one, {"a": 1})
    assert base == verdicts.digest(one, {"a": 1})
    assert verdicts.digest(one, {"a": 2}) != base and verdicts.digest(one, {"a": "1"}) != base
    assert verdicts.digest(one, {"a": 1.0}) != base  # 1 and 1.0 are different JSON texts
    os.utime(schema, ns=(2_000_000_000, 2_000_000_000))
    assert verdicts.digest(verdicts.file_identity(schema), {"a": 1}) != base
    schema.write_text("{ }")
    os.utime(schema, ns=(1_000_000_000, 1_000_000_000))
    assert verdicts.digest(verdicts.file_identity(schema), {"a": 1}) != base
    assert verdicts.file_identity(tmp_path / "missing").startswith("unreadable:")
    assert verdicts.digest(one, {"a": object()}) is None  # no JSON text: never cached
    assert verdicts.schema_text({"type": "object"}) != verdicts.schema_text({"type": "string"})
    assert "jsonschema_rs" in verdicts._validator_identity()
