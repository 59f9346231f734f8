"""The device token store is mode 0600 after every write (spec gateway.md, "Device token"), also
when the file already existed with a wider mode: it holds a secret, so the writer's usual
"an existing file keeps its mode" does not apply. The CLI path: tests/cli/gateway/test_device_token.py."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from vora_cli.core.gateway.device import device_auth_path, forget_device_token, store_device_token


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _loose_store(state: Path, device_id: str, token: str) -> Path:
    path = device_auth_path(state)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"version": 1, "deviceId": device_id, "tokens": {"operator": {
        "token": token, "role": "operator", "scopes": ["operator.read"], "updatedAtMs": 1}}}, indent=2) + "\n")
    path.chmod(0o644)
    return path


def test_storing_a_token_tightens_a_loose_store(tmp_path: Path) -> None:
    path = _loose_store(tmp_path, "dev1", "old")
    assert store_device_token(tmp_path, "dev1", "new", ["operator.read"], 2, 10) is True
    assert _mode(path) == 0o600
    other = _loose_store(tmp_path, "another-device", "theirs")  # replaced whole: ours now
    assert store_device_token(tmp_path, "dev1", "new", ["operator.read"], 3, 10) is True
    assert _mode(other) == 0o600


def test_forgetting_a_token_tightens_a_loose_store(tmp_path: Path) -> None:
    path = _loose_store(tmp_path, "dev1", "rejected")
    doc = json.loads(path.read_text())
    doc["tokens"]["node"] = {"token": "kept", "role": "node", "scopes": [], "updatedAtMs": 1}
    path.write_text(json.dumps(doc, indent=2) + "\n")
    assert forget_device_token(tmp_path, "dev1", 10) is True
    assert _mode(path) == 0o600 and "kept" in path.read_text()
