"""The channel plugins' own audits, per account (core/security/channel_plugin_checks.py).

The gateway's verdicts on these states are recorded (test_security_upstream.py holds vora to
them); the gateway merges identical findings of several accounts into one, so which accounts
vora names is checked here, on the same recorded states.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from security_states import STATE_BY_NAME, UPSTREAM_DATA
from security_support import found

from vora_cli.core.security.channel_checks import default_group_policy
from vora_cli.core.security.channel_plugin_checks import discord_mutable, zalouser_mutable_group

RECORDED = json.loads(UPSTREAM_DATA.read_text(encoding="utf-8"))["states"]


def _by_id(state: Path) -> dict[str, list[tuple[str, str | None]]]:
    out: dict[str, list[tuple[str, str | None]]] = {}
    for f in found(state, "channel-policies"):
        for gateway_id in f.gateway:
            out.setdefault(gateway_id, []).append((f.severity, f.key))
    return out


def test_telegram_group_senders_are_judged_per_account(tmp_path: Path) -> None:
    state = STATE_BY_NAME["telegram-group-senders"].build(tmp_path)
    got = _by_id(state)
    recorded = {check_id: severity for check_id, severity, _t in RECORDED["telegram-group-senders"]["findings"]}
    assert recorded["channels.telegram.groups.allowFrom.missing"] == "critical"
    assert recorded["channels.telegram.groups.allowFrom.wildcard"] == "critical"
    # family lists groups and nobody who may command them; quiet (a group's allowFrom), paired (its
    # pairing store), plain (no groups of its own: several accounts do not inherit the channel's),
    # club (open, but a sender list) and off (disabled) are not findings
    assert got["channels.telegram.groups.allowFrom.missing"] == [
        ("critical", "channels.telegram.accounts.family.groups")]
    assert got["channels.telegram.groups.allowFrom.wildcard"] == [
        ("critical", "channels.telegram.accounts.work.groupAllowFrom")]
    assert got["channels.telegram.allowFrom.invalid_entries"] == [("warn", "channels.telegram.accounts.club.allowFrom")]


def test_telegram_pairing_store_counts_only_for_its_account(tmp_path: Path) -> None:
    state = STATE_BY_NAME["telegram-group-senders"].build(tmp_path)
    os.rename(state / "credentials" / "telegram-paired-allowFrom.json",
              state / "credentials" / "telegram-family-allowFrom.json")
    assert _by_id(state)["channels.telegram.groups.allowFrom.missing"] == [
        ("critical", "channels.telegram.accounts.paired.groups")]


def test_a_single_telegram_account_and_slack_and_discord_accounts(tmp_path: Path) -> None:
    state = STATE_BY_NAME["channel-commands"].build(tmp_path)
    got = _by_id(state)
    assert got["channels.telegram.groups.allowFrom.missing"] == [("critical", "channels.telegram.groups")]
    assert got["channels.telegram.allowFrom.invalid_entries"] == [("warn", "channels.telegram.allowFrom")]
    # ops (slashCommand) and dev (commands.native) run commands; quiet has none on (slack's default)
    assert [s for s, _k in got["channels.slack.commands.slash.useAccessGroups_off"]] == ["critical", "critical"]
    names = [f for f in found(state, "channel-policies") if "channels.discord.allowFrom.name_based_entries" in f.gateway]
    assert [(f.severity, f.key) for f in names] == [("warn", "channels.discord.accounts.main.allowFrom"),
                                                    ("info", "channels.discord.accounts.legacy.allowFrom")]
    main = names[0].detail
    for entry in ("allowFrom:alice#1234", "allowFrom:bob", "guilds.111.users:carol",
                  "guilds.111.channels.general.users:dave#0001"):
        assert entry in main
    assert "<@123456>" not in main and "user:789" not in main and ":222" not in main


@pytest.mark.parametrize("config", [
    # open groups with a sender list; allowlist without groups; commands.text off
    '{ channels: { telegram: { botToken: "1:a", groupPolicy: "open", groupAllowFrom: ["42"] } } }',
    '{ channels: { telegram: { botToken: "1:a", groupPolicy: "allowlist" } } }',
    '{ commands: { text: false }, channels: { telegram: { botToken: "1:a", groups: { "-1": {} } } } }',
    # no bot token: the plugin does not audit an account it cannot run
    '{ channels: { telegram: { groups: { "-1": {} } } } }',
    # a topic's allowFrom is a sender list too
    '{ channels: { telegram: { botToken: "1:a", groups: { "-1": { topics: { "7": { allowFrom: ["5"] } } } } } } }',
])
def test_telegram_group_shapes_the_plugin_does_not_flag(tmp_path: Path, config: str) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o700)
    (state / "vora.json").write_text(config, encoding="utf-8")
    got = _by_id(state)
    assert not {"channels.telegram.groups.allowFrom.missing", "channels.telegram.groups.allowFrom.wildcard"} & set(got)


def test_the_channel_default_group_policy_and_a_legacy_pairing_store(tmp_path: Path) -> None:
    state = tmp_path / "state"
    (state / "credentials").mkdir(parents=True, mode=0o700)
    (state / "vora.json").write_text('{ channels: { defaults: { groupPolicy: "open" }, telegram: { botToken: "1:a" },'
                                     ' slack: { botToken: "xoxb-1", appToken: "xapp-1", commands: { native: true } } } }',
                                     encoding="utf-8")
    got = _by_id(state)
    assert got["channels.telegram.groups.allowFrom.missing"] == [("critical", "channels.telegram")]
    assert got["channels.slack.commands.slash.no_allowlists"] == [("warn", "channels.slack")]
    (state / "credentials" / "telegram-allowFrom.json").write_text('{"version": 1, "allowFrom": ["*", "@me"]}')
    got = _by_id(state)
    assert "channels.telegram.groups.allowFrom.missing" not in got  # the default account reads the legacy store
    assert "channels.telegram.groups.allowFrom.wildcard" not in got  # the gateway drops "*" from a store
    assert got["channels.telegram.allowFrom.invalid_entries"] == [("warn", "channels.telegram")]


@pytest.mark.parametrize(("entry", "mutable"), [
    ("alice", True), ("alice#1234", True), ("123", False), ("<@123>", False), ("<@!123>", False),
    ("user:123", False), ("discord:", True), ("pk:abc", False), ("*", False), ("  ", False),
])
def test_discord_mutable_entries(entry: str, mutable: bool) -> None:
    assert discord_mutable(entry) is mutable


def _keys(state: Path, gateway_id: str, env: dict[str, str] | None = None) -> list[tuple[str, str, str | None]]:
    return [(f.severity, f.title, f.key) for f in found(state, "channel-policies", env=env) if gateway_id in f.gateway]


def test_synology_chat_audits_its_implicit_default_account_next_to_named_ones(tmp_path: Path) -> None:
    state = STATE_BY_NAME["synology-missing"].build(tmp_path)
    warning = "channels.synology-chat.warning.*"
    assert sorted(_keys(state, warning)) == sorted([
        ("warn", "synology-chat has no token (account default)", "channels.synology-chat"),
        ("warn", "synology-chat has no incomingUrl (account default)", "channels.synology-chat"),
        ("critical", "synology-chat lets nobody in (account default)", "channels.synology-chat"),
        ("warn", "synology-chat has no token (account bare)", "channels.synology-chat.accounts.bare"),
        ("warn", "synology-chat has no incomingUrl (account bare)", "channels.synology-chat.accounts.bare"),
        ("warn", "synology-chat has no incomingUrl (account nourl)", "channels.synology-chat.accounts.nourl"),
    ])


def test_synology_chat_reads_what_the_config_leaves_from_the_environment(tmp_path: Path) -> None:
    """SYNOLOGY_CHAT_TOKEN, SYNOLOGY_CHAT_INCOMING_URL and SYNOLOGY_ALLOWED_USER_IDS fill every
    account's missing values (and the token makes `default` a listed account)."""
    state = STATE_BY_NAME["synology-missing"].build(tmp_path)
    env = {"SYNOLOGY_CHAT_TOKEN": "t", "SYNOLOGY_CHAT_INCOMING_URL": "https://nas/x", "SYNOLOGY_ALLOWED_USER_IDS": "7"}
    assert _keys(state, "channels.synology-chat.warning.*", env) == []
    # the token alone: `default` is listed now, and on the default path it shares with nobody
    assert sorted(title for _s, title, _k in _keys(state, "channels.synology-chat.warning.*", {"SYNOLOGY_CHAT_TOKEN": "t"})) \
        == sorted(["synology-chat has no incomingUrl (account default)", "synology-chat lets nobody in (account default)",
            "synology-chat has no incomingUrl (account bare)", "synology-chat has no incomingUrl (account nourl)"])


