"""The channel plugins' own audits, per account, as the gateway runs them (openclaw 2026.4.12,
`extensions/<channel>/src/security-audit.ts` and `src/security/audit-channel.ts`).

The gateway asks each channel plugin about each account it lists (the `accounts` keys, or one
`default` account when there are none) that is enabled and has its credential, on the account's
config merged over the channel's. A plugin also reads the account's pairing store
(`credentials/<channel>-<account>-allowFrom.json`, and for `default` the channel's own
`<channel>-allowFrom.json`): senders approved there count as an allow list.

Why one module: each channel's audit is a few rules over the same merged account view, read once here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from vora_cli.core import nesting
from vora_cli.core.doctor.model import INFO, WARN, Install
from vora_cli.core.records import dataclass
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, finding
from vora_cli.core.shell import command_line
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_STORE_MAX = 1 << 20  # a pairing store is a short list of ids; more is not one the gateway wrote
_TELEGRAM_PREFIX = re.compile(r"^(telegram|tg):", re.IGNORECASE)
_DIGITS = re.compile(r"^\d+$")
_UNSAFE_KEY = re.compile(r'[\\/:*?"<>|]')


@dataclass(frozen=True)
class Account:
    """One account of a channel as its plugin audits it."""

    id: str
    path: tuple[str, ...]  # where the account's own keys are written (the channel's, for the implicit default)
    own: dict[str, Any]  # the keys written at `path`
    config: dict[str, Any]  # the channel's keys under the account's: what the plugin reads
    named: bool  # several accounts, or one written under `accounts`: the gateway names it


def _js_text(value: Any) -> str:
    """`String(value)` of a scalar, as the plugins read allow-list entries."""
    from vora_cli.core.config.migrations.base import js_string

    return js_string(value) if not isinstance(value, dict | list) and value is not None else ""


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _has_text(value: Any) -> bool:
    return isinstance(value, str) and bool(js_trim(value))


def _configured(channel: str, config: dict[str, Any], account_id: str, env: dict[str, str]) -> bool:
    """The account has the credential its plugin needs (a SecretRef or `${VAR}` counts as set)."""
    def present(key: str) -> bool:
        value = config.get(key)
        return _has_text(value) or isinstance(value, dict)

    if channel == "telegram":
        return present("botToken") or present("tokenFile") or (
            account_id == "default" and bool(js_trim(env.get("TELEGRAM_BOT_TOKEN", ""))))
    if channel == "slack":
        if not present("botToken") and not (account_id == "default" and env.get("SLACK_BOT_TOKEN", "").strip()):
            return False
        if config.get("mode") == "http":
            return present("signingSecret")
        return present("appToken") or (account_id == "default" and bool(env.get("SLACK_APP_TOKEN", "").strip()))
    if channel == "discord":
        return present("token") or (account_id == "default" and bool(env.get("DISCORD_BOT_TOKEN", "").strip()))
    if channel == "mattermost":
        default = account_id == "default"
        return (present("botToken") or (default and bool(env.get("MATTERMOST_BOT_TOKEN", "").strip()))) and (
            _has_text(config.get("baseUrl")) or (default and bool(env.get("MATTERMOST_URL", "").strip())))
    return True


def accounts(install: Install, channel: str) -> Iterator[Account]:
    """The enabled, configured accounts of `channel`, each with its merged config. Telegram does
    not hand the channel's `groups` to an account when there are several accounts."""
    section = as_dict(as_dict(install.runtime.get("channels")).get(channel))
    if not section or section.get("enabled") is False:
        return
    listed = {k: v for k, v in as_dict(section.get("accounts")).items() if k}
    base = {k: v for k, v in section.items() if k not in ("accounts", "defaultAccount")}
    if channel == "telegram":
        base.pop("groups", None)
    ids = list(listed) or ["default"]
    for account_id in ids:
        own = as_dict(listed.get(account_id))
        merged = {**base, **own}
        if channel == "telegram":
            groups = own.get("groups", None if len(listed) > 1 else section.get("groups"))
            merged["groups"] = groups
        if merged.get("enabled") is False or not _configured(channel, merged, account_id, dict(install.env)):
            continue
        path = ("channels", channel, "accounts", account_id) if account_id in listed else ("channels", channel)
        yield Account(account_id, path, own if account_id in listed else section, merged,
                      len(ids) > 1 or account_id in listed)


