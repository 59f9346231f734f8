"""`vora logs --file` and plain `vora doctor` never read a log folder another user controls (issue 22, class 6).

A local user who creates `$TMPDIR/vora-<uid>` first (or makes it writable) could forge doctor's
"a gateway started … and loaded …" evidence, or crash it. The folder is skipped, and the output
says which folder and why.

Log lines read straight from the file are redacted like the ones `logs.tail` returns (spec
gateway.md: the gateway's `lines` come "secrets already redacted"; README: secrets never reach
stdout or stderr unless asked). The gateway's default patterns, as for transcript previews
(spec sessions.md, "Redaction"): human output, `--json`, and the fallback when the gateway does not answer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from gateway_server import gateway_log_line, refused_port

FORGED = '{"0": "{\\"subsystem\\":\\"gateway\\"}", "1": "ready (1 plugins: evil-engine; 0.1s)", ' \
         '"time": "2026-04-12T10:00:00.000+02:00"}\n'


@pytest.fixture
def fallback(tmp_path: Path) -> Path:
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host; the tests must not read a real gateway's log")
    return tmp_path / "tmp" / f"vora-{os.getuid()}"


def forge(folder: Path, how: str, tmp_path: Path) -> None:
    if how == "symlink":
        real = tmp_path / "attacker"
        real.mkdir()
        (real / "vora-2026-04-12.log").write_text(FORGED)
        folder.symlink_to(real)
        return
    folder.mkdir()
    (folder / "vora-2026-04-12.log").write_text(FORGED)
    if how == "other-user":
        os.chown(folder, 4242, 4242)
        folder.chmod(0o755)
    else:
        folder.chmod(int(how, 8))


HOW = ["0777", "0775", "symlink",
       pytest.param("other-user", marks=pytest.mark.skipif(os.getuid() != 0, reason="chown needs root"))]


@pytest.mark.parametrize("how", HOW)
def test_logs_file_refuses_the_folder_and_says_why(vora, state_dir: Path, fallback: Path, tmp_path: Path,
                                                   how: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    forge(fallback, how, tmp_path)
    run = vora("logs", "--file", "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "not_found" and f"not read: {fallback} " in error["message"]
    assert "evil-engine" not in run.stdout + run.stderr
    human = vora("logs", "--file")
    assert "evil-engine" not in human.stdout and f"{fallback} " in human.stderr


@pytest.mark.parametrize("how", HOW)
def test_doctor_warns_instead_of_showing_forged_evidence(vora, state_dir: Path, fallback: Path, tmp_path: Path,
                                                         how: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    forge(fallback, how, tmp_path)
    doc = vora("doctor", "--json").json()
    check = next(c for c in doc["checks"] if c["id"] == "last-gateway-start")
    assert check["status"] == "warn" and str(fallback) in check["message"]
    assert "evil-engine" not in str(doc)


def test_the_gateway_s_own_folder_is_still_read(vora, state_dir: Path, fallback: Path) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    fallback.mkdir(mode=0o700)
    (fallback / "vora-2026-04-12.log").write_text(FORGED.replace("evil-engine", "my-engine"))
    run = vora("logs", "--file")
    assert run.exit_code == 0 and "ready (1 plugins: my-engine" in run.stdout and "not read" not in run.stderr
    check = next(c for c in vora("doctor", "--json").json()["checks"] if c["id"] == "last-gateway-start")
    assert check["status"] == "info" and "my-engine" in check["message"]


SECRETS = ("sk-abcdefgh12345678", "abcdefghijklmnopqrstuvwxyz0123", "hunter2hunter2")
LINES = [
    gateway_log_line("2026-04-12T10:00:00.000+02:00", "calling provider with OPENAI_API_KEY=sk-abcdefgh12345678"),
    gateway_log_line("2026-04-12T10:00:01.000+02:00", "request", extra=[{"headers": {
        "Authorization": "Bearer abcdefghijklmnopqrstuvwxyz0123"}}], level="DEBUG"),
    "a raw line: --password hunter2hunter2",
    gateway_log_line("2026-04-12T10:00:02.000+02:00", "ready (0 plugins, 1.2s)"),
]


@pytest.fixture
def log_file(tmp_path: Path) -> Path:
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host; the tests must not read a real gateway's log")
    folder = tmp_path / "tmp" / f"vora-{os.getuid()}"
    folder.mkdir(mode=0o700, exist_ok=True)
    path = folder / "vora-2026-04-12.log"
    path.write_text("\n".join(LINES) + "\n")
    return path


def _clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text


@pytest.mark.parametrize("args", [["--file"], ["--file", "--json"], ["--url", "REFUSED"]])
def test_file_lines_are_redacted(state_dir: Path, log_file: Path, vora: Any, args: list[str]) -> None:
    args = [f"ws://127.0.0.1:{refused_port()}" if a == "REFUSED" else a for a in args]
    run = vora("logs", *args)
    assert run.exit_code == 0, run.stderr
    _clean(run.stdout + run.stderr)
    assert run.stdout.count("<redacted>") == 3
    if "--json" in args:
        messages = [line["message"] for line in json.loads(run.stdout)["lines"]]
        assert messages[0] == "calling provider with OPENAI_API_KEY=<redacted>"
        assert messages[3] == "ready (0 plugins, 1.2s)"
    else:
        assert run.stdout.splitlines()[2] == "a raw line: --password <redacted>"


def test_plain_doctor_redacts_a_failure_line_it_quotes_from_the_file(state_dir: Path, log_file: Path,
                                                                     vora: Any) -> None:
    failure = "my-engine failed to load from /p/index.js: Error: bad config GROQ_API_KEY=gsk_abcdefghij0123456789"
    log_file.write_text("\n".join([
        gateway_log_line("2026-04-12T10:00:00.000+02:00", failure, level="ERROR", subsystem="plugins"),
        gateway_log_line("2026-04-12T10:00:01.000+02:00", "ready (1 plugins: other; 1.2s)"),
    ]) + "\n")
    run = vora("doctor", "--json", "--only", "last-gateway-start")
    check = run.json()["checks"][0]
    assert check["status"] == "info"
    assert "failed to load from /p/index.js: Error: bad config GROQ_API_KEY=<redacted>" in check["message"]
    assert "gsk_abcdefghij0123456789" not in run.stdout + run.stderr
    human = vora("doctor", "--only", "last-gateway-start")
    assert "gsk_abcdefghij0123456789" not in human.stdout + human.stderr