def test_synology_chat_webhook_paths_clash_per_account(tmp_path: Path) -> None:
    state = STATE_BY_NAME["synology-shared-paths"].build(tmp_path)
    got = sorted((title, key) for _s, title, key in _keys(state, "channels.synology-chat.warning.*"))
    assert got == sorted([
        ("synology-chat accounts share a webhook path (account default)", "channels.synology-chat.webhookPath"),
        ("synology-chat account has no webhook path of its own (account inherit)", "channels.synology-chat.webhookPath"),
        ("synology-chat accounts share a webhook path (account inherit)", "channels.synology-chat.webhookPath"),
        ("synology-chat accounts share a webhook path (account left)", "channels.synology-chat.accounts.left.webhookPath"),
        ("synology-chat account shares the channel's webhook path (account optin)",
         "channels.synology-chat.accounts.optin.dangerouslyAllowInheritedWebhookPath"),
        ("synology-chat accounts share a webhook path (account optin)", "channels.synology-chat.webhookPath"),
        ("synology-chat accounts share a webhook path (account twin)", "channels.synology-chat.accounts.twin.webhookPath"),
    ])  # right's path differs by a space, off is disabled: neither clashes


def test_zalouser_audits_an_account_only_with_its_saved_session(tmp_path: Path) -> None:
    state = STATE_BY_NAME["zalouser-session"].build(tmp_path)
    mutable = "channels.zalouser.groups.mutable_entries"
    ((severity, title, key),) = _keys(state, mutable)
    assert (severity, title, key) == ("warn", "zalouser groups named by name", "channels.zalouser.groups")
    (detail,) = [f.detail for f in found(state, "channel-policies") if mutable in f.gateway]
    assert detail.endswith("channels.zalouser.groups:Family Chat, channels.zalouser.groups:group:Team Alpha")
    session = state / "credentials" / "zalouser" / "credentials.json"
    # a profile from the environment names its own file (lower case, URI-encoded)
    env = {"ZALOUSER_PROFILE": " Work Phone "}
    assert _keys(state, mutable, env) == []
    os.rename(session, session.with_name("credentials-work%20phone.json"))
    assert len(_keys(state, mutable, env)) == 1
    # a file that is not a session (no user agent), or not JSON, is no session
    for text in ('{"imei": "i", "cookie": "c"}', "not json"):
        session.with_name("credentials-work%20phone.json").write_text(text)
        assert _keys(state, mutable, env) == []


