"""The channel plugins' own audits, per account, as the gateway runs them (openclaw 2026.4.12;
docs/security.md, "Channels and tools").

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

# Channels whose DM policy is judged here, per account as their plugin resolves it, not from the
# written sections (channel_checks.py).
PER_ACCOUNT_DM_CHANNELS = ("synology-chat",)
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
    if channel == "zalo":  # its token: the account's, else the channel's, else ZALO_BOT_TOKEN for `default`
        return present("botToken") or present("tokenFile") or (
            account_id == "default" and bool(js_trim(env.get("ZALO_BOT_TOKEN", ""))))
    return True


def listed_accounts(value: Any) -> dict[str, Any]:
    """A channel's `accounts` as the gateway lists them (`Object.keys`): an object's keys, but an
    array's or a string's indexes too ("0", "1", …), a mistake its loose channel schemas let
    through; no blank id."""
    if isinstance(value, list | str):
        return {str(i): item for i, item in enumerate(value)}
    return {k: v for k, v in value.items() if k} if isinstance(value, dict) else {}


def accounts(install: Install, channel: str) -> Iterator[Account]:
    """The enabled, configured accounts of `channel`, each with its merged config. Telegram does
    not hand the channel's `groups` to an account when there are several accounts."""
    section = as_dict(as_dict(install.runtime.get("channels")).get(channel))
    if not section or section.get("enabled") is False:
        return
    listed = listed_accounts(section.get("accounts"))
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


def store_allow_from(install: Install, channel: str, account_id: str, report: list[Finding]) -> list[str]:
    """The senders approved in the account's pairing store (the gateway drops `*` there); a store
    that cannot be read (a FIFO, a device) adds a finding that says so to `report`."""
    def key(text: str) -> str:
        return _UNSAFE_KEY.sub("_", text.lower()).replace("..", "_")

    folder = install.paths.state_dir / "credentials"
    names = [f"{key(channel)}-{key(account_id)}-allowFrom.json"]
    if account_id.lower() == "default":
        names.append(f"{key(channel)}-allowFrom.json")
    out: dict[str, None] = {}
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes
    from vora_cli.core.security.model import unreadable

    for name in names:
        try:
            raw = read_bytes(folder / name, _STORE_MAX)
            doc = nesting.loads(raw) if raw is not None else None
        except VoraError as error:
            report.append(unreadable(folder / name, error.message))
            continue
        except ValueError:
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
    out: list[Finding] = []
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


def _js_truthy(value: Any) -> bool:
    """JavaScript's truthiness of a config value (`!value` in the plugins' checks)."""
    return value is not None and value is not False and value != "" and not (
        isinstance(value, int | float) and not isinstance(value, bool) and (value == 0 or value != value))


def _given(value: Any, fallback: Any) -> Any:
    """`value ?? fallback`."""
    return fallback if value is None else value


def _entry(listed: dict[str, Any], account_id: str) -> Any:
    """`resolveAccountEntry`: the account's own entry, by its key or else case-insensitively."""
    if account_id in listed:
        return listed[account_id]
    lowered = account_id.lower()
    return next((v for k, v in listed.items() if k.lower() == lowered), None)


def _scalar_equal(a: Any, b: Any) -> bool:
    """`a === b`: scalars by value and type, objects by identity."""
    if isinstance(a, dict | list) or isinstance(b, dict | list):
        return a is b
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class SynologyAccount:
    """`resolveAccount` of the synology-chat plugin: the account's keys over the channel's, then
    the SYNOLOGY_* environment, then the plugin's defaults."""

    account: Account
    enabled: bool
    token: bool
    incoming_url: bool
    webhook_path: Any
    path_inherited: bool  # no path of its own, the channel's written one (`webhookPathSource` "inherited-base")
    inherit_opt_in: bool
    name_matching: bool
    dm_policy: Any
    allowed: list[Any]


def _synology_allowed(raw: Any) -> list[Any]:
    """`parseAllowedUserIds`: a list (its truthy entries) or a comma-separated string."""
    if not _js_truthy(raw):
        return []
    if isinstance(raw, list):
        return [v for v in raw if _js_truthy(v)]
    if isinstance(raw, str):
        return [js_trim(part) for part in raw.split(",") if js_trim(part)]
    return []


