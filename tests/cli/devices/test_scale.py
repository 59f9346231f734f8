"""`vora devices list` and `approve` take shortcuts on a big store (issue h28: 1,000 paired devices
and 200 requests within 2x `config file`); each is held here to the general path it replaces:

- `approve` runs on the fast dispatch: every form answers exactly as the Typer app does, on a store
  with live requests, a changed key, expired and unknown ids (stdout, stderr, exit code, and the
  files it leaves, fresh tokens and change ids aside);
- `approve --latest` reads the store once: its look hands its parse to the approval;
- the paired table is built without short forms when it cannot be fitted (piped): the same bytes
  as a terminal wide enough for every cell whole;
- `list --json` streams the paired devices: the same document as the encoder writes whole, for
  odd values too (control characters, lone surrogates, non-ASCII, an ASCII-only stdout).

The core side (the store read whole and written back in runs) is `tests/core/devices/test_devices_shortcuts.py`.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from devices_support import DAY, MIN, NOW, key, paired, request, write_store
from dispatch_support import captured, typer_main

from vora_cli.cli import output
from vora_cli.cli.dispatch import dispatch
from vora_cli.core.devices import store

pytestmark = pytest.mark.usefixtures("pinned_clock")

_MASKS = [(re.compile(rb'"token": "[A-Za-z0-9_-]{43}"'), b'"token": "T"'),
          (re.compile(rb'"changeId": "[0-9a-f]{16}"'), b'"changeId": "C"')]


def _odd_store(state_dir: Path) -> dict[str, str]:
    """Paired devices and requests of every kind, some odd; the ids the tests name."""
    laptop = paired("laptop", label="ops laptop")
    phone = paired("phone", roles=["operator", "node"], scopes=["operator.read", "node.exec"])
    odd = {**paired("desk"), "label": "d\x1b[31mesk \u2028é", "tokens": {"operator": {"revokedAtMs": 1e400}},
           "createdAtMs": "yesterday", "platform": "\ud800cut"}
    upgrade = request("laptop", scopes=["operator.admin"], ts=NOW - 30_000, request_id="r-upgrade")
    new = request("tablet", ts=NOW - 2 * MIN, request_id="r-new", displayName="Zoë's 📱")
    expired = request("watch", ts=NOW - 7 * MIN, request_id="r-expired")
    other_key = {**request("phone", ts=NOW - MIN, request_id="r-otherkey"), "publicKey": key("intruder").public_key}
    future = request("tv", ts=NOW + 10 * MIN, request_id="r-future")
    write_store(state_dir, [upgrade, new, expired, other_key, future], [laptop, phone, odd])
    return {"new": "r-new", "upgrade": "r-upgrade", "expired": "r-expired", "otherkey": "r-otherkey",
            "future": "r-future", "tablet": new["deviceId"], "phone": phone["deviceId"]}


def _files(state_dir: Path) -> dict[str, bytes]:
    found = {}
    for sub in ("devices", "logs"):
        for path in sorted((state_dir / sub).glob("*")) if (state_dir / sub).is_dir() else ():
            data = path.read_bytes()
            for pattern, mask in _MASKS:
                data = pattern.sub(mask, data)
            found[f"{sub}/{path.name}"] = data
    return found


@pytest.fixture
def both_ways(state_dir: Path, tmp_path: Path) -> Callable[[list[str]], tuple[Any, Any, bool]]:
    """Run a devices command line through the fast dispatch and through Typer, each on a fresh
    copy of the odd store: ((outcome, files) of the fast path, the same of Typer's, whether the
    fast path answered)."""
    _odd_store(state_dir)
    source = tmp_path / "source"
    shutil.copytree(state_dir, source)

    def reset() -> None:
        shutil.rmtree(state_dir)
        shutil.copytree(source, state_dir)

    def run(args: list[str]) -> tuple[Any, Any, bool]:
        argv = ["--state-dir", str(state_dir), "devices", *args]
        reset()
        fast, took = captured(lambda: dispatch(argv))
        fast_files = _files(state_dir)
        reset()
        typer_result, _ = captured(lambda: typer_main(argv))
        return (fast, fast_files), (typer_result, _files(state_dir)), took

    return run


def _masked(result: Any) -> Any:
    out, err, code = result
    for pattern, mask in _MASKS:
        out = pattern.sub(mask, out)
    return out, err, code


APPROVE_FORMS = [
    ["approve", "r-new"], ["approve", "r-new", "--json"], ["approve", "r-upgrad"], ["approve", "r-upgrade", "--yes"],
    ["approve", "r-new", "--dry-run", "--json"], ["approve", "--latest", "--yes"], ["approve", "--latest", "--yes", "--json"],
    ["approve", "--latest", "--yes", "--dry-run"], ["approve", "--latest"], ["approve", "--latest", "--json"],
    ["approve", "r-expired"], ["approve", "r-otherkey"], ["approve", "r-otherkey", "--yes"], ["approve", "r-future"],
    ["approve", "nope-nope-nope"], ["approve"], ["approve", "r-new", "--latest"], ["approve", "--device", "0123456789"],
    ["approve", "--device", "01"], ["approve", "--latest", "--yes", "-q"],
]


@pytest.mark.parametrize("form", APPROVE_FORMS, ids=" ".join)
def test_approve_on_the_fast_dispatch_answers_and_writes_as_typer_does(
        form: list[str], both_ways: Callable[[list[str]], tuple[Any, Any, bool]]) -> None:
    (fast, fast_files), (typer_result, typer_files), took = both_ways(form)
    assert took  # a well-formed approve line is the fast dispatch's
    assert _masked(fast) == _masked(typer_result)
    assert fast_files == typer_files


def test_approve_by_device_on_the_fast_dispatch_answers_as_typer_does(
        both_ways: Callable[[list[str]], tuple[Any, Any, bool]], state_dir: Path) -> None:
    device = json.loads((state_dir / "devices" / "pending.json").read_text())["r-new"]["deviceId"]
    (fast, fast_files), (typer_result, typer_files), took = both_ways(["approve", "--device", device[:10], "--yes"])
    assert took and _masked(fast) == _masked(typer_result) and fast_files == typer_files
    assert fast[2] == 0 and b"Approved request r-new" in fast[0]


def test_approve_latest_reads_and_parses_the_store_once(vora: Any, state_dir: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    write_store(state_dir, [request("laptop", scopes=["operator.admin"], ts=NOW - 30_000, request_id="r-upgrade"),
                            request("tablet", ts=NOW - 2 * MIN, request_id="r-new")],
                [paired("laptop", label="ops laptop")])
    scans: list[int] = []
    real = store.scan_map
    monkeypatch.setattr(store, "scan_map", lambda text, data=None: scans.append(len(text)) or real(text, data))
    result = vora("devices", "approve", "--latest", "--yes")
    assert result.exit_code == 0, result.stderr
    assert "request r-upgrade: ops laptop" in result.stderr and "Approved request r-upgrade" in result.stdout
    assert len(scans) == 2  # pending.json and paired.json, by the look; the approval took its parse


def test_the_piped_tables_equal_the_terminal_tables_wide_enough_for_every_cell(
        vora: Any, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _odd_store(state_dir)
    piped = vora("devices", "list")
    assert piped.exit_code == 0
    monkeypatch.setattr(output, "stream_is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "1000")
    wide = vora("devices", "list")
    assert (wide.stdout, wide.stderr) == (piped.stdout, piped.stderr)
    assert "\\x1b" in piped.stdout and "operator: revocation unknown" in piped.stdout
    monkeypatch.setenv("COLUMNS", "60")
    narrow = vora("devices", "list").stdout
    assert "!! NEW KEY !!" in narrow and "r-upgrad " in narrow  # a fitted table still has the short forms


def test_list_json_streams_the_document_emit_writes(vora: Any, state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _odd_store(state_dir)
    compact = vora("devices", "list", "--json")
    monkeypatch.setenv("VORA_JSON_INDENT", "2")
    indented = vora("devices", "list", "--json")
    assert compact.exit_code == indented.exit_code == 0
    assert "\n" not in compact.stdout.rstrip("\n") and indented.stdout.startswith('{\n  "stateDir"')
    assert json.loads(compact.stdout) == json.loads(indented.stdout)
    paired_only = vora("devices", "list", "--paired", "--json")
    assert json.loads(paired_only.stdout)["paired"] == json.loads(indented.stdout)["paired"]


def test_a_store_of_many_devices_lists_the_same_both_ways(vora: Any, state_dir: Path) -> None:
    """Many devices sharing role and scope lists (what the rules work out once per list), each
    with its own times: the table and the JSON say each device's own."""
    devices = [{**paired("laptop"), "deviceId": f"{i:064x}", "displayName": f"device-{i}",
                "approvedScopes": [["operator.read"], ["operator.admin"], []][i % 3],
                "createdAtMs": NOW - i * DAY} for i in range(60)]
    write_store(state_dir, [], devices)
    doc = vora("devices", "list", "--paired", "--json").json()["paired"]
    assert [d["approvedScopes"] for d in doc[:3]] == [
        ["operator.read"], ["operator.admin", "operator.read", "operator.write"], []]
    assert [d["createdAtMs"] for d in doc] == [NOW - i * DAY for i in range(60)]
    table = vora("devices", "list", "--paired").stdout
    assert table.count("operator.admin, operator.read, operator.write") == 20


