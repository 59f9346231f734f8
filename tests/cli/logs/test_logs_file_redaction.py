"""Log lines read straight from the file are redacted like the ones `logs.tail` returns (spec
gateway.md: the gateway's `lines` come "secrets already redacted"; README: secrets never reach
stdout or stderr unless asked). The gateway's default patterns, as for transcript previews
(spec sessions.md, "Redaction"): human output, `--json`, and the fallback when the gateway does not answer."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from gateway_server import gateway_log_line, refused_port

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