def _synology_accounts(install: Install) -> tuple[list[str], list[SynologyAccount]]:
    """The listed account ids (`listAccountIds`: the `accounts` keys, and `default` when the
    channel has a token), and every account the gateway audits: `default` always, then those."""
    section = as_dict(install.runtime.get("channels")).get("synology-chat")
    if not isinstance(section, dict):
        return [], []
    env = install.env
    listed = listed_accounts(section.get("accounts"))
    implicit = _js_truthy(section.get("token")) or bool(env.get("SYNOLOGY_CHAT_TOKEN"))
    ids = sorted({*listed, *(("default",) if implicit else ())})
    base = {k: v for k, v in section.items() if k != "accounts"}
    ordered = list(dict.fromkeys(("default", *ids)))
    out = []
    for account_id in ordered:
        own = as_dict(_entry(listed, account_id))
        merged = {**base, **own}
        raw = section if account_id == "default" else as_dict(listed.get(account_id))

        def has_path(node: dict[str, Any]) -> bool:
            return isinstance(node.get("webhookPath"), str) and bool(js_trim(node["webhookPath"]))

        own_matching = as_dict(listed.get(account_id)).get("dangerouslyAllowNameMatching") if account_id != "default" \
            else None
        account = Account(account_id, ("channels", "synology-chat", "accounts", account_id) if account_id in listed
                          else ("channels", "synology-chat"), own if account_id in listed else section, merged,
                          len(ordered) > 1 or account_id in listed)
        out.append(SynologyAccount(
            account, _js_truthy(_given(merged.get("enabled"), True)),
            _js_truthy(_given(merged.get("token"), env.get("SYNOLOGY_CHAT_TOKEN", ""))),
            _js_truthy(_given(merged.get("incomingUrl"), env.get("SYNOLOGY_CHAT_INCOMING_URL", ""))),
            _given(merged.get("webhookPath"), "/webhook/synology"),
            not has_path(raw) and account_id != "default" and has_path(section),
            _js_truthy(_given(raw.get("dangerouslyAllowInheritedWebhookPath"),
                              _given(section.get("dangerouslyAllowInheritedWebhookPath"), False))),
            own_matching if isinstance(own_matching, bool) else section.get("dangerouslyAllowNameMatching") is True,
            _given(merged.get("dmPolicy"), "allowlist"),
            _synology_allowed(_given(merged.get("allowedUserIds"), env.get("SYNOLOGY_ALLOWED_USER_IDS", "")))))
    return ids, out


def _synology_chat(install: Install) -> list[Finding]:
    """The synology-chat plugin's security warnings and DM policy, per audited account (its
    `collectWarnings`, `resolveDmPolicy` and audit): each warning is one of the gateway's
    `channels.synology-chat.warning.<n>`, numbered in the order the gateway found them."""
    ids, resolved = _synology_accounts(install)
    if not resolved:
        return []
    by_id = {a.account.id: a for a in resolved}
    out: list[Finding] = []
    for syno in resolved:
        if syno.enabled:
            out += _synology_account(install, syno, ids, by_id)
    return out