def where(install: Install, account: Account, *key: str) -> dict[str, Any]:
    """The finding's place: the key where the account writes it, else where the channel does."""
    if key and key[0] in account.own:
        return at(install, *account.path, *key)
    if key and key[0] in as_dict(as_dict(install.runtime.get("channels")).get(account.path[1])):
        return at(install, "channels", account.path[1], *key)
    return at(install, *account.path)


def store_allow_from(install: Install, channel: str, account_id: str) -> list[str]:
    """The senders approved in the account's pairing store (the gateway drops `*` there)."""
    def key(text: str) -> str:
        return _UNSAFE_KEY.sub("_", text.lower()).replace("..", "_")

    folder = install.paths.state_dir / "credentials"
    names = [f"{key(channel)}-{key(account_id)}-allowFrom.json"]
    if account_id.lower() == "default":
        names.append(f"{key(channel)}-allowFrom.json")
    out: dict[str, None] = {}
    for name in names:
        try:
            with open(folder / name, "rb") as f:
                doc = nesting.loads(f.read(_STORE_MAX))
        except (OSError, ValueError):
            continue
        for entry in _list(as_dict(doc).get("allowFrom")):
            text = js_trim(entry) if isinstance(entry, str) else ""
            if text and text != "*":
                out[text] = None
    return list(out)


def _native(section: dict[str, Any], config: dict[str, Any], kind: str, auto: bool) -> bool:
    """`resolveNativeCommandsEnabled`/`resolveNativeSkillsEnabled`: the account's own setting
    (true, false or "auto"), else the global one, else the plugin's default."""
    own = as_dict(section.get("commands")).get(kind)
    setting = own if own in (True, False, "auto") else as_dict(config.get("commands")).get(kind)
    return setting if isinstance(setting, bool) else auto


def _name_matching(install: Install) -> list[Finding]:
    """`dangerouslyAllowNameMatching: true` on an audited account (every channel plugin with an audit)."""
    out = _synology_name_matching(install)
    for channel in ("telegram", "slack", "discord"):
        for account in accounts(install, channel):
            if account.config.get("dangerouslyAllowNameMatching") is True:
                note = f" (account {account.id})" if account.named else ""
                out.append(finding(INFO, f"{channel} matches senders by name{note}",
                                   "dangerouslyAllowNameMatching is true: a display name, e-mail or tag decides who "
                                   "may talk to the agent, and anyone can take a name", "list stable sender ids, then "
                                   "turn dangerouslyAllowNameMatching off",
                                   **where(install, account, "dangerouslyAllowNameMatching"),
                                   gateway=(f"channels.{channel}.allowFrom.dangerous_name_matching_enabled",)))
    return out


def _synology_name_matching(install: Install) -> list[Finding]:
    """Synology Chat delivers replies by user name when `dangerouslyAllowNameMatching` is on (its
    audit runs on every listed account, with or without its token). The gateway says it twice: an
    info from the plugin's audit, and a warn among the plugin's security warnings."""
    out = []
    for account in accounts(install, "synology-chat"):
        if account.config.get("dangerouslyAllowNameMatching") is True:
            note = f" (account {account.id})" if account.named else ""
            out.append(finding(WARN, f"synology-chat sends replies by user name{note}",
                               "dangerouslyAllowNameMatching is true: a reply goes to whoever holds that user name or "
                               "nickname, and names change hands", "use numeric Synology Chat user ids, then turn "
                               "dangerouslyAllowNameMatching off", **where(install, account, "dangerouslyAllowNameMatching"),
                               gateway=("channels.synology-chat.reply.dangerous_name_matching_enabled",
                                        "channels.synology-chat.warning.*")))
    return out