@pytest.mark.parametrize(("entry", "mutable"), [
    ("Family Chat", True), ("group:Team", True), ("zlu:Friends", True), ("123", False), ("group:123", False),
    ("zalouser:group:456", False), ("g-AbC", False), ("G-x", False), ("g-", True), ("*", False), ("  ", False),
    ("zlu:", False),
])
def test_zalouser_mutable_group(entry: str, mutable: bool) -> None:
    assert zalouser_mutable_group(entry) is mutable


@pytest.mark.parametrize(("channel", "account", "default"), [
    ("telegram", False, "allowlist"), ("telegram", True, "allowlist"), ("zalouser", True, "allowlist"),
    ("whatsapp", False, "allowlist"), ("slack", False, "allowlist"), ("slack", True, None), ("feishu", True, None),
    ("synology-chat", False, None), ("defaults", False, None), ("no-such-channel", False, None),
])
def test_the_group_policy_a_channel_schema_defaults(channel: str, account: bool, default: str | None) -> None:
    assert default_group_policy(channel, account) == default


def _zalo_keys(state: Path) -> list[tuple[str, str | None]]:
    return sorted(_by_id(state).get("channels.zalo.warning.*", []), key=lambda pair: pair[1] or "")


def test_zalo_groups_are_open_where_no_group_policy_is_written(tmp_path: Path) -> None:
    """The zalo plugin reads an account's unset groupPolicy as "open" (not the channel's: the
    gateway moves a multi-account channel's own values to `accounts.default`): one critical per
    account with a token, as many as the gateway's `channels.zalo.warning.<n>`."""
    recorded = [f for f in RECORDED["zalo-accounts"]["findings"] if f[0].startswith("channels.zalo.warning.")]
    assert [severity for _c, severity, _t in recorded] == ["critical", "critical"]
    keys = _zalo_keys(STATE_BY_NAME["zalo-accounts"].build(tmp_path / "accounts"))
    # a1 written open (the open-groups finding), a2 unset; a3 has no token, a4 is turned off, yet
    # both are written "open", which the open-groups finding names as the gateway's own audit does
    assert keys == [("critical", "channels.zalo.accounts.a1.groupPolicy"), ("critical", "channels.zalo.accounts.a2"),
                    ("critical", "channels.zalo.accounts.a3.groupPolicy"),
                    ("critical", "channels.zalo.accounts.a4.groupPolicy")]
    assert _zalo_keys(STATE_BY_NAME["zalo-open-default"].build(tmp_path / "default")) == [("critical", "channels.zalo")]
    assert _zalo_keys(STATE_BY_NAME["zalo-allowlist"].build(tmp_path / "allowlist")) == []
    assert [f[0] for f in RECORDED["zalo-allowlist"]["findings"] if "zalo" in f[0]] == []


