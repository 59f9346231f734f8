"""Audit lines (config and devices) are written whatever the names in them (issue 12, points 5, 9)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from vora_cli.core.writer import append_line


@pytest.mark.parametrize("name", ["state-\udcff/vora.json", "\ud800", "caf\udce9 \U0001f600 ok"])
def test_a_json_line_with_a_lone_surrogate_is_appended_as_an_escape(tmp_path: Path, name: str) -> None:
    log = tmp_path / "logs" / "audit.jsonl"
    append_line(log, json.dumps({"file": name}, ensure_ascii=False))
    append_line(log, json.dumps({"file": name}))
    lines = log.read_bytes().decode("utf-8").splitlines()
    assert [json.loads(line)["file"] for line in lines] == [name, name]
    assert os.stat(log).st_mode & 0o777 == 0o600
