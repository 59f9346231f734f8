"""Confirming `vora devices` commands check what they name before they ask (issue 12.20).

Run as real processes on a real terminal (a pty as stdin), because that is where vora asks.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from devices_support import NOW, key, paired, read_store, request, write_store

REPO = Path(__file__).resolve().parents[3]


def on_a_terminal(state_dir: Path, *args: str, answer: str = "n\n") -> subprocess.CompletedProcess[str]:
    """`vora --state-dir STATE devices ARGS` with a terminal as stdin, answering `answer` if asked."""
    controller, terminal = os.openpty()
    env = {**os.environ, "VORA_NOW_MS": str(NOW), "PYTHONPATH": str(REPO)}
    try:
        os.write(controller, answer.encode())
        return subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state_dir), "devices", *args],
                              stdin=terminal, capture_output=True, text=True, env=env, timeout=60, check=False)
    finally:
        os.close(terminal)
        os.close(controller)


@pytest.mark.parametrize(("given", "code", "says"), [
    ("deadbeef00", 1, "no paired device 'deadbeef00'"),  # never existed
    (key("phone").device_id[:10], 1, "not paired yet but has a pending request"),  # only pending
    ("abc", 2, "is not a device id"),  # not an id at all
], ids=["unknown", "only-pending", "not-an-id"])
def test_remove_of_an_id_that_is_not_paired_fails_without_asking(
    state_dir: Path, given: str, code: int, says: str
) -> None:
    write_store(state_dir, [request("phone")], [paired("laptop")])
    before = (state_dir / "devices" / "paired.json").read_bytes()
    result = on_a_terminal(state_dir, "remove", given, answer="y\n")
    assert result.returncode == code, result.stderr
    assert "[y/N]" not in result.stderr and "Unpair" not in result.stderr
    assert says in result.stderr
    assert (state_dir / "devices" / "paired.json").read_bytes() == before


def test_remove_of_a_paired_device_still_asks_and_no_keeps_it(state_dir: Path) -> None:
    write_store(state_dir, [], [paired("laptop")])
    laptop = key("laptop").device_id
    result = on_a_terminal(state_dir, "remove", laptop[:8], answer="n\n")
    assert f"Unpair device laptop ({laptop[:12]})? Its tokens stop working; it must pair again [y/N]" in result.stderr
    # a declined question is no error (issue 38): a quiet `Cancelled.`, its own exit code
    assert result.returncode == 4 and result.stderr.endswith("[y/N] Cancelled.\n")
    assert "error" not in result.stderr
    assert laptop in read_store(state_dir)[1]
    result = on_a_terminal(state_dir, "remove", laptop[:8], answer="y\n")
    assert result.returncode == 0, result.stderr
    assert laptop not in read_store(state_dir)[1]


def test_approve_latest_with_nothing_to_approve_fails_without_asking(state_dir: Path) -> None:
    write_store(state_dir, [request("phone", ts=NOW - 10 * 60_000)], [])
    result = on_a_terminal(state_dir, "approve", "--latest", answer="y\n")
    assert result.returncode == 1 and "[y/N]" not in result.stderr
    assert "no live pairing request" in result.stderr


# -- an approval that widens what the device holds asks (issue 35, point 8) ---------------------------

def _admin_ask(state_dir: Path) -> dict[str, object]:
    """The read-only phone, paired, asks again for operator.admin (a scope upgrade)."""
    phone = paired("phone", scopes=["operator.read"])
    ask = request("phone", scopes=["operator.admin"], request_id="r-admin")
    write_store(state_dir, [ask], [phone])
    return phone


@pytest.mark.parametrize("selector", [["--device", key("phone").device_id[:8]], ["r-admin"], ["--latest"]],
                         ids=["device", "request-id", "latest"])
def test_granting_admin_shows_what_it_grants_and_asks_whatever_names_the_request(state_dir: Path,
                                                                               selector: list[str]) -> None:
    phone = _admin_ask(state_dir)
    result = on_a_terminal(state_dir, "approve", *selector, answer="n\n")
    assert ("Approve request r-admin of phone, granting 2 scopes (operator.admin, operator.write) it does not hold?"
            " [y/N]") in result.stderr
    assert "scopes operator.admin, operator.read, operator.write" in result.stderr  # the request, shown first
    assert result.returncode == 4 and result.stderr.endswith("Cancelled.\n")
    assert read_store(state_dir)[1][phone["deviceId"]] == phone
    result = on_a_terminal(state_dir, "approve", *selector, answer="y\n")
    assert result.returncode == 0, result.stderr
    assert read_store(state_dir)[1][phone["deviceId"]]["approvedScopes"] == [
        "operator.admin", "operator.read", "operator.write"]


def test_a_new_device_and_a_role_upgrade_ask_too(state_dir: Path) -> None:
    write_store(state_dir, [request("tablet", request_id="r-new"),
                            request("laptop", roles=["operator", "node"], scopes=["operator.read", "node.exec"],
                                    request_id="r-node")], [paired("laptop")])
    result = on_a_terminal(state_dir, "approve", "r-new", answer="n\n")
    assert "granting 1 role (operator) and 1 scope (operator.read) it does not hold? [y/N]" in result.stderr
    result = on_a_terminal(state_dir, "approve", "r-node", answer="n\n")
    assert "granting 1 role (node) and 1 scope (node.exec) it does not hold? [y/N]" in result.stderr
    assert read_store(state_dir)[0].keys() == {"r-new", "r-node"}


def test_what_grants_nothing_new_is_approved_without_a_question(state_dir: Path) -> None:
    laptop = paired("laptop", scopes=["operator.admin"])
    write_store(state_dir, [request("laptop", scopes=["operator.write"], platform="macos 15.2", request_id="r-meta")],
                [laptop])
    result = on_a_terminal(state_dir, "approve", "--device", laptop["deviceId"][:8], answer="")
    assert result.returncode == 0, result.stderr
    assert "[y/N]" not in result.stderr  # write is implied by admin: a metadata change grants nothing new


@pytest.mark.parametrize("extra", [(), ("--json",)], ids=["human", "json"])
def test_without_a_terminal_or_yes_it_is_a_usage_error_naming_the_grant(vora, state_dir: Path,
                                                                        extra: tuple[str, ...]) -> None:
    phone = _admin_ask(state_dir)
    before = [(state_dir / "devices" / n).read_bytes() for n in ("pending.json", "paired.json")]
    result = vora("--state-dir", str(state_dir), "devices", "approve", "--device", phone["deviceId"][:8], *extra,
                  env={"VORA_NOW_MS": str(NOW)})
    assert result.exit_code == 2
    message = (f"approving request r-admin of phone ({phone['deviceId'][:12]}) grants 2 scopes (operator.admin, "
               "operator.write) it does not hold; nothing was written")
    hint = "run it on a terminal to see it and be asked, or pass --yes to grant them"
    if extra:
        assert result.json()["error"] == {"code": "usage", "message": message, "hint": hint}
    else:
        assert result.stderr.splitlines() == [f"error: {message}", f"hint: {hint}"]
    assert [(state_dir / "devices" / n).read_bytes() for n in ("pending.json", "paired.json")] == before
    assert not (state_dir / "logs" / "devices-audit.jsonl").exists()
    dry = vora("--state-dir", str(state_dir), "devices", "approve", "--device", phone["deviceId"][:8], "--dry-run",
               env={"VORA_NOW_MS": str(NOW)})
    assert dry.exit_code == 0 and dry.stdout.startswith("Would approve request r-admin")
    done = vora("--state-dir", str(state_dir), "devices", "approve", "--device", phone["deviceId"][:8], "--yes",
                env={"VORA_NOW_MS": str(NOW)})
    assert done.exit_code == 0, done.stderr


def test_clear_asks_with_the_counts_and_a_no_is_a_quiet_cancel(state_dir: Path) -> None:
    write_store(state_dir, [request("phone")], [paired("laptop"), paired("tablet")])
    before = read_store(state_dir)
    result = on_a_terminal(state_dir, "clear", "--pending", answer="n\n")
    assert "Remove 2 paired devices (their tokens stop working) and reject 1 pending request? [y/N] " in result.stderr
    assert result.returncode == 4
    assert result.stderr.endswith("[y/N] Cancelled.\n") and "error" not in result.stderr
    assert read_store(state_dir) == before


def test_end_of_input_at_the_question_is_a_no_that_ends_the_line(state_dir: Path) -> None:
    write_store(state_dir, [], [paired("laptop")])
    result = on_a_terminal(state_dir, "clear", answer="\x04")
    assert result.returncode == 4
    assert result.stderr.endswith("[y/N] \nCancelled.\n")


def test_ctrl_c_at_the_question_ends_its_line(state_dir: Path) -> None:
    """The shell's prompt after a Ctrl-C at `[y/N]` starts on a line of its own (exit 130, nothing written)."""
    import signal
    import time

    write_store(state_dir, [], [paired("laptop")])
    before = read_store(state_dir)
    controller, terminal = os.openpty()
    env = {**os.environ, "VORA_NOW_MS": str(NOW), "PYTHONPATH": str(REPO)}
    # SIGINT as a shell's foreground job has it (a background job, as CI may run this, ignores it)
    proc = subprocess.Popen([sys.executable, "-m", "vora_cli", "--state-dir", str(state_dir), "devices", "clear"],
                            stdin=terminal, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    said = b""
    try:
        deadline = time.monotonic() + 60  # a hang guard: the question comes in well under a second
        while b"[y/N] " not in said and time.monotonic() < deadline:
            said += os.read(proc.stderr.fileno(), 1024)  # type: ignore[union-attr]
        assert b"[y/N] " in said, said
        proc.send_signal(signal.SIGINT)
        rest = proc.communicate(timeout=60)[1]
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == 130
    assert (said + rest).endswith(b"[y/N] \n")
    assert read_store(state_dir) == before
