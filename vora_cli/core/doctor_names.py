"""The names `vora doctor` owns that layers below it need (spec doctor.md), declared once.

Its check ids in the spec table's order, each with the area the human output groups it under;
the ids outside the table (the log check, the live checks); and the fail-on levels. The doctor
runs its checks in this order (`core/doctor/runner.py` pairs each id with its function);
`--only`, `--skip`, the `doctor.skip` and `doctor.fail_on` settings, help and completion take
these names. A leaf of the ground layer (docs/architecture.md): `core/settings` checks
`doctor.skip` against it without importing the doctor.
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
