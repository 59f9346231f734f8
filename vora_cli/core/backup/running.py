"""Is the gateway running on this install? Its process lock and its port say (docs/backup.md, "Not while
the gateway runs"). Only a regular lock file this user owns counts: the temp dir is shared.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.json_data import CamelJson
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

PORT_PROBE_S = 0.5


@dataclass(frozen=True)
class GatewayRunning(CamelJson):
    """Evidence that the gateway is running (a restore refuses to write under it)."""
    how: str  # lock | port
    detail: str


def gateway_lock_path(config_path: Path, env: Mapping[str, str] | None = None) -> Path:
    import hashlib

    from vora_cli.core.gateway.logfile import user_tmp_folder

    return user_tmp_folder(env) / f"gateway.{hashlib.sha256(str(config_path).encode()).hexdigest()[:8]}.lock"


def _held_lock(config_path: Path, env: Mapping[str, str]) -> GatewayRunning | None:
    from vora_cli.core.processes import pid_alive

    lock = gateway_lock_path(config_path, env)
    data = _own_regular_file(lock)
    if data is None:
        return None
    try:
        payload: Any = nesting.loads(data)
    except ValueError:
        return None
    pid = payload.get("pid") if isinstance(payload, dict) else None
    if not isinstance(pid, int) or isinstance(pid, bool) or pid <= 0 or not pid_alive(pid, payload.get("startTime")):
        return None
    return GatewayRunning("lock", f"pid {pid} holds {lock}")


def _own_regular_file(path: Path) -> bytes | None:
    """The first LOCK_READ_MAX bytes of `path` when it is a regular file of this user's, else None.
    Any local user may create `vora-<uid>` in the shared temp dir first (a FIFO would block, a
    link would redirect, another user's file is not this user's gateway), so it is opened
    without following a link or blocking, then checked on the open file."""
    from vora_cli.core.gateway_locks import LOCK_READ_MAX

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        uid = os.getuid() if hasattr(os, "getuid") else info.st_uid
        if not stat.S_ISREG(info.st_mode) or info.st_uid != uid:
            return None
        return os.read(fd, LOCK_READ_MAX)
    except OSError:
        return None
    finally:
        os.close(fd)


def _port_open(port: int) -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=PORT_PROBE_S):
            return True
    except OSError:
        return False


def gateway_running(config: Mapping[str, Any], env: Mapping[str, str], config_paths: Iterable[Path]) -> GatewayRunning | None:
    """The first sign that a gateway runs: a live process lock for one of `config_paths` (as
    given and real), else something listening on the local gateway port."""
    from vora_cli.core.gateway.target import local_port

    seen: set[Path] = set()
    for path in config_paths:
        for variant in (path, Path(os.path.realpath(path))):
            if variant not in seen:
                seen.add(variant)
                held = _held_lock(variant, env)
                if held is not None:
                    return held
    port, source = local_port(config, env)
    if _port_open(port):
        return GatewayRunning("port", f"something listens on 127.0.0.1:{port} ({source})")
    return None