def _secret_set(value: Any) -> bool:
    """`hasConfiguredSecretInput`: a non-blank string or a SecretRef."""
    return _has_text(value) or isinstance(value, dict)


def _feishu_doc(install: Install) -> list[Finding]:
    """Feishu's doc tool on a configured account: creating a document grants the requesting user
    access to it (`isFeishuDocToolEnabled`: the account's tools, else the channel's; its app id
    and secret, else the channel's)."""
    feishu = as_dict(install.runtime.get("channels")).get("feishu")
    if not isinstance(feishu, dict) or feishu.get("enabled") is False:
        return []
    base_tools = feishu.get("tools") if isinstance(feishu.get("tools"), dict) else None
    base_app = _has_text(feishu.get("appId"))
    base_secret = _secret_set(feishu.get("appSecret"))
    listed = feishu.get("accounts") if isinstance(feishu.get("accounts"), dict) else {}
    if not listed:
        on = (base_tools or {}).get("doc") is not False and base_app and base_secret
    else:
        on = any(account.get("enabled") is not False
                 and as_dict(account["tools"] if isinstance(account.get("tools"), dict) else base_tools).get("doc")
                 is not False
                 and (_has_text(account.get("appId")) or base_app) and (_secret_set(account.get("appSecret"))
                                                                         or base_secret)
                 for account in (as_dict(a) for a in listed.values()))
    if not on:
        return []
    return [finding(WARN, "feishu's doc tool can share documents with whoever asks",
                    'the feishu "doc" tool is on: its "create" action grants the requesting Feishu user access to '
                    "the new document, so a prompt from an untrusted user can obtain one",
                    "vora config set channels.feishu.tools.doc false (unless you need it), and restrict tools for "
                    "untrusted prompts", **at(install, "channels", "feishu"),
                    gateway=("channels.feishu.doc_owner_open_id",))]


def _telegram_entry(value: Any) -> str:
    """`normalizeTelegramAllowFromEntry`: a string or number, without a telegram:/tg: prefix."""
    text = value if isinstance(value, str) else _js_text(value) if isinstance(value, int | float) and not isinstance(
        value, bool) else ""
    return js_trim(_TELEGRAM_PREFIX.sub("", js_trim(text), count=1))


