"""What a config write promises when something goes wrong (issue 12, points 2, 4 and 5).

- a write that does not land never costs a backup (the ring rotates only after the replace);
- vora never writes a config it cannot read back (includes, size limit, known types);
- a write that landed is reported as landed, whatever fails after it (audit line, odd names).
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO

BASE = '{\n  // the gateway\n  gateway: { port: 18789 },\n  note: "keep",\n}\n'


def _ring(config: Path) -> dict[str, bytes]:
    """Every backup beside the config (and any staged one), name -> bytes."""
    return {p.name: p.read_bytes() for p in sorted(config.parent.iterdir()) if ".bak" in p.name}


def _build_ring(vora, config: Path, writes: int = 3) -> None:
    config.write_text(BASE)
    for i in range(writes):
        assert vora("config", "set", "gateway.port", str(18790 + i)).exit_code == 0


# -- (2) backups rotate only after the config landed ---------------------------------------------


def _vora_with_file_size_limit(limit: int, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """A real vora process that may not write a file bigger than `limit` bytes (EFBIG, like a full disk)."""

    def limit_writes() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    full_env = {**os.environ, **env, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "vora_cli", *args], env=full_env, capture_output=True,
                          text=True, timeout=60, check=False, preexec_fn=limit_writes)


def test_a_write_refused_by_the_os_keeps_the_backup_ring(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    _build_ring(vora, config)
    ring, before = _ring(config), config.read_bytes()
    big = "x" * 20_000  # the backup of the old file fits under the limit; the new file does not
    result = _vora_with_file_size_limit(8_192, {}, "config", "set", "note", big)
    assert result.returncode == 1, result.stderr
    assert "io_error" not in result.stderr and "unexpected" not in result.stderr
    assert "cannot write" in result.stderr and "vora.json" in result.stderr
    assert config.read_bytes() == before
    assert _ring(config) == ring  # nothing shifted, nothing staged left behind


@contextlib.contextmanager
def _small_tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir()
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root; the RLIMIT_FSIZE test covers the same class")
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)],
                             capture_output=True, text=True, check=False)
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def _fill(directory: Path, leave: int) -> None:
    """Fill the file system of `directory`, then free about `leave` bytes."""
    filler = directory / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * 4096)
    finally:
        os.close(fd)
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - leave))


@pytest.mark.parametrize("leave", [0, 8_192], ids=["no-room-even-for-the-backup", "room-for-the-backup-only"])
def test_a_full_disk_never_rotates_the_backups(vora, tmp_path: Path, leave: int) -> None:
    with _small_tmpfs(tmp_path / "disk", "256k") as disk:
        state = disk / "state"
        state.mkdir(mode=0o700)
        env = {"VORA_STATE_DIR": str(state)}
        config = state / "vora.json"
        config.write_text(BASE)
        for i in range(3):
            assert vora("config", "set", "gateway.port", str(18790 + i), env=env).exit_code == 0
        (state / "logs").mkdir(exist_ok=True)
        ring, before = _ring(config), config.read_bytes()
        _fill(disk, leave)
        result = vora("config", "set", "note", "y" * 60_000, env=env)
        assert result.exit_code == 1, result.stdout
        assert "No space left" in result.stderr or "cannot write" in result.stderr
        assert config.read_bytes() == before
        assert _ring(config) == ring


# -- (4) never write a config vora cannot read back ---------------------------------------------


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (("config", "set", "$include", "./missing.json5"), "does not exist"),
        (("config", "set", "$include", "../outside.json5"), "outside the config folder"),
        (("config", "set", "agents.$include", "./missing.json5"), "does not exist"),
        (("config", "set", "$include", "./wrong-types.json5"), "agents.defaults.bootstrapMaxChars must be"),
    ],
)
def test_a_result_that_would_not_load_is_refused(vora, state_dir: Path, args: tuple[str, ...], why: str) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    (state_dir.parent / "outside.json5").write_text("{}")
    (state_dir / "wrong-types.json5").write_text('{agents: {defaults: {bootstrapMaxChars: "many"}}}')
    for dry_run in (("--dry-run",), ()):  # a dry run runs every check a real write runs
        result = vora(*args, *dry_run)
        assert result.exit_code == 1
        assert why in result.stderr and "nothing was written" in result.stderr
        assert config.read_text() == BASE
    assert not config.with_name("vora.json.bak").exists()
    assert vora("config", "get", "gateway.port").stdout == "18789\n"


def test_growth_past_the_size_limit_is_refused(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    for args in (("config", "set", "note", "z" * (2 * 1024 * 1024)),):
        result = vora(*args)
        assert result.exit_code == 1 and "2 MiB" in result.stderr, result.stderr
        assert config.read_text() == BASE
    patch = state_dir / "big.json5"
    # a patch just under the input limit whose result, with the file's own text, is over it
    patch.write_text(json.dumps({"a": "q" * (1024 * 1024), "b": "r" * (1024 * 1024 - 64)}))
    assert patch.stat().st_size <= 2 * 1024 * 1024
    result = vora("config", "patch", str(patch))
    assert result.exit_code == 1 and "2 MiB" in result.stderr, result.stderr
    assert config.read_text() == BASE


BROKEN_INCLUDES = {
    "missing": ('{\n  "$include": "./gone.json5",\n  gateway: { port: 18789 },\n}\n', None),
    "outside": ('{\n  "$include": "../elsewhere.json5",\n  gateway: { port: 18789 },\n}\n', None),
    "cycle": ('{\n  "$include": "./a.json5",\n  gateway: { port: 18789 },\n}\n', '{"$include": "./vora.json"}'),
    "unparseable": ('{\n  "$include": "./a.json5",\n  gateway: { port: 18789 },\n}\n', "{oops"),
    "lone surrogate": ('{\n  "$include": "./\\ud800.json5",\n  gateway: { port: 18789 },\n}\n', None),
    "NUL": ('{\n  "$include": ["./a\\u0000b"],\n  gateway: { port: 18789 },\n}\n', None),
}


@pytest.mark.parametrize("name", sorted(BROKEN_INCLUDES))
@pytest.mark.parametrize("how", ["unset", "patch"])
def test_a_broken_include_can_always_be_removed(vora, state_dir: Path, name: str, how: str) -> None:
    text, included = BROKEN_INCLUDES[name]
    config = state_dir / "vora.json"
    config.write_text(text)
    (state_dir.parent / "elsewhere.json5").write_text("{}")
    if included is not None:
        (state_dir / "a.json5").write_text(included)
    assert vora("config", "get", "gateway.port").exit_code == 1  # bricked for readers
    for reader in (("config", "validate"), ("doctor",)):
        report = vora(*reader)
        assert report.exit_code == 1 and "unexpected error" not in report.stdout + report.stderr
    # Any other edit is refused: the result would still not load.
    other = vora("config", "set", "gateway.port", "18800")
    assert other.exit_code == 1 and "nothing was written" in other.stderr
    assert config.read_text() == text
    if how == "unset":
        result = vora("config", "unset", "$include")
    else:
        result = vora("config", "patch", "-", input='{"$include": null, gateway: {port: 18801}}')
    assert result.exit_code == 0, result.stderr
    assert "$include" not in config.read_text()
    assert vora("config", "get", "gateway.port").stdout == ("18789\n" if how == "unset" else "18801\n")


# -- (5) a write that landed is reported as landed ----------------------------------------------


def test_a_state_dir_with_a_non_utf8_name_reports_the_landed_write(tmp_path: Path) -> None:
    state = os.fsencode(tmp_path) + b"/state-\xff"
    os.mkdir(state, 0o700)
    env = {**os.environ, "VORA_STATE_DIR": os.fsdecode(state), "PYTHONPATH": str(REPO)}
    for args in (["config", "set", "gateway.port", "18800"], ["config", "set", "gateway.bind", "lan", "--json"]):
        result = subprocess.run([sys.executable, "-m", "vora_cli", *args], env=env, capture_output=True,
                                timeout=60, check=False)
        assert result.returncode == 0, result.stderr
        assert b"Traceback" not in result.stderr and b"unexpected" not in result.stderr
    audit = Path(os.fsdecode(state + b"/logs/config-audit.jsonl"))
    lines = [json.loads(line) for line in audit.read_bytes().splitlines()]
    assert [line["paths"] for line in lines] == [["gateway.port"], ["gateway.bind"]]
    assert lines[0]["file"].endswith("state-\udcff/vora.json")
    payload = json.loads(result.stdout)
    assert payload["changed"] is True and payload["files"][0]["path"].endswith("state-\udcff/vora.json")


def test_an_audit_log_that_cannot_be_written_is_a_warning_not_a_failure(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    (state_dir / "logs").write_text("a file where the logs folder should be")
    result = vora("config", "set", "gateway.port", "18800")
    assert result.exit_code == 0
    assert "Updated gateway.port: 18789 -> 18800" in result.stdout
    assert "was written, but the audit line could not be appended" in result.stderr
    assert "18800" in config.read_text()
    result = vora("config", "unset", "note", "--json")
    assert result.exit_code == 0
    assert "audit line" in result.json()["warnings"][0]
    assert "note" not in config.read_text()
