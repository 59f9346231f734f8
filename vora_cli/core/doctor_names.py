"""The names `vora doctor` owns that layers below it need, declared once: its check ids in the spec
table's order with their areas, the ids outside the table, and the fail-on levels (spec doctor.md).
"""

from __future__ import annotations

from collections.abc import Iterable

from vora_cli.core.errors import VoraError

# (id, area), in the order of the spec table.
TABLE: tuple[tuple[str, str], ...] = (
    ("config-file", "Config"),
    ("config-syntax", "Config"),
    ("config-schema", "Config"),
    ("config-secrets", "Config"),
    ("state-dir", "Config"),
    ("newer-gateway", "Config"),
    ("gateway-auth", "Gateway"),
    ("slot-context-engine", "Plugins"),
    ("slot-memory", "Plugins"),
    ("plugin-manifests", "Plugins"),
    ("plugin-references", "Plugins"),
    ("plugin-settings", "Plugins"),
    ("plugin-permissions", "Plugins"),
    ("workspace", "Workspace"),
    ("bootstrap-size", "Workspace"),
    ("skills", "Workspace"),
    ("pairing-store", "Devices"),
    ("device-identity", "Devices"),
    ("sessions-store", "Sessions"),
    ("sessions-transcripts", "Sessions"),
    ("sessions-orphans", "Sessions"),
    ("sessions-jsonl", "Sessions"),
    ("sessions-context", "Sessions"),
    ("sessions-locks", "Sessions"),
    ("backup-restore", "Backups"),
)
# Checks outside the table: `last-gateway-start` (from the log file; present only when the file
# has a ready line) and the live checks, which only `vora doctor --live` adds (spec gateway.md).
LOG_CHECK_ID = "last-gateway-start"
LIVE_CHECK_IDS = ("gateway-reachable", "gateway-live-auth", "gateway-version", "live-slot-context-engine",
                  "live-slot-memory", "live-memory")
LIVE_AREA = "Live gateway"

CHECK_IDS = tuple(check_id for check_id, _area in TABLE)
SELECTABLE_IDS = (*CHECK_IDS, LOG_CHECK_ID, *LIVE_CHECK_IDS)
AREA_OF = dict(TABLE) | {LOG_CHECK_ID: "Gateway"} | dict.fromkeys(LIVE_CHECK_IDS, LIVE_AREA)

# What each check verifies, in an operator's words (`vora doctor --list-checks`).
VERIFIES: dict[str, str] = {
    "config-file": "the config path (flag, env, profile or default) leads to a readable file",
    "config-syntax": "vora.json and the files it $includes parse as JSON5",
    "config-schema": "the gateway's own validator accepts the config: its schema, its rules, each plugin's configSchema",
    "config-secrets": "a config file holding a secret is readable by its owner only",
    "state-dir": "the state dir is a folder that group and others cannot write to",
    "newer-gateway": "no newer gateway line (2026.5 or later) wrote the state dir: its SQLite state and agents.entries are not vora's to see",
    "gateway-auth": "the gateway has the token or password its bind and auth.mode need",
    "slot-context-engine": "plugins.slots.contextEngine names a built-in engine or an installed, enabled, "
                           "built context-engine plugin that registers it",
    "slot-memory": "plugins.slots.memory names the built-in, none, or an installed, enabled, built memory plugin",
    "plugin-manifests": "every plugin found has a valid manifest, its entry files, and a compat range that fits",
    "plugin-references": "plugins.entries, allow, deny, load.paths and installs name plugins that are there",
    "plugin-settings": "settings kept in plugins.entries belong to a plugin that is there",
    "plugin-permissions": "no plugin folder is writable by group or others (the gateway refuses those)",
    "workspace": "each agent's workspace folder exists and holds an AGENTS.md",
    "bootstrap-size": "no workspace file is cut by the per-file or total cap (the numbers of vora context)",
    "skills": "every SKILL.md can be read and has a description (the gateway drops one without)",
    "pairing-store": "devices/pending.json and paired.json parse and are mode 0600; requests waiting",
    "device-identity": "identity/device.json parses, is mode 0600, and its deviceId is the sha256 of its key",
    "sessions-store": "each agent's sessions.json parses as an object",
    "sessions-transcripts": "every session's transcript file exists",
    "sessions-orphans": "every transcript in a sessions folder belongs to a session",
    "sessions-jsonl": "transcripts parse line by line and start with a header",
    "sessions-context": "no session's fresh total is at 90% or more of its context window",
    "sessions-locks": "no stale lock files are left in the sessions folders",
    "backup-restore": "no vora backup restore was interrupted half way (its journal says what to finish or undo)",
    LOG_CHECK_ID: "what the gateway's log says about its last start: when, and what it loaded",
    "gateway-reachable": "a gateway answers at the URL and completes the handshake",
    "gateway-live-auth": "the running gateway accepts this host's token or password",
    "gateway-version": "the running gateway is of the release line vora follows",
    "live-slot-context-engine": "the running gateway loaded the context engine the config selects",
    "live-slot-memory": "the running gateway loaded the memory plugin the config selects",
    "live-memory": "the running gateway's memory runtime answers, with embeddings",
}

# `--fail-on` and the `doctor.fail_on` setting: exit 1 at this severity or worse.
FAIL_ON_LEVELS = ("warn", "error")


def unknown_check_ids(ids: Iterable[str]) -> list[str]:
    """The ids in `ids` that are not check ids (`--only`/`--skip` and `doctor.skip` take the same)."""
    return [check_id for check_id in ids if check_id not in SELECTABLE_IDS]


def skip_setting_error(check_id: str, where: str, repair: str) -> VoraError:
    """The one error for a `doctor.skip` setting naming an unknown check, wherever it is found
    (`vora settings set`, `vora doctor`): `where` is "" or " in FILE"; `repair` says what to do
    about it there."""
    return VoraError("invalid", f"setting 'doctor.skip'{where}: unknown check {check_id!r}",
                     f"check ids: {', '.join(SELECTABLE_IDS)}; {repair}")