def _telegram(install: Install) -> list[Finding]:
    """The telegram plugin's audit: who may run commands in the groups an account answers in."""
    config = install.runtime
    if as_dict(config.get("commands")).get("text") is False:
        return []
    default_policy = as_dict(as_dict(config.get("channels")).get("defaults")).get("groupPolicy")
    out: list[Finding] = []
    for account in accounts(install, "telegram"):
        tg = account.config
        policy = tg.get("groupPolicy") or default_policy or "allowlist"
        groups = tg.get("groups")
        listed = isinstance(groups, dict) and bool(groups)
        if not (policy == "open" or (policy == "allowlist" and listed)):
            continue
        label = f"telegram account {account.id}" if account.named else "telegram"
        store = store_allow_from(install, "telegram", account.id)
        group_allow = _list(tg.get("groupAllowFrom"))
        invalid: dict[str, None] = {}
        entries = [*store, *group_allow, *_list(tg.get("allowFrom"))]
        override = False
        for group in (as_dict(groups).values() if isinstance(groups, dict) else ()):
            if not isinstance(group, dict):
                continue
            if _list(group.get("allowFrom")):
                override = True
                entries += group["allowFrom"]
            for topic in as_dict(group.get("topics")).values():
                if isinstance(topic, dict):
                    override = override or bool(_list(topic.get("allowFrom")))
                    entries += _list(topic.get("allowFrom"))
        for entry in entries:
            text = _telegram_entry(entry)
            if text and text != "*" and not _DIGITS.match(text):
                invalid[text] = None
        if invalid:
            names = list(invalid)
            more = f" (+{len(names) - 5} more)" if len(names) > 5 else ""
            out.append(finding(WARN, f"{label} allows senders by username",
                               f"telegram matches senders by numeric user id only, so these entries match nobody "
                               f"(and a username can change hands): {', '.join(names[:5])}{more}",
                               "replace each @username with the user's numeric id",
                               **where(install, account, "allowFrom" if "allowFrom" in tg else "groupAllowFrom"),
                               gateway=("channels.telegram.allowFrom.invalid_entries",)))
        key = ".".join(account.path)
        if any(js_trim(_js_text(v)) == "*" for v in group_allow):
            out.append(finding(CRITICAL, f"anyone in the {label} groups can run commands",
                               f'{key}.groupAllowFrom includes "*": any member of a group the bot is in can run '
                               "/commands and change the agent's settings", f'remove "*" from {key}.groupAllowFrom '
                               "and list numeric user ids", **where(install, account, "groupAllowFrom"),
                               gateway=("channels.telegram.groups.allowFrom.wildcard",)))
            continue
        if not store and not group_allow and not override:
            step = command_line("vora", "config", "set", f"{key}.groupAllowFrom", '["<your numeric user id>"]')
            out.append(finding(CRITICAL, f"anyone in the {label} groups can run commands",
                               f'groupPolicy "{policy}"' + (" with groups listed" if policy != "open" else "")
                               + " and no sender allow list (groupAllowFrom, a group's allowFrom or paired senders): "
                               "any group member can run /commands", step + " (or pair yourself, or give each group "
                               "its allowFrom)", **where(install, account, "groups" if listed else "groupPolicy"),
                               gateway=("channels.telegram.groups.allowFrom.missing",)))
    return out


def _slack(install: Install) -> list[Finding]:
    """The slack plugin's audit of slash and native commands (both off unless turned on)."""
    config = install.runtime
    access_groups = as_dict(config.get("commands")).get("useAccessGroups") is not False
    out: list[Finding] = []
    for account in accounts(install, "slack"):
        sl = account.config
        if not (as_dict(sl.get("slashCommand")).get("enabled") is True or _native(sl, config, "native", False)
                or _native(sl, config, "nativeSkills", False)):
            continue
        label = f"slack account {account.id}" if account.named else "slack"
        if not access_groups:
            out.append(finding(CRITICAL, f"anyone can run the {label} slash commands",
                               "slash or native commands are on and commands.useAccessGroups is false: every channel "
                               "member the bot sees can run /commands", command_line(
                                   "vora", "config", "set", "commands.useAccessGroups", "true"),
                               **at(install, "commands", "useAccessGroups"),
                               gateway=("channels.slack.commands.slash.useAccessGroups_off",)))
            continue
        allow = _list(sl.get("allowFrom")) if isinstance(sl.get("allowFrom"), list) else _list(
            as_dict(sl.get("dm")).get("allowFrom"))
        owners = [v for v in (*allow, *store_allow_from(install, "slack", account.id))
                  if isinstance(v, dict | list) or js_trim(_js_text(v))]
        users = any(isinstance(c, dict) and _list(c.get("users")) for c in as_dict(sl.get("channels")).values())
        if not owners and not users:
            key = ".".join(account.path)
            out.append(finding(WARN, f"nobody may run the {label} slash commands",
                               "commands are on, but there is no owner allowFrom and no channel lists its users: "
                               "every /command is refused", f"add your user id to {key}.allowFrom (or pair), or "
                               f"list users in {key}.channels.<id>.users", **where(install, account, "slashCommand"),
                               gateway=("channels.slack.commands.slash.no_allowlists",)))
    return out


def discord_mutable(value: str) -> bool:
    """`isDiscordMutableAllowEntry`: a name or tag, not an id, a mention or a prefixed id."""
    text = js_trim(value)
    if not text or text == "*":
        return False
    if _DIGITS.match(re.sub(r">$", "", re.sub(r"^<@!?", "", text, count=1), count=1)):
        return False
    for prefix in ("discord:", "user:", "pk:"):
        if text.startswith(prefix):
            return not js_trim(text[len(prefix):])
    return True