def test_a_channel_plugins_schema_default_opens_its_groups_and_allowlist_does_not(tmp_path: Path) -> None:
    """An installed channel plugin's schema default is in what the gateway audits: `groupPolicy`
    defaulted to "open" is an open group, written or not, plugin enabled or not."""
    for name in ("channel-plugin-open-default", "channel-plugin-open-default-bare", "channel-plugin-disabled"):
        got = _by_id(STATE_BY_NAME[name].build(tmp_path / name))
        assert got["security.exposure.open_groups_with_elevated"] == [("critical", "channels.mychan.groupPolicy")], name
    quiet = _by_id(STATE_BY_NAME["channel-plugin-allowlist-default"].build(tmp_path / "allowlist"))
    assert "security.exposure.open_groups_with_elevated" not in quiet
    assert "security.trust_model.multi_user_heuristic" in quiet  # allowlist beside group targets
    recorded = {c for c, _s, _t in RECORDED["channel-plugin-allowlist-default"]["findings"]}
    assert not any(c.startswith("security.exposure.open_groups") for c in recorded)
    two = _by_id(STATE_BY_NAME["channel-plugin-two-channels"].build(tmp_path / "two"))
    assert two["security.exposure.open_groups_with_runtime_or_fs"] == [("critical", "channels.alpha.accounts.a1.groupPolicy")]
    # a default nobody wrote is pointed at the section where it would be written
    bare = found(STATE_BY_NAME["channel-plugin-open-default-bare"].build(tmp_path / "bare"), "channel-policies")
    assert all(f.line is not None for f in bare if "security.exposure.open_groups_with_elevated" in f.gateway)


@pytest.mark.parametrize("name", ["synology-accounts-array", "synology-accounts-string"])
def test_accounts_written_as_an_array_or_a_string_are_its_indexes(name: str, tmp_path: Path) -> None:
    """The gateway lists `Object.keys(accounts)`: account "0" (and "1") of an array or a string,
    each audited as an account with nothing of its own; an array's item is named where it stands."""
    state = STATE_BY_NAME[name].build(tmp_path)
    opened = [(f.key, f.line is not None) for f in found(state, "channel-policies")
              if "channels.synology-chat.dm.open" in f.gateway]
    recorded = [check_id for check_id, _s, _t in RECORDED[name]["findings"]].count("channels.synology-chat.dm.open")
    assert len(opened) == recorded
    if name.endswith("array"):
        assert opened == [("channels.synology-chat.accounts[0].dmPolicy", True)]
    else:
        assert {key for key, _ in opened} == {"channels.synology-chat.dmPolicy"}