def _synology_account(install: Install, syno: SynologyAccount, ids: list[str],
                      by_id: dict[str, SynologyAccount]) -> list[Finding]:
    account = syno.account
    note = f" (account {account.id})" if account.named else ""
    key = ".".join(account.path)
    warning = "channels.synology-chat.warning.*"
    dm_scope = as_dict(install.runtime.get("session")).get("dmScope") or "main"
    out: list[Finding] = []

    def add(severity: str, title: str, detail: str, step: str | None, place: str, *gateway: str) -> None:
        out.append(finding(severity, title + note, detail, step, **where(install, account, place),
                           gateway=gateway or (warning,)))

    if not syno.token:
        add(WARN, "synology-chat has no token", "the outgoing webhook's token is not set: the webhook refuses "
            "every request", f"set {key}.token to the outgoing webhook's token", "token")
    if not syno.incoming_url:
        add(WARN, "synology-chat has no incomingUrl", "the incoming webhook URL is not set: the bot cannot reply",
            f"set {key}.incomingUrl to the incoming webhook's URL", "incomingUrl")
    if _js_truthy(account.config.get("allowInsecureSsl")):
        add(INFO, "synology-chat does not verify the NAS's certificate", "allowInsecureSsl is true: the bot "
            "sends and reads over TLS without checking whom it talks to", "give the NAS a trusted certificate, "
            "then turn allowInsecureSsl off (keep it only for a local NAS with a self-signed one)",
            "allowInsecureSsl")
    if syno.name_matching:
        add(WARN, "synology-chat sends replies by user name", "dangerouslyAllowNameMatching is true: a reply "
            "goes to whoever holds that user name or nickname, and names change hands", "use numeric Synology "
            "Chat user ids, then turn dangerouslyAllowNameMatching off", "dangerouslyAllowNameMatching",
            "channels.synology-chat.reply.dangerous_name_matching_enabled", warning)
    if syno.inherit_opt_in and syno.path_inherited:
        add(WARN, "synology-chat account shares the channel's webhook path", "dangerouslyAllowInheritedWebhookPath "
            "is true: this account takes its requests on the channel's webhookPath, with the others that do",
            f"give {key} a webhookPath of its own", "dangerouslyAllowInheritedWebhookPath")
    out += _synology_dm(install, syno, note, key, dm_scope)
    if len(ids) > 1 and account.id != "default" and syno.path_inherited and not syno.inherit_opt_in:
        add(WARN, "synology-chat account has no webhook path of its own", "with several accounts, the gateway "
            "does not start an account on the channel's inherited webhookPath", f"set {key}.webhookPath (or "
            "opt in with dangerouslyAllowInheritedWebhookPath)", "webhookPath")
    clash = [other for other in ids if other != account.id and other in by_id and by_id[other].enabled
             and _scalar_equal(by_id[other].webhook_path, syno.webhook_path)]
    if clash:
        add(WARN, "synology-chat accounts share a webhook path", f"{_js_text(syno.webhook_path)} is also the path "
            f"of {', '.join(clash)}: the gateway starts none of them on an ambiguous route",
            "give each account its own webhookPath", "webhookPath")
    return out


def _synology_dm(install: Install, syno: SynologyAccount, note: str, key: str, dm_scope: str) -> list[Finding]:
    """The DM policy of one synology-chat account (`allowedUserIds` is its allow list)."""
    account = syno.account
    policy = syno.dm_policy
    entries = [js_trim(_js_text(v)) for v in syno.allowed if js_trim(_js_text(v))]
    out: list[Finding] = []
    if policy == "open":
        out.append(finding(CRITICAL, f"synology-chat DMs are open to everyone{note}", f'{key}.dmPolicy is "open": '
                           "any Synology Chat user can talk to the agent", command_line(
                               "vora", "config", "set", f"{key}.dmPolicy", "allowlist") + " and list allowedUserIds",
                           **where(install, account, "dmPolicy"),
                           gateway=("channels.synology-chat.dm.open", "channels.synology-chat.warning.*")))
        if "*" not in entries:
            out.append(finding(WARN, f"synology-chat open DMs without a wildcard{note}", f'"open" needs '
                               f'{key}.allowedUserIds to include "*" to mean it', None,
                               **where(install, account, "dmPolicy"), gateway=("channels.synology-chat.dm.open_invalid",)))
    if policy == "disabled":
        return [finding(INFO, f"synology-chat DMs are off{note}", f'{key}.dmPolicy is "disabled": direct messages '
                        "are ignored", None, **where(install, account, "dmPolicy"),
                        gateway=("channels.synology-chat.dm.disabled",))]
    if policy == "allowlist" and not syno.allowed:
        out.append(finding(CRITICAL, f"synology-chat lets nobody in{note}", 'dmPolicy "allowlist" with no '
                           "allowedUserIds refuses every sender (the gateway rates this critical)",
                           f"list the numeric user ids in {key}.allowedUserIds",
                           **where(install, account, "allowedUserIds" if "allowedUserIds" in account.config
                                   else "dmPolicy"), gateway=("channels.synology-chat.warning.*",)))
    users = {e.lower() for e in entries if e != "*"}
    if dm_scope == "main" and "*" not in entries and len(users) <= 1:
        users |= {e.lower() for e in store_allow_from(install, "synology-chat", account.id, out)}
    if dm_scope == "main" and ("*" in entries or len(users) > 1):
        out.append(finding(WARN, f"synology-chat DM senders share one session{note}", "several people's DMs land "
                           "in the main session: one sender sees what another said",
                           "vora config set session.dmScope per-channel-peer", **where(install, account, "allowedUserIds"),
                           gateway=("channels.synology-chat.dm.scope_main_multiuser",)))
    return out


