"""Start-up guard: only the gateway commands pay for websockets and cryptography."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

HEAVY = {"websockets", "websockets.sync.client", "cryptography", "vora_cli.core.gateway.client",
         "vora_cli.core.gateway.status"}


def _loaded_by(args: list[str], tmp_path) -> set[str]:
    script = (
        "import sys\n"
        "from vora_cli.cli.app import app\n"
        f"try:\n    app({args!r}, prog_name='vora')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
    env.update({"PYTHONPATH": str(REPO), "VORA_STATE_DIR": str(tmp_path / "state")})
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False)
    return set(result.stderr.split())


@pytest.mark.parametrize("args", [["--help"], ["config", "file"], ["doctor", "--json"], ["gateway", "--help"],
                                  ["logs", "--help"]])
def test_other_commands_do_not_import_the_websocket_client(args: list[str], tmp_path) -> None:
    loaded = _loaded_by(args, tmp_path)
    assert "vora_cli.cli.app" in loaded
    assert not (loaded & HEAVY), f"vora {' '.join(args)} imports {sorted(loaded & HEAVY)}"


def test_a_refused_connection_fails_before_importing_websockets(tmp_path) -> None:
    from gateway_server import refused_port

    loaded = _loaded_by(["gateway", "status", "--url", f"ws://127.0.0.1:{refused_port()}"], tmp_path)
    assert "vora_cli.core.gateway.client" in loaded
    assert "websockets" not in loaded and "cryptography" not in loaded


def test_status_against_a_gateway_imports_the_client(tmp_path) -> None:
    from gateway_server import running_gateway

    with running_gateway() as gw:
        loaded = _loaded_by(["gateway", "status", "--url", gw.url], tmp_path)
    assert {"websockets.sync.client", "vora_cli.core.gateway.status"} <= loaded
