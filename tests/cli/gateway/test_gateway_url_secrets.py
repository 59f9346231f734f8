"""A gateway URL can carry a secret (`wss://user:PASSWORD@host/`, `?token=…`): vora shows the URL in
errors, in `gateway status` and in doctor, never that secret (README: secrets never reach stdout or
stderr unless asked; spec gateway.md: "It never prints the secret")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from gateway_server import refused_port, running_gateway

SECRETS = ("hunter2pw", "tok3nvalue", "s3cretkey")


def _clean(*texts: str) -> None:
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, text


@pytest.mark.parametrize("args", [["gateway", "status"], ["gateway", "status", "--json"], ["gateway", "call", "health"],
                                  ["logs", "--json"], ["doctor", "--live", "--json"]])
def test_a_refused_url_is_named_without_its_secret(state_dir: Path, vora: Any, args: list[str]) -> None:
    url = f"ws://admin:hunter2pw@127.0.0.1:{refused_port()}/?token=tok3nvalue"
    run = vora(*args, "--url", url)
    assert run.exit_code == 1
    assert "admin:<redacted>@127.0.0.1" in run.stdout + run.stderr
    _clean(run.stdout, run.stderr)


def test_an_insecure_url_is_refused_without_its_secret(state_dir: Path, vora: Any) -> None:
    run = vora("gateway", "status", "--url", "ws://admin:hunter2pw@gw.example:18789/?password=s3cretkey")
    assert run.exit_code == 1 and "refusing plaintext" in run.stderr
    _clean(run.stdout, run.stderr)


def test_status_and_doctor_show_the_url_without_its_secret(state_dir: Path, vora: Any) -> None:
    with running_gateway() as gw:
        url = gw.url.replace("ws://", "ws://admin:hunter2pw@") + "/?token=tok3nvalue"
        doc = vora("gateway", "status", "--url", url, "--json")
        human = vora("gateway", "status", "--url", url)
        doctor = vora("doctor", "--live", "--url", url, "--json")
    assert doc.exit_code == 0 and human.exit_code == 0, human.stderr
    assert doc.json()["url"] == f"ws://admin:<redacted>@127.0.0.1:{gw.port}/?token=<redacted>"
    _clean(doc.stdout, doc.stderr, human.stdout, human.stderr, doctor.stdout, doctor.stderr)