_LOADED = """
import sys
from vora_cli.cli.dispatch import dispatch
code = dispatch(sys.argv[1:])
heavy = sorted({m for m in sys.modules} & {"hashlib", "_hashlib", "secrets", "random", "tempfile", "datetime",
                                          "base64", "typer", "click", "rich", "vora_cli.core.writer"})
sys.stderr.write(f"\\nFAST={code is not None} LOADED={','.join(heavy)}\\n")
"""


@pytest.mark.parametrize(("args", "allowed"), [
    (["list"], ""), (["list", "--json"], ""), (["approve", "--latest", "--yes"], "datetime,vora_cli.core.writer")])
def test_list_and_approve_load_no_hashing_random_tempfile_or_dates(state_dir: Path, args: list[str], allowed: str) -> None:
    """What listing or approving does not need stays unloaded: OpenSSL's hashlib, secrets and
    random (tokens come from os.urandom), tempfile (shutil, bz2, lzma), base64 (binascii), and for
    a listing with nothing to write, the writer and datetime (an approve's audit line is dated)."""
    import os
    import subprocess
    import sys

    write_store(state_dir, [request("tablet", ts=NOW - 2 * MIN, request_id="r-new"),
                            request("watch", ts=NOW - MIN, request_id="r-newer")],
                [paired("laptop", label="ops laptop")])
    repo = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    run = [sys.executable, "-c", _LOADED, "--state-dir", str(state_dir), "devices"]
    subprocess.run([*run, "list"], capture_output=True, env=env, check=True, timeout=120)  # notes the requests
    done = subprocess.run([*run, *args], capture_output=True, text=True, env=env, check=False, timeout=120)
    assert done.stderr.rstrip().endswith(f"FAST=True LOADED={allowed}"), done.stderr
    assert ("Approved request r-newer" in done.stdout) == (args[0] == "approve")
