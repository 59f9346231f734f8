"""The audit's models, browser-control and exposure rules, on other shapes than the recorded states
(those are held to the gateway's own verdicts in test_security_upstream.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from security_support import GOOD, found, ids

from vora_cli.core.security.model_checks import param_b
from vora_cli.core.security.tool_policy import Policy, allowed, pick_policy, sandbox_policy, tool_policies


def _state(tmp_path: Path, text: str) -> Path:
    state = tmp_path / "state"
    state.mkdir(mode=0o700, parents=True)
    (state / "vora.json").write_text(text)
    (state / "vora.json").chmod(0o600)
    return state


def _token(body: str) -> str:
    return f'{{ gateway: {{ auth: {{ mode: "token", token: "{GOOD}" }} }}, {body} }}\n'


@pytest.mark.parametrize(("model", "b"), [  # the gateway's answers (its inferParamBFromIdOrName)
    ("llama-3.1-8b", 8), ("mixtral-8x7b", None), ("qwen2.5-72b-instruct", 72), ("ollama/phi3-3.8b", 3.8),
    ("deepseek-r1:671b", 671), ("model-e2b", 2), ("Llama-3-70B", 70), ("gpt-5", None), ("a-0b", None),
    ("yi-34b-chat-200k", 34), ("mistral-7b-v0.3", 7), ("400b", 400),
])
def test_parameters_read_from_a_model_id(model: str, b: float | None) -> None:
    assert param_b(model) == b


def test_a_small_model_sandboxed_without_web_tools_is_only_info(tmp_path: Path) -> None:
    state = _state(tmp_path, _token('agents: { defaults: { model: "ollama/gemma-2b-it", sandbox: { mode: "all" } } }, '
                                    'tools: { web: { fetch: { enabled: false } } }, browser: { enabled: false }'))
    (f,) = found(state, "models")
    assert (f.severity, ids([f])) == ("info", {"models.small_params"})
    assert f.detail.startswith("ollama/gemma-2b-it (2B) at agents.defaults.model.primary: ok; sandbox=all; web=[off]")


def test_a_big_model_is_no_small_model_and_image_models_do_not_count(tmp_path: Path) -> None:
    state = _state(tmp_path, _token('agents: { defaults: { model: "deepseek/deepseek-r1-671b", '
                                    'imageModel: { primary: "local/llava-7b" } } }'))
    assert found(state, "models") == []


def test_a_web_search_key_in_the_environment_exposes_web_search(tmp_path: Path) -> None:
    state = _state(tmp_path, _token('agents: { list: [{ id: "main", model: "ollama/llama3.2-3b", '
                                    'tools: { profile: "coding" } }] }'))
    (f,) = found(state, "models", env={"BRAVE_API_KEY": "b"})
    assert f.severity == "critical" and "web=[web_search, web_fetch]" in f.detail  # coding: no browser
    (f,) = found(state, "models")
    assert "web=[web_fetch]" in f.detail


@pytest.mark.parametrize(("body", "env", "flagged"), [
    ('browser: { profiles: {} }', {}, True),
    ('browser: { enabled: false }', {}, False),
    ('tools: { allow: [" BROWSER "] }', {}, True),
    ('plugins: { entries: { browser: {} } }', {}, True),
    ('plugins: { entries: { browser: { enabled: false } } }', {}, False),
    ('plugins: { allow: ["browser", "memory-core"] }', {}, True),
    ('browser: {}', {"VORA_GATEWAY_TOKEN": "t" * 32}, False),
    ('gateway: { auth: { mode: "none", token: "' + "t" * 32 + '" } }, browser: {}', {}, False),
    ('agents: { defaults: { model: "x" } }', {}, False),  # nothing loads the browser plugin
])
def test_browser_control_without_a_credential(tmp_path: Path, body: str, env: dict[str, str], flagged: bool) -> None:
    state = _state(tmp_path, "{ " + body + " }\n")
    assert ids(found(state, "browser-control", env=env)) == ({"browser.control_no_auth"} if flagged else set())


def test_a_remote_cdp_over_http_but_not_a_loopback_one(tmp_path: Path) -> None:
    state = _state(tmp_path, _token('browser: { profiles: { a: { cdpUrl: "http://127.0.0.1:9222" }, '
                                    'b: { cdpUrl: "https://cdp.example.net" }, c: { cdpUrl: "HTTP://box.lan:9222" } } }'))
    (f,) = found(state, "browser-control")
    assert (f.severity, f.key, ids([f])) == ("warn", "browser.profiles.c.cdpUrl", {"browser.remote_cdp_http"})


def test_the_tool_policy_as_the_gateway_reads_it() -> None:
    assert not allowed("exec", Policy(deny=("group:runtime",))) and allowed("read", Policy(deny=("group:runtime",)))
    assert not allowed("apply_patch", Policy(deny=("write",)))  # write covers apply_patch
    assert allowed("apply_patch", Policy(allow=("Write",)))
    assert allowed("sessions_send", Policy(allow=("sessions_*",))) and not allowed("exec", Policy(allow=("sessions_*",)))
    assert not allowed("exec", Policy(allow=("bash",), deny=("exec",))) and allowed("exec", Policy(allow=("bash",)))
    assert pick_policy({"alsoAllow": ["browser"]}) == Policy(allow=("*", "browser"))
    assert pick_policy({"allow": [], "alsoAllow": ["x"]}) == Policy(allow=("*", "x"))
    config = {"tools": {"profile": "messaging", "sandbox": {"tools": {"allow": ["browser"]}}},
              "agents": {"list": [{"id": "ops", "tools": {"profile": "full"}}]}}
    assert not allowed("exec", tool_policies(config, None, "off", None)[0])  # messaging
    assert tool_policies(config, {"profile": "full"}, "off", "ops") == []  # an agent's own profile wins
    sandboxed = sandbox_policy(config, "ops")  # an explicit allow lifts the default deny of that tool
    assert allowed("browser", sandboxed) and not allowed("exec", sandboxed) and "image" in (sandboxed.allow or ())
    assert not allowed("browser", sandbox_policy({}, None)) and allowed("exec", sandbox_policy({}, None))


def test_exposure_follows_the_sandbox_and_the_workspace_only_switch(tmp_path: Path) -> None:
    group = 'channels: { telegram: { botToken: "1:a", groupPolicy: "open" } }, tools: { elevated: { enabled: false }'
    sandboxed = _state(tmp_path / "a", _token(group + ' }, agents: { defaults: { sandbox: { mode: "all" } } }'))
    assert "security.exposure.open_groups_with_runtime_or_fs" not in ids(found(sandboxed, "channel-policies"))
    fenced = _state(tmp_path / "b", _token(group + ', deny: ["exec", "process"], fs: { workspaceOnly: true } }'))
    assert "security.exposure.open_groups_with_runtime_or_fs" not in ids(found(fenced, "channel-policies"))
    agent = _state(tmp_path / "c", _token(group + ', deny: ["exec", "process"], fs: { workspaceOnly: true } }, '
                                          'agents: { list: [{ id: "ops", tools: { fs: { workspaceOnly: false } } }] }'))
    (f,) = [f for f in found(agent, "channel-policies") if "groups are open" in f.title]
    assert "file tools run unsandboxed in agents.list.ops" in f.detail
