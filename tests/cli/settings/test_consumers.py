"""Every setting is checked by what its consumer accepts; a password in gateway.url is never shown (issue 22, class 5).

`gateway.timeout inf`, `lock_timeout inf` (a write would then wait forever), a relative
`state_dir` (resolved against whatever directory vora runs in), an editor with a quote left open
(an `internal` from shlex), a URL without a host: refused by `settings set` with nothing written,
and by every command when the file holds them. The env forms follow the documented rule: a value
its key cannot take is ignored with a warning (VORA_LOCK_TIMEOUT, VORA_GATEWAY_VERSION), or
reported by its consumer (VORA_GATEWAY_URL, $EDITOR).

A password typed into a gateway URL without percent-encoding its `#`, `/` or `?` is never shown.

`ws://admin:pa#ss@host` is no URL a client opens (its authority ends at `#`, so its "port" is
`pa`), and every refusal names the URL: the settings check, `--url`, `VORA_GATEWAY_URL` and a
hand-written settings file (an error on every command). Each showed the password in clear while
the same password without the `#` was redacted (review of issues 22 and 23).
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run
from plugins_support import make_plugin

PASSWORD = "hunter2-pw-XYZ"


@pytest.mark.parametrize(("key", "value", "wants"), [
    ("lock_timeout", "inf", "a finite number"),
    ("lock_timeout", "1e300", "from 0 to 3600"),
    ("gateway.timeout", "inf", "a finite number"),
    ("gateway.timeout", "0", "above 0, at most 600"),
    ("gateway.timeout", "601", "above 0, at most 600"),
    ("state_dir", "relative/dir", "an absolute path or one starting with ~/"),
    ("state_dir", "./here", "an absolute path or one starting with ~/"),
    ("editor", 'code --wait "', "a command line that splits into words"),
    ("pager", "less '", "a command line that splits into words"),
    ("gateway.url", "ws://", "a ws:// or wss:// URL with a host"),
    ("gateway.url", "ws://h:99999", "a ws:// or wss:// URL with a host"),
    ("gateway.url", "https://example.com", "a ws:// or wss:// URL with a host"),
    ("gateway.version", "latest", "a version such as 2026.4.12"),
])
def test_set_refuses_what_the_consumer_cannot_use(vora: Callable[..., Run], home: Path, settings_path: Path, key: str, value: str,
                                                  wants: str) -> None:
    run = vora("settings", "set", key, value, "--json")
    assert run.exit_code == 1
    error = run.json()["error"]
    assert error["code"] == "invalid" and f"'{key}'" in error["message"] and wants in error["message"]
    assert not settings_path.exists()


@pytest.mark.parametrize("line", ["lock_timeout = inf", "lock_timeout = 1e9", "gateway.timeout = inf",
                                  "state_dir = \"srv/vora\"", "editor = \"vi '\"", "state_dir = \"a\\u0000b\""])
def test_a_file_holding_one_fails_every_command_at_once_and_unset_repairs_it(vora: Callable[..., Run], home: Path, settings_path: Path,
                                                                              state_dir: Path, line: str) -> None:
    key = line.split(" ")[0]
    path = settings_path
    path.parent.mkdir(parents=True)
    if key == "gateway.timeout":
        path.write_text(f"[gateway]\n{line.replace('gateway.', '')}\n")
    else:
        path.write_text(line + "\n")
    (state_dir / "vora.json").write_text("{}\n")
    for args in (("config", "set", "gateway.port", "18790"), ("config", "get", "gateway"), ("doctor",)):
        run = vora(*args, "--json")
        assert run.exit_code == 1, args
        assert run.json()["error"]["code"] == "invalid" and str(path) in run.json()["error"]["message"]
    assert (state_dir / "vora.json").read_text() == "{}\n"
    assert vora("settings", "unset", key).exit_code == 0
    assert vora("config", "set", "gateway.port", "18790").exit_code == 0


def test_a_tilde_state_dir_does_not_depend_on_the_current_directory(vora: Callable[..., Run], home: Path,
                                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VORA_STATE_DIR", raising=False)
    assert vora("settings", "set", "state_dir", "~/srv/vora").exit_code == 0
    seen = set()
    for cwd in (tmp_path, home, Path("/")):
        monkeypatch.chdir(cwd)
        seen.add(vora("config", "file").stdout.strip())
    assert seen == {str(home / "srv" / "vora" / "vora.json")}


def test_the_env_and_flag_forms_of_the_state_dir_resolve_against_the_shell_s_directory(
        vora: Callable[..., Run], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Typed in the shell at hand, as the gateway resolves OPENCLAW_STATE_DIR (docs/settings.md)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("VORA_STATE_DIR", "rel")
    assert vora("config", "file").stdout.strip() == str(tmp_path / "rel" / "vora.json")
    assert vora("--state-dir", "flag-rel", "config", "file").stdout.strip() == str(tmp_path / "flag-rel" / "vora.json")


@pytest.mark.parametrize(("env", "value", "key", "fallback"), [
    ("VORA_LOCK_TIMEOUT", "1e9", "lock_timeout", 10.0),
    ("VORA_LOCK_TIMEOUT", "inf", "lock_timeout", 10.0),
    ("VORA_GATEWAY_VERSION", "latest", "gateway.version", None),
])
def test_an_env_value_its_key_cannot_take_is_ignored_and_said(vora: Callable[..., Run], home: Path,
                                                              monkeypatch: pytest.MonkeyPatch, env: str, value: str,
                                                              key: str, fallback: object) -> None:
    monkeypatch.setenv(env, value)
    run = vora("settings", "get", key, "--json")
    assert run.json()["value"] == fallback and run.json()["source"] == "default"
    assert f"(from {env})" in run.stderr and "ignored" in run.stderr


def test_doctor_checks_compat_against_the_gateway_version_setting(vora: Callable[..., Run], home: Path,
                                                                 state_dir: Path, tmp_path: Path) -> None:
    """Install and inspect used the setting, doctor only VORA_GATEWAY_VERSION: one version now."""
    plugin = make_plugin(tmp_path / "engine", "new-engine")
    package = json.loads((plugin / "package.json").read_text())
    package["vora"]["compat"] = {"minGatewayVersion": ">=2027.1.1"}
    (plugin / "package.json").write_text(json.dumps(package))
    (state_dir / "vora.json").write_text(json.dumps({"plugins": {"load": {"paths": [str(plugin)]}}}))

    def manifests() -> str:
        check = vora("doctor", "--only", "plugin-manifests", "--json").json()["checks"][0]
        return " ".join([check["message"], *check["details"], *(loc["message"] or "" for loc in check["locations"])])

    assert "2026.4.12" not in manifests()
    assert vora("settings", "set", "gateway.version", "2026.4.12").exit_code == 0
    assert "2026.4.12" in manifests()


# -- a password inside gateway.url ----------------------------------------------------------------

def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_a_password_in_gateway_url_is_never_shown(vora: Callable[..., Run], home: Path, settings_path: Path, state_dir: Path) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    url = f"ws://ops:{PASSWORD}@127.0.0.1:{_closed_port()}"
    shown = url.replace(PASSWORD, "<redacted>")
    runs = [vora("settings", "set", "gateway.url", url), vora("settings", "set", "gateway.url", url, "--json"),
            vora("settings", "get", "gateway.url"), vora("settings", "get", "gateway.url", "--json"),
            vora("settings", "list"), vora("settings", "list", "--json"),
            vora("gateway", "status"), vora("gateway", "status", "--json"), vora("logs", "--json"),
            vora("doctor", "--live", "--only", "gateway-reachable", "--json")]
    for run in runs:
        assert PASSWORD not in run.stdout + run.stderr
    assert vora("settings", "get", "gateway.url").stdout == shown + "\n"
    assert shown in vora("gateway", "status").stderr
    # the file holds it, and --reveal shows it on request
    assert PASSWORD in settings_path.read_text()
    assert vora("settings", "get", "gateway.url", "--reveal").stdout == url + "\n"
    assert vora("settings", "get", "gateway.url", "--reveal", "--json").json()["value"] == url
    unset = vora("settings", "unset", "gateway.url", "--json")
    assert PASSWORD not in unset.stdout and unset.json()["old"] == shown


def test_a_password_in_a_refused_url_is_not_shown_either(vora: Callable[..., Run], home: Path, settings_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    bad = f"ws://ops:{PASSWORD}@h:99999"
    run = vora("settings", "set", "gateway.url", bad)
    assert run.exit_code == 1 and PASSWORD not in run.stderr and "ws://ops:<redacted>@h:99999" in run.stderr
    path = settings_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'[gateway]\nurl = "{bad}"\n')
    broken = vora("config", "file", "--json")
    assert broken.exit_code == 1 and PASSWORD not in broken.stdout
    monkeypatch.setenv("VORA_GATEWAY_URL", f"ws://ops:{PASSWORD}@127.0.0.1:1")
    path.unlink()
    listed = vora("settings", "list", "--json")
    assert PASSWORD not in listed.stdout
    assert {r["key"]: r for r in listed.json()["settings"]}["gateway.url"]["source"] == "env"


def test_an_editor_with_a_quote_left_open_is_a_usage_error(vora: Callable[..., Run], state_dir: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    monkeypatch.setenv("EDITOR", 'code --wait "')
    run = vora("config", "edit", "--json")
    assert run.exit_code == 2
    assert run.json()["error"]["code"] == "usage" and "$EDITOR" in run.json()["error"]["message"]
    assert os.listdir(state_dir) == ["vora.json"]


URL_PASSWORD = "hunter2-pw"
URLS = [f"ws://admin:{URL_PASSWORD[:4]}{sep}{URL_PASSWORD[4:]}@127.0.0.1:1/" for sep in "#/?"]


@pytest.mark.parametrize("url", URLS)
def test_settings_set_refuses_it_without_showing_the_password(vora: Callable[..., Run], url: str) -> None:
    for args in ((), ("--json",)):
        run = vora("settings", "set", "gateway.url", url, *args)
        assert run.exit_code == 1
        assert URL_PASSWORD[4:] not in run.stdout + run.stderr and "<redacted>" in run.stdout + run.stderr


@pytest.mark.parametrize("url", URLS)
def test_the_url_flag_and_the_env_are_refused_without_the_password(vora: Callable[..., Run], state_dir: Path,
                                                                   url: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    for run in (vora("gateway", "status", "--url", url), vora("gateway", "status", env={"VORA_GATEWAY_URL": url}),
                vora("doctor", "--live", "--json", "--url", url)):
        assert run.exit_code in (1, 2)
        assert URL_PASSWORD[4:] not in run.stdout + run.stderr


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
        assert URL_PASSWORD[4:] not in run.stdout + run.stderr, args
