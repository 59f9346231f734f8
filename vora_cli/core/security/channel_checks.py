"""Channels and tools where the config opens them, by the gateway's rules (docs/security.md, "Channels and
tools"); the channel plugins' own findings are `channel_plugin_checks.py`'s.
"""

from __future__ import annotations

from collections.abc import Iterator

from vora_cli.core.doctor.model import INFO, WARN, CheckResult, Install
from vora_cli.core.security.channel_plugin_checks import (
    PER_ACCOUNT_DM_CHANNELS,
    channel_plugin_findings,
    listed_accounts,
)
from vora_cli.core.security.exec_approvals import approvals_findings
from vora_cli.core.security.host_checks import safe_bin_findings
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.shell import command_line
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

LARGE_ALLOW_LIST = 25  # the gateway's `tools.elevated.allowFrom.<provider>.large`
# The bundled channel plugins whose audit says DMs are off (`channels.<id>.dm.disabled`, its
# `resolveDmPolicy`; recorded on the `channels-dm-disabled` states), and where each writes its DM
# policy. discord's and slack's read `dm.policy`, which the gateway's migration has moved away before
# the audit reads it; msteams has no such resolver; synology-chat's is judged per account elsewhere.
DM_POLICY_KEYS: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("bluebubbles", "imessage", "irc", "line", "mattermost", "nextcloud-talk", "nostr", "signal",
                     "telegram", "whatsapp", "zalo", "zalouser"), ("dmPolicy",)),
    "googlechat": ("dm", "policy"), "matrix": ("dm", "policy")}