_ZALO_SESSION_MAX = 1 << 20  # a saved Zalo login is a few cookies
_URI_SAFE = "-_.!~*'()"  # what JavaScript's encodeURIComponent leaves as it is


def _account_id(value: str) -> str:
    """`normalizeAccountId`: lower case, runs of other characters as `-`, `default` when empty."""
    text = js_trim(value)
    if not text:
        return "default"
    lowered = text.lower()
    if not re.match(r"^[a-z0-9][a-z0-9_-]{0,63}$", text, re.IGNORECASE):
        lowered = re.sub(r"[^a-z0-9_-]+", "-", lowered).strip("-")[:64]
    return lowered if lowered and lowered not in ("__proto__", "constructor", "prototype") else "default"


def zalo_session_saved(install: Install, profile: str, report: list[Finding]) -> bool:
    """A saved Zalo login for `profile` (what `channels login --channel zalouser` writes):
    `credentials/zalouser/credentials.json` for the default profile, else
    `credentials-<profile>.json`, holding an imei, a cookie and a user agent. The gateway then logs
    in with it before it audits the account; vora, offline, counts the saved session. One that
    cannot be read (a FIFO, a device) is none, and adds a finding that says so to `report`."""
    from urllib.parse import quote

    name = profile.lower()
    file = "credentials.json" if name in ("", "default") else f"credentials-{quote(name, safe=_URI_SAFE)}.json"
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes
    from vora_cli.core.security.model import unreadable

    path = install.paths.state_dir / "credentials" / "zalouser" / file
    try:
        raw = read_bytes(path, _ZALO_SESSION_MAX)
        doc = nesting.loads(raw) if raw is not None else None
    except VoraError as error:
        report.append(unreadable(path, error.message))
        return False
    except ValueError:
        return False
    session = as_dict(doc)
    return (isinstance(session.get("imei"), str) and bool(session["imei"]) and _js_truthy(session.get("cookie"))
            and isinstance(session.get("userAgent"), str) and bool(session["userAgent"]))


def _zalo(install: Install) -> list[Finding]:
    """The zalo plugin's audit of its groups (`collectZaloSecurityWarnings`): an account that sets
    no `groupPolicy` (nor does `channels.defaults`) is read as "open", the plugin's fallback for a
    configured channel, so anyone in a group the bot is in can trigger it. A `groupPolicy` written
    "open" is the open-groups finding of channel_checks.py, which names this warning too."""
    fallback = as_dict(as_dict(install.runtime.get("channels")).get("defaults")).get("groupPolicy")
    out: list[Finding] = []
    for account in accounts(install, "zalo"):
        if account.config.get("groupPolicy") is not None or (fallback is not None and fallback != "open"):
            continue
        key = ".".join(account.path)
        senders = [v for k in ("groupAllowFrom", "allowFrom") for v in _list(account.config.get(k)) if js_trim(_js_text(v))]
        label = f"zalo account {account.id}" if account.named else "zalo"
        out.append(finding(CRITICAL, f"{label} groups are open to everyone (by default)",
                           f"{key}.groupPolicy is not set" + ("" if fallback is None else ' (channels.defaults says "open")')
                           + ': the zalo plugin reads it as "open", so '
                           + ("any member of a group the bot is in can trigger it (groupAllowFrom and allowFrom "
                              "only narrow who)" if senders else "any member of a group the bot is in can trigger "
                                                                 "it, with no sender allow list"),
                           command_line("vora", "config", "set", f"{key}.groupPolicy", "allowlist")
                           + f", and list the senders in {key}.groupAllowFrom",
                           **where(install, account, "groupPolicy"), gateway=("channels.zalo.warning.*",)))
    return out


