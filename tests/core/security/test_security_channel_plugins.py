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

from vora_cli.core.security.channel_plugin_checks import discord_mutable

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
