"""A URL in the config can hold a secret under a key that names none (`gateway.remote.url`, a
webhook list, a plugin's `endpoint`): the password of its user info and the values of its
secret-named query parameters (`?token=`). Every command shows those parts as `<redacted>` unless
`--reveal`, in text and `--json`, and keeps the rest of the URL readable (issue 22; review of the
landed fixes; docs/secrets.md, "URLs")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Run
from plugins_support import make_plugin

from vora_cli.core.secrets import redact_text, redact_urls, scrub, secret_values

PASSWORD = "hunter2pw"
TOKEN = "tok3nabc99"

# (a URL, what is shown of it): one member of the class per row
SHAPES = [
    pytest.param(f"wss://admin:{PASSWORD}@gw.example:443/", "wss://admin:<redacted>@gw.example:443/", id="userinfo"),
    pytest.param(f"wss://gw.example/?token={TOKEN}&x=1", "wss://gw.example/?token=<redacted>&x=1", id="query"),
    pytest.param(f"wss://admin:{PASSWORD}@gw.example:443/?token={TOKEN}",
                 "wss://admin:<redacted>@gw.example:443/?token=<redacted>", id="both"),
    pytest.param(f"https://admin:{PASSWORD}%40x@gw.example/?%74oken={TOKEN}",
                 "https://admin:<redacted>@gw.example/?%74oken=<redacted>", id="percent-encoded"),
    pytest.param(f"ws://admin:{PASSWORD}@[::1]:8080/p?api_key={TOKEN}#top",
                 "ws://admin:<redacted>@[::1]:8080/p?api_key=<redacted>#top", id="ipv6"),
    pytest.param(f"https://blob.example/c?sv=2024&sig={TOKEN}&X-Amz-Signature={PASSWORD}",
                 "https://blob.example/c?sv=2024&sig=<redacted>&X-Amz-Signature=<redacted>", id="signed-url"),
    pytest.param(f"https://app.example/cb#access_token={TOKEN}&state=s1",
                 "https://app.example/cb#access_token=<redacted>&state=s1", id="fragment"),
]

CONFIG = f"""// URLs with secrets under keys that name none
{{
  gateway: {{ mode: "remote", remote: {{ url: "wss://admin:{PASSWORD}@gw.example:443/?token={TOKEN}" }} }},
  hooks: {{ urls: ["https://hooks.example/a?key=arrkey-0001", "https://u:arrpw-0002@hooks.example/b"] }},
  plugins: {{ entries: {{ "my-engine": {{ enabled: true, config: {{ endpoint: "https://p:plugpw-0003@plug.example/" }} }} }} }},
  env: {{ vars: {{ PROXY: "http://me:${{GW_PROXY_PW}}@proxy.example:3128" }} }},
  user: "wss://operator@gw.example/",
}}
"""
ENV_PASSWORD = "envpw-0004"
SECRETS = [PASSWORD, TOKEN, "arrkey-0001", "arrpw-0002", "plugpw-0003", ENV_PASSWORD]


@pytest.fixture
def state(state_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (state_dir / "vora.json").write_text(CONFIG)
    os.chmod(state_dir / "vora.json", 0o600)
    make_plugin(state_dir / "extensions" / "my-engine")
    monkeypatch.setenv("GW_PROXY_PW", ENV_PASSWORD)
    return state_dir


def assert_hidden(run: Run, *extra: str) -> None:
    shown = run.stdout + run.stderr
    for secret in (*SECRETS, *extra):
        assert secret not in shown, (secret, shown)


@pytest.mark.parametrize(("url", "shown"), SHAPES)
def test_every_shape_hides_its_secret_and_keeps_the_rest(url: str, shown: str) -> None:
    assert redact_urls(url) == shown
    assert redact_urls(shown) == shown  # a second pass changes nothing
    # the same URL inside free text, a JSON5 member and a diff line
    assert redact_urls(f"see {url} now") == f"see {shown} now"
    assert redact_text(f'+  url: "{url}",') == f'+  url: "{shown}",'
    assert scrub(f"at '{url}'", []) == f"at '{shown}'"
    hidden = secret_values({"a": {"url": url}, "b": [url]})
    assert hidden and all(part not in shown for part in hidden)


@pytest.mark.parametrize("url", [
    "wss://operator@gw.example/", "https://docs.example/a?page=2&sort=name#intro", "mailto:a@b.example",
    "https://h.example/?keyword=x&monkey=y",
])
def test_a_url_without_a_secret_is_shown_as_typed(url: str) -> None:
    assert redact_urls(url) == url


@pytest.mark.parametrize("path", ["gateway.remote.url", "gateway.remote", "gateway", None])
@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_config_get_hides_url_secrets(state: Path, vora, path: str | None, mode: tuple[str, ...]) -> None:
    run = vora("config", "get", *([path] if path else []), *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)
    assert "wss://admin:<redacted>@gw.example:443/?token=<redacted>" in run.stdout


def test_config_get_json_value_keeps_the_rest_readable(state: Path, vora) -> None:
    assert vora("config", "get", "hooks.urls", "--json").json()["value"] == [
        "https://hooks.example/a?key=<redacted>", "https://u:<redacted>@hooks.example/b"]
    assert vora("config", "get", "hooks.urls[1]", "--json").json()["value"] == "https://u:<redacted>@hooks.example/b"
    assert vora("config", "get", "plugins.entries.my-engine.config.endpoint", "--json").json()["value"] == (
        "https://p:<redacted>@plug.example/")
    assert vora("config", "get", "user", "--json").json()["value"] == "wss://operator@gw.example/"


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_a_resolved_placeholder_in_a_url_is_hidden(state: Path, vora, mode: tuple[str, ...]) -> None:
    run = vora("config", "get", "env.vars.PROXY", *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)
    assert "http://me:<redacted>@proxy.example:3128" in run.stdout


def test_reveal_shows_the_url_as_stored(state: Path, vora) -> None:
    run = vora("config", "get", "gateway.remote.url", "--reveal", "--json")
    assert run.json()["value"] == f"wss://admin:{PASSWORD}@gw.example:443/?token={TOKEN}"


@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
@pytest.mark.parametrize("dry_run", [("--dry-run",), ()], ids=["dry-run", "write"])
def test_config_set_diff_and_summary_hide_url_secrets(state: Path, vora, mode: tuple[str, ...],
                                                      dry_run: tuple[str, ...]) -> None:
    new = f"wss://admin:newpw-0005@gw2.example/?access_token={TOKEN}x"
    run = vora("config", "set", "gateway.remote.url", new, *dry_run, *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run, "newpw-0005")
    assert "wss://admin:<redacted>@gw2.example/?access_token=<redacted>" in run.stdout + run.stderr
    assert (f"access_token={TOKEN}x" in (state / "vora.json").read_text()) is not bool(dry_run)


@pytest.mark.parametrize("args", [
    ("config", "unset", "hooks.urls[0]", "--dry-run"),
    ("config", "set", "hooks.urls[1]", "https://u:arrpw-0002@hooks2.example/b", "--dry-run"),
    ("plugins", "disable", "my-engine", "--dry-run"),
    ("plugins", "inspect", "my-engine"),
])
@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_array_and_plugin_config_changes_hide_url_secrets(state: Path, vora, args: tuple[str, ...],
                                                          mode: tuple[str, ...]) -> None:
    run = vora(*args, *mode)
    assert run.exit_code == 0, run.stderr
    assert_hidden(run)


@pytest.mark.parametrize("typed", [("--type", "integer"), ()], ids=["--type", "schema"])
@pytest.mark.parametrize("mode", [(), ("--json",)], ids=["text", "json"])
def test_a_refused_value_is_quoted_without_its_secret(state: Path, vora, typed: tuple[str, ...],
                                                      mode: tuple[str, ...]) -> None:
    before = (state / "vora.json").read_text()
    run = vora("config", "set", "gateway.port", f"wss://a:{PASSWORD}@h/?token={TOKEN}", *typed, *mode)
    assert run.exit_code in (1, 2)
    assert_hidden(run)
    assert (state / "vora.json").read_text() == before


CHECKED = f"""{{
  gateway: {{ port: "wss://a:{PASSWORD}@h.example/?token={TOKEN}", bind: "http://u:bindpw-0006@lan.example" }},
  agents: {{ defaults: {{ model: "https://m:modelpw-0007@m.example" }} }},
}}
"""


@pytest.mark.parametrize("args", [
    ("doctor",), ("doctor", "--json"), ("doctor", "--format", "github"), ("doctor", "--format", "sarif"),
    ("security", "audit"), ("security", "audit", "--json"), ("security", "audit", "--format", "github"),
    ("config", "validate"), ("config", "validate", "--json"),
])
def test_doctor_security_and_validate_quote_values_without_url_secrets(state_dir: Path, vora,
                                                                       args: tuple[str, ...]) -> None:
    (state_dir / "vora.json").write_text(CHECKED)
    os.chmod(state_dir / "vora.json", 0o600)
    run = vora(*args)
    assert run.exit_code in (0, 1), run.stderr
    assert_hidden(run, "bindpw-0006", "modelpw-0007")
    if args[0] == "security":  # the finding quotes gateway.bind, readable but for its password
        assert "http://u:<redacted>@lan.example" in run.stdout


def test_a_gateway_payload_hides_url_secrets() -> None:
    from vora_cli.core.gateway.shown import Masker

    payload = {"config": {"gateway": {"remote": {"url": f"wss://admin:{PASSWORD}@gw.example/?token={TOKEN}"}}},
               "message": f"dialing https://u:{PASSWORD}@relay.example/?auth={TOKEN} failed"}
    shown = Masker().payload(payload)
    assert shown["config"]["gateway"]["remote"]["url"] == "wss://admin:<redacted>@gw.example/?token=<redacted>"
    assert shown["message"] == "dialing https://u:<redacted>@relay.example/?auth=<redacted> failed"