RESTRICTIVE_PROFILES = ("minimal", "coding", "messaging")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def sections(config: dict[str, Any]) -> Iterator[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """(channel id, config path, section) for each channel and each of its accounts."""
    for channel, value in as_dict(config.get("channels")).items():
        section = as_dict(value)
        if not section:
            continue
        yield channel, ("channels", channel), section
        for account, account_value in listed_accounts(section.get("accounts")).items():
            if isinstance(account_value, dict):
                yield channel, ("channels", channel, "accounts", account), account_value


def open_paths(config: dict[str, Any]) -> list[str]:
    """`channels.x.dmPolicy` / `.groupPolicy` set to "open" (the gateway's open exec surface)."""
    found = []
    for _channel, path, section in sections(config):
        for key in ("dmPolicy", "groupPolicy"):
            if section.get(key) == "open":
                found.append(".".join((*path, key)))
    return sorted(found)


def _sandbox_mode(config: dict[str, Any]) -> str:
    mode = as_dict(as_dict(as_dict(config.get("agents")).get("defaults")).get("sandbox")).get("mode")
    return mode if isinstance(mode, str) else "off"


def risky_contexts(config: dict[str, Any]) -> tuple[list[str], bool]:
    """The agents (the defaults, each listed agent) that can run commands or touch files outside a
    sandbox, described, and whether any can run commands: the gateway's
    `collectRiskyToolExposureContexts`, on its tool policy (core/security/tool_policy.py)."""
    from vora_cli.core.security.tool_policy import allowed_by_all, sandbox_mode, tool_policies

    contexts: list[tuple[str, str | None, Any]] = [("agents.defaults", None, None)]
    for agent in _list(as_dict(config.get("agents")).get("list")):
        if isinstance(agent, dict) and isinstance(agent.get("id"), str):
            contexts.append((f"agents.list.{agent['id']}", agent["id"], agent.get("tools")))
    risky: list[str] = []
    runtime_risk = False
    for label, agent_id, tools in contexts:
        mode = sandbox_mode(config, agent_id)
        policies = tool_policies(config, tools, mode, agent_id)
        runtime = [t for t in ("exec", "process") if allowed_by_all(t, policies)]
        fs = [t for t in ("read", "write", "edit", "apply_patch") if allowed_by_all(t, policies)]
        own_fs = as_dict(as_dict(tools).get("fs")).get("workspaceOnly")
        workspace_only = own_fs if own_fs is not None else as_dict(as_dict(config.get("tools")).get("fs")).get("workspaceOnly")
        runtime_unguarded = bool(runtime) and mode != "all"
        fs_unguarded = bool(fs) and mode != "all" and workspace_only is not True
        if not runtime_unguarded and not fs_unguarded:
            continue
        runtime_risk = runtime_risk or runtime_unguarded
        risky.append(f"{label} (sandbox={mode}; runtime=[{', '.join(runtime) or 'off'}]; fs=[{', '.join(fs) or 'off'}]; "
                     f"fs.workspaceOnly={'true' if workspace_only is True else 'false'})")
    return risky, runtime_risk


def _wildcard(values: Any) -> bool:
    """An allow list holding `*` (the gateway's `isWildcardEntry`: numbers and booleans as text)."""
    from vora_cli.core.config.migrations.base import js_string

    return any(not isinstance(v, dict | list) and v is not None and js_trim(js_string(v)) == "*" for v in _list(values))


def audited_channels(install: Install) -> tuple[dict[str, Any], frozenset[str]]:
    """The config as the gateway's audit reads it, and the channels whose schema an installed
    plugin declares. The gateway audits a config its validator filled with schema defaults (a
    plugin's default `groupPolicy: "open"` opens its groups): those channels are filled here
    (`schema_defaults.with_defaults`); a bundled channel's are read in `default_group_policy`."""
    config = install.runtime
    channels = config.get("channels")
    if not isinstance(channels, dict) or not channels:
        return config, frozenset()
    declared = {channel: schema for channel, schema in install.plugins.channel_schemas().items()
                if isinstance(channels.get(channel), dict)}
    if not declared:
        return config, frozenset()
    from vora_cli.core.config.schema_defaults import with_defaults

    filled = {**channels, **{channel: with_defaults(schema, channels[channel]) for channel, schema in declared.items()}}
    return {**config, "channels": filled}, frozenset(declared)


def default_group_policy(channel: str, account: bool) -> Any:
    """The `groupPolicy` a bundled channel's schema gives a section (the channel's, or an
    account's) that does not write one: the gateway validates the config before its audit reads it,
    so the default is in what it reads (`channels.defaults.groupPolicy` is not)."""
    from vora_cli.core.config.gateway import bundled_channel_schemas

    node = as_dict(bundled_channel_schemas().get(channel))
    if account:
        node = as_dict(as_dict(as_dict(node.get("properties")).get("accounts")).get("additionalProperties"))
    return as_dict(as_dict(node.get("properties")).get("groupPolicy")).get("default")


def _group_targets(section: dict[str, Any]) -> bool:
    return any(isinstance(section.get(k), dict) and section[k] for k in ("groups", "guilds", "channels", "rooms"))


def multi_user_signals(config: dict[str, Any], declared: frozenset[str] = frozenset()) -> list[str]:
    """Why several people may reach this gateway: the gateway's `listPotentialMultiUserSignals`.
    `declared`: channels whose plugin's schema defaults are already in `config` (`audited_channels`)."""
    out: dict[str, None] = {}
    for channel, path, section in sections(config):
        key = ".".join(path)
        group = section.get("groupPolicy")
        # a bundled schema's default matters only beside targets (none defaults to "open")
        if group is None and channel not in declared and _group_targets(section):
            group = default_group_policy(channel, len(path) > 2)
        if group == "open":
            out[f'{key}.groupPolicy="open"'] = None
        elif group == "allowlist" and _group_targets(section):
            out[f'{key}.groupPolicy="allowlist" with configured group targets'] = None
        if section.get("dmPolicy") == "open":
            out[f'{key}.dmPolicy="open"'] = None
        if _wildcard(section.get("allowFrom")):
            out[f'{key}.allowFrom includes "*"'] = None
        if _wildcard(section.get("groupAllowFrom")):
            out[f'{key}.groupAllowFrom includes "*"'] = None
        dm = section.get("dm")
        if isinstance(dm, dict):
            if dm.get("policy") == "open":
                out[f'{key}.dm.policy="open"'] = None
            if _wildcard(dm.get("allowFrom")):
                out[f'{key}.dm.allowFrom includes "*"'] = None
    return list(out)


def _dm_findings(install: Install, channel: str, path: tuple[str, ...], section: dict[str, Any],
                 dm_scope: str, off: bool = False) -> list[Finding]:
    """A written section's DM policy: open to everyone, several senders in one session, or turned
    off (not said of a section that is itself turned off: the gateway audits enabled accounts)."""
    key = ".".join(path)
    allow = [str(v).strip() for v in _list(section.get("allowFrom")) if str(v).strip()]
    dm_policy = section.get("dmPolicy")
    found: list[Finding] = []
    if dm_policy == "open":
        found.append(finding(CRITICAL, f"{channel} DMs are open to everyone",
                             f'{key}.dmPolicy is "open": anyone who finds the bot can talk to the agent',
                             command_line("vora", "config", "set", f"{key}.dmPolicy", "pairing") + " (or allowlist)", **at(install, *path, "dmPolicy"),
                             gateway=(f"channels.{channel}.dm.open",)))
        if "*" not in allow:
            found.append(finding(WARN, f"{channel} open DMs without a wildcard allowFrom",
                                 f'"open" needs {key}.allowFrom to include "*" to mean it',
                                 None, **at(install, *path, "dmPolicy"), gateway=(f"channels.{channel}.dm.open_invalid",)))
    policy_key = DM_POLICY_KEYS.get(channel, ())
    written_policy: Any = section
    for part in policy_key:
        written_policy = as_dict(written_policy).get(part)
    if policy_key and written_policy == "disabled" and not off:
        written = ".".join(policy_key)
        found.append(finding(INFO, f"{channel} DMs are off", f'{key}.{written} is "disabled": direct messages are '
                             "ignored", None, **at(install, *path, *policy_key),
                             gateway=(f"channels.{channel}.dm.disabled",)))
    multi = dm_policy == "open" or "*" in allow or len(allow) > 1
    if dm_policy != "disabled" and multi and dm_scope == "main":
        found.append(finding(WARN, f"{channel} DM senders share one session",
                             "several people's DMs land in the main session: one sender sees what another said",
                             'vora config set session.dmScope per-channel-peer', **at(install, *path),
                             gateway=(f"channels.{channel}.dm.scope_main_multiuser",)))
    return found


def check_channel_policies(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("channel-policies")
    config, declared = audited_channels(install)
    elevated = as_dict(as_dict(config.get("tools")).get("elevated")).get("enabled") is not False
    dm_scope = as_dict(config.get("session")).get("dmScope") or "main"
    found: list[Finding] = []
    risky, runtime_risk = risky_contexts(config)
    for channel, path, section in sections(config):
        key = ".".join(path)
        if channel not in PER_ACCOUNT_DM_CHANNELS:  # those are judged per account (channel_plugin_checks.py)
            off = section.get("enabled") is False or as_dict(as_dict(config.get("channels")).get(channel)).get(
                "enabled") is False
            found += _dm_findings(install, channel, path, section, dm_scope, off)
        if section.get("groupPolicy") == "open":
            gateway = [f"channels.{channel}.warning.*"]
            reasons = []
            if elevated:
                gateway.append("security.exposure.open_groups_with_elevated")
                reasons.append("elevated tools are on")
            if risky:
                gateway.append("security.exposure.open_groups_with_runtime_or_fs")
                reasons.append(("commands" if runtime_risk else "file tools") + " run unsandboxed in "
                               + ", ".join(r.split(" (")[0] for r in risky))
            why = f" and {' and '.join(reasons)}" if reasons else ""
            written: Any = install.runtime
            for part in path:
                written = as_dict(written).get(part)
            unwritten = "groupPolicy" not in as_dict(written)
            if unwritten:
                why = f" (not written: the default of the schema its plugin declares){why}"
            where = at(install, *path, "groupPolicy")
            if unwritten:  # the line and column of where it goes: its section
                section_at = at(install, *path)
                where = {**where, "line": section_at["line"], "col": section_at["col"]}
            found.append(finding(CRITICAL, f"{channel} groups are open to everyone",
                                 f'{key}.groupPolicy is "open"{why}: a prompt injection in any group becomes an action',
                                 command_line("vora", "config", "set", f"{key}.groupPolicy", "allowlist") + ", and list the groups",
                                 **where, gateway=tuple(gateway)))
    found += _discord_commands(install, config)
    found += channel_plugin_findings(install)
    signals = multi_user_signals(config, declared)
    if signals:
        impact = f"; unguarded tools in: {'; '.join(risky)}" if risky else ""
        found.append(finding(WARN, "several people can reach this gateway",
                             f"{', '.join(signals)}: the gateway's model is one trusted operator, not mutually "
                             f"untrusted users{impact}", "split untrusted users onto their own gateway, "
                             'or sandbox everything (agents.defaults.sandbox.mode "all") and deny runtime and fs tools',
                             **at(install, "channels"), gateway=("security.trust_model.multi_user_heuristic",)))
    return check_result("channel-policies", found, "no channel is open to everyone")


def _discord_accounts(config: dict[str, Any]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Each discord account as the gateway's discord plugin reads it: the channel's own values
    under the account's (one account, `default`, when none are listed)."""
    discord = as_dict(as_dict(config.get("channels")).get("discord"))
    if not discord:
        return
    base = {k: v for k, v in discord.items() if k != "accounts"}
    accounts = listed_accounts(discord.get("accounts"))
    if not accounts:
        yield ("channels", "discord"), base
    for account_id, account in accounts.items():
        if isinstance(account, dict):
            yield ("channels", "discord", "accounts", account_id), {**base, **account}


def _discord_commands(install: Install, config: dict[str, Any]) -> list[Finding]:
    """The discord plugin's slash-command audit (openclaw 2026.4.12): with guilds configured and
    nobody listed who may run commands, no one can (warn), or with `commands.useAccessGroups: false`
    everyone in those guilds can (critical). Native commands are on unless turned off."""
    commands = as_dict(config.get("commands"))
    out: list[Finding] = []
    for path, section in _discord_accounts(config):
        own = as_dict(section.get("commands"))
        enabled = [own.get(k) if own.get(k) in (True, False, "auto") else commands.get(k) for k in ("native", "nativeSkills")]
        if all(setting is False for setting in enabled):
            continue
        policy = section.get("groupPolicy") or as_dict(as_dict(config.get("channels")).get("defaults")).get("groupPolicy") \
            or "allowlist"
        guilds = as_dict(section.get("guilds"))
        users = any(_list(as_dict(g).get("users")) or any(_list(as_dict(c).get("users"))
                                                           for c in as_dict(as_dict(g).get("channels")).values())
                    for g in guilds.values())
        owners = [str(v).strip() for v in _list(as_dict(section.get("dm")).get("allowFrom")) if str(v).strip()]
        if policy == "disabled" or not guilds or users:
            continue
        key = ".".join(path)
        if commands.get("useAccessGroups") is False:
            out.append(finding(CRITICAL, "anyone in the discord guilds can run slash commands",
                               "commands.useAccessGroups is false and no guild or channel lists its users",
                               "vora config set commands.useAccessGroups true, or list users per guild",
                               **at(install, *path, "guilds"), gateway=("channels.discord.commands.native.unrestricted",)))
        elif not owners:
            out.append(finding(WARN, "nobody may run the discord slash commands",
                               f"{key} has guilds but no owner allowFrom list and no guild or channel users: every "
                               "slash command is refused", f"add your user id to {key}.allowFrom (or pair), or list "
                               "users per guild", **at(install, *path, "guilds"),
                               gateway=("channels.discord.commands.native.no_allowlists",)))
    return out


def check_elevated_tools(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("elevated-tools")
    elevated = as_dict(as_dict(install.runtime.get("tools")).get("elevated"))
    found: list[Finding] = []
    if elevated.get("enabled") is not False:
        for provider, entries in as_dict(elevated.get("allowFrom")).items():
            names = [str(v).strip() for v in _list(entries) if str(v).strip()]
            where = at(install, "tools", "elevated", "allowFrom", provider)
            if "*" in names:
                found.append(finding(CRITICAL, "everyone may use elevated tools",
                                     f'tools.elevated.allowFrom.{provider} includes "*": every {provider} user gets '
                                     "elevated mode", "list the people instead", **where,
                                     gateway=(f"tools.elevated.allowFrom.{provider}.wildcard",)))
            elif len(names) > LARGE_ALLOW_LIST:
                found.append(finding(WARN, "a long elevated-tools allow list",
                                     f"tools.elevated.allowFrom.{provider} has {len(names)} entries", "tighten it",
                                     **where, gateway=(f"tools.elevated.allowFrom.{provider}.large",)))
    return check_result("elevated-tools", found, "elevated tools are off or tightly allowed")


def check_exec_tools(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("exec-tools")
    config = audited_channels(install)[0]
    exec_ = as_dict(as_dict(config.get("tools")).get("exec"))
    agents = [a for a in _list(as_dict(config.get("agents")).get("list")) if isinstance(a, dict) and isinstance(a.get("id"), str)]
    scopes = {"main": (exec_.get("security") or "deny", exec_.get("host") or "auto")}
    for agent in agents:
        agent_exec = as_dict(as_dict(agent.get("tools")).get("exec"))
        scopes[agent["id"]] = (agent_exec.get("security") or exec_.get("security") or "deny",
                               agent_exec.get("host") or exec_.get("host") or "auto")
    full = [a for a, (security, _host) in scopes.items() if security == "full"]
    enabled = [a for a, (security, _host) in scopes.items() if security != "deny"]
    opened = open_paths(config)
    found: list[Finding] = []
    if full:
        found.append(finding(CRITICAL if opened else WARN, "exec runs with full trust",
                             f'tools.exec.security is "full" for {", ".join(full)}: commands run without an allow '
                             "list or a prompt" + (f"; open channels reach it ({', '.join(opened)})" if opened else ""),
                             'vora config set tools.exec.security allowlist', **at(install, "tools", "exec", "security"),
                             gateway=("tools.exec.security_full_configured",)))
    if opened and enabled:
        found.append(finding(CRITICAL if full else WARN, "open channels reach agents that can run commands",
                             f"open at {', '.join(opened)}; exec is on for {', '.join(enabled)}",
                             "tighten the channel policies to pairing or allowlist, or turn exec off for those agents",
                             **at(install, "tools", "exec"), gateway=("security.exposure.open_channels_with_exec",)))
    if exec_.get("host") == "sandbox" and _sandbox_mode(config) == "off":
        found.append(finding(WARN, "exec is meant for a sandbox that is off",
                             'tools.exec.host is "sandbox" and agents.defaults.sandbox.mode is off: exec fails, or '
                             "runs on the host once someone changes the host", 'vora config set '
                             "agents.defaults.sandbox.mode all", **at(install, "tools", "exec", "host"),
                             gateway=("tools.exec.host_sandbox_no_sandbox_defaults",)))
    risky = [a["id"] for a in agents if as_dict(as_dict(a.get("tools")).get("exec")).get("host") == "sandbox"
             and (as_dict(a.get("sandbox")).get("mode") or _sandbox_mode(config)) == "off"]
    if risky:
        found.append(finding(WARN, "an agent's exec is meant for a sandbox that is off",
                             f"agents {', '.join(risky[:5])} set tools.exec.host sandbox with sandbox mode off",
                             "turn their sandbox on, or use host gateway with approvals", **at(install, "agents", "list"),
                             gateway=("tools.exec.host_sandbox_no_sandbox_agents",)))
    found += safe_bin_findings(install) + approvals_findings(install)
    return check_result("exec-tools", found, "exec is off, or guarded")


def check_attack_surface(install: Install) -> CheckResult:
    """One info line of what is switched on (the gateway's `summary.attack_surface`)."""
    if install.config is None:
        return skipped("attack-surface")
    config = audited_channels(install)[0]
    policies = [as_dict(v).get("groupPolicy") for v in as_dict(config.get("channels")).values()]
    hooks = as_dict(config.get("hooks"))
    on = {True: "on", False: "off"}
    detail = (f"groups open: {policies.count('open')}, allowlist: {policies.count('allowlist')}; "
              f"elevated tools {on[as_dict(as_dict(config.get('tools')).get('elevated')).get('enabled') is not False]}; "
              f"webhooks {on[hooks.get('enabled') is True]}; internal hooks "
              f"{on[as_dict(hooks.get('internal')).get('enabled') is not False]}; "
              f"browser control {on[as_dict(config.get('browser')).get('enabled') is not False]}")
    return check_result("attack-surface", [finding(INFO, "what is switched on", detail, None,
                                                   file=install.paths.config_path,
                                                   gateway=("summary.attack_surface",))], "")