def _zalouser(install: Install) -> list[Finding]:
    """The zalouser plugin's audit of its group entries, on each enabled account with a saved
    session: a group named by name (not a numeric or `g-` id) can drift to another group."""
    section = as_dict(install.runtime.get("channels")).get("zalouser")
    if not isinstance(section, dict):
        return []
    listed = listed_accounts(section.get("accounts"))
    ids = sorted(listed) or ["default"]
    preferred = section.get("defaultAccount")
    preferred = _account_id(preferred) if isinstance(preferred, str) and js_trim(preferred) else None
    first = preferred if preferred in {_account_id(i) for i in ids} else "default" if "default" in ids else ids[0]
    ordered = list(dict.fromkeys((first, *ids)))
    base = {k: v for k, v in section.items() if k not in ("accounts", "defaultAccount")}
    env = install.env
    out: list[Finding] = []
    for account_id in ordered:
        own = as_dict(_entry(listed, account_id))
        merged = {**base, **own}
        if section.get("enabled") is False or merged.get("enabled") is False:
            continue
        normalized = _account_id(account_id)
        profile = next((js_trim(p) for p in (merged.get("profile"), env.get("ZALOUSER_PROFILE"), env.get("ZCA_PROFILE"))
                        if isinstance(p, str) and js_trim(p)), normalized)
        if not zalo_session_saved(install, profile, out):
            continue
        named = len(ordered) > 1 or account_id in listed
        prefix = f"channels.zalouser.accounts.{account_id}" if named else "channels.zalouser"
        account = Account(account_id, tuple(prefix.split(".")) if account_id in listed else ("channels", "zalouser"),
                          own if account_id in listed else section, merged, named)
        note = f" (account {account_id})" if named else ""
        opted_in = merged.get("dangerouslyAllowNameMatching") is True
        if opted_in:
            out.append(finding(INFO, f"zalouser matches senders by name{note}", "dangerouslyAllowNameMatching is true: "
                               "a display name decides who may talk to the agent, and anyone can take a name",
                               "list stable ids, then turn dangerouslyAllowNameMatching off",
                               **where(install, account, "dangerouslyAllowNameMatching"),
                               gateway=("channels.zalouser.allowFrom.dangerous_name_matching_enabled",)))
        names = [f"{prefix}.groups:{k}" for k in as_dict(merged.get("groups")) if zalouser_mutable_group(k)]
        if not names:
            continue
        more = f" (+{len(names) - 5} more)" if len(names) > 5 else ""
        out.append(finding(INFO if opted_in else WARN, f"zalouser groups named by name{note}",
                           ("group names are matched as you chose (dangerouslyAllowNameMatching), and a name can "
                            "pass to another group: " if opted_in else "zalouser admits groups by id only, so a "
                            "group entry by name matches nothing and can drift to another group: ")
                           + ", ".join(names[:5]) + more, "use the groups' ids (group:<id> or the g- id)",
                           **where(install, account, "groups"), gateway=("channels.zalouser.groups.mutable_entries",)))
    return out


def zalouser_mutable_group(key: str) -> bool:
    """`isZalouserMutableGroupEntry`: a group key that is not an id (digits, or a `g-` id)."""
    text = js_trim(key)
    if not text or text == "*":
        return False
    text = js_trim(re.sub(r"^group:", "", re.sub(r"^(zalouser|zlu):", "", text, count=1, flags=re.IGNORECASE),
                          count=1, flags=re.IGNORECASE))
    return bool(text) and not _DIGITS.match(text) and not re.match(r"^g-\S+$", text, re.IGNORECASE)


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
    listed = listed_accounts(feishu.get("accounts"))
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
        store = store_allow_from(install, "telegram", account.id, out)
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
        owners = [v for v in (*allow, *store_allow_from(install, "slack", account.id, out))
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
        _add_names(hits, store_allow_from(install, "discord", account.id, out),
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
    return [*_name_matching(install), *_synology_chat(install), *_zalo(install), *_zalouser(install), *_telegram(install),
            *_slack(install), *_discord_names(install), *_feishu_doc(install)]


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