def _add_names(hits: dict[str, None], values: Any, source: str) -> None:
    """`source:entry` for each name or tag among `values` (read as `String(value)` reads them)."""
    for value in _list(values):
        if isinstance(value, dict):
            text = "[object Object]"
        elif isinstance(value, list):
            text = ",".join(_js_text(v) for v in value)
        else:
            text = _js_text(value)
        if discord_mutable(text):
            hits[f"{source}:{js_trim(text)}"] = None


def _discord_names(install: Install) -> list[Finding]:
    """The discord plugin's look at allow lists that name people by name or tag."""
    out: list[Finding] = []
    for account in accounts(install, "discord"):
        dc = account.config
        prefix = f"channels.discord.accounts.{account.id}" if account.named else "channels.discord"
        hits: dict[str, None] = {}
        _add_names(hits, dc.get("allowFrom"), f"{prefix}.allowFrom")
        _add_names(hits, as_dict(dc.get("dm")).get("allowFrom"), f"{prefix}.dm.allowFrom")
        _add_names(hits, store_allow_from(install, "discord", account.id),
                   "~/.openclaw/credentials/discord-allowFrom.json")
        for guild_id, guild in as_dict(dc.get("guilds")).items():
            if not isinstance(guild, dict):
                continue
            _add_names(hits, guild.get("users"), f"{prefix}.guilds.{guild_id}.users")
            for channel_id, channel in as_dict(guild.get("channels")).items():
                if isinstance(channel, dict):
                    _add_names(hits, channel.get("users"), f"{prefix}.guilds.{guild_id}.channels.{channel_id}.users")
        if not hits:
            continue
        names = list(hits)
        more = f" (+{len(names) - 5} more)" if len(names) > 5 else ""
        label = f"discord account {account.id}" if account.named else "discord"
        opted_in = dc.get("dangerouslyAllowNameMatching") is True
        out.append(finding(INFO if opted_in else WARN, f"{label} allows people by name or tag",
                           ("names and tags are matched as you chose (dangerouslyAllowNameMatching); anyone can take "
                            "a name: " if opted_in else "a name or tag is matched as a slug, and another user can take "
                            "it: ") + ", ".join(names[:5]) + more,
                           "use user ids (or <@id>, user:<id>) in allowFrom and the guilds' users",
                           **where(install, account, "allowFrom" if "allowFrom" in dc else "guilds"),
                           gateway=("channels.discord.allowFrom.name_based_entries",)))
    return out


def channel_plugin_findings(install: Install) -> list[Finding]:
    return [*_name_matching(install), *_telegram(install), *_slack(install), *_discord_names(install),
            *_feishu_doc(install)]


# The bundled channel plugins with native (slash) commands, and whether they offer skills as
# commands unless told not to (`capabilities.nativeCommands`, `commands.nativeSkillsAutoEnabled`).
NATIVE_COMMAND_CHANNELS = {"discord": True, "telegram": True, "slack": False, "mattermost": False}


def native_skill_channels(install: Install) -> list[str]:
    """The configured chat channels where skills are chat commands (the check behind a critical
    `plugins.extensions_no_allowlist`): `channels.<id>.commands.nativeSkills`, else the global
    `commands.nativeSkills`; true or false decide, anything else is the plugin's default."""
    config = install.runtime
    out = []
    for channel, auto in NATIVE_COMMAND_CHANNELS.items():
        section = as_dict(config.get("channels")).get(channel)
        commands = section.get("commands") if isinstance(section, dict) else None
        own = commands.get("nativeSkills") if isinstance(commands, dict) else None
        setting = as_dict(config.get("commands")).get("nativeSkills") if own is None else own
        if (setting if isinstance(setting, bool) else auto) and next(accounts(install, channel), None) is not None:
            out.append(channel)
    return out
