"""A password typed into a gateway URL without percent-encoding its `#`, `/` or `?` is never shown.

`ws://admin:pa#ss@host` is no URL a client opens (its authority ends at `#`, so its "port" is
`pa`), and every refusal names the URL: the settings check, `--url`, `VORA_GATEWAY_URL` and a
hand-written settings file (an error on every command). Each showed the password in clear while
the same password without the `#` was redacted (review of issues 22 and 23).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

PASSWORD = "hunter2-pw"
URLS = [f"ws://admin:{PASSWORD[:4]}{sep}{PASSWORD[4:]}@127.0.0.1:1/" for sep in "#/?"]


@pytest.mark.parametrize("url", URLS)
def test_settings_set_refuses_it_without_showing_the_password(vora: Callable[..., Run], url: str) -> None:
    for args in ((), ("--json",)):
        run = vora("settings", "set", "gateway.url", url, *args)
        assert run.exit_code == 1
        assert PASSWORD[4:] not in run.stdout + run.stderr and "<redacted>" in run.stdout + run.stderr


@pytest.mark.parametrize("url", URLS)
def test_the_url_flag_and_the_env_are_refused_without_the_password(vora: Callable[..., Run], state_dir: Path,
                                                                   url: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    for run in (vora("gateway", "status", "--url", url), vora("gateway", "status", env={"VORA_GATEWAY_URL": url}),
                vora("doctor", "--live", "--json", "--url", url)):
        assert run.exit_code in (1, 2)
        assert PASSWORD[4:] not in run.stdout + run.stderr


@pytest.mark.parametrize("url", URLS)
def test_a_settings_file_holding_it_fails_every_command_without_the_password(vora: Callable[..., Run], home: Path,
                                                                             state_dir: Path, url: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    path = home / ".config" / "vora" / "settings.toml"
    path.parent.mkdir(parents=True)
    path.write_text(f'[gateway]\nurl = "{url}"\n')
    for args in (("settings", "list"), ("settings", "get", "gateway.url"), ("settings", "list", "--json"),
                 ("doctor",), ("doctor", "--format", "github")):
        run = vora(*args)
        assert PASSWORD[4:] not in run.stdout + run.stderr, args
