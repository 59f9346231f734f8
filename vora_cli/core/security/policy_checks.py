"""Hook routing, a minimal tool profile agents override, and a state dir in a synced folder
(docs/security.md, "Hooks and tool profiles"): the gateway's `collectHooksHardeningFindings`
(but the token checks, which are `gateway-token`'s), `collectMinimalProfileOverrideFindings` and
`collectSyncedFolderFindings` (openclaw 2026.4.12)."""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.agents import normalize_agent_id
from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_SYNCED = ("icloud", "dropbox", "google drive", "googledrive", "onedrive")


def _text(value: Any) -> str:
    return js_trim(value) if isinstance(value, str) else ""


def _remotely_exposed(config: dict[str, Any]) -> bool:
    gateway = as_dict(config.get("gateway"))
    bind = gateway["bind"] if isinstance(gateway.get("bind"), str) else "loopback"
    return bind != "loopback" or as_dict(gateway.get("tailscale")).get("mode") in ("serve", "funnel")


def _allowed_agent_ids(raw: Any) -> set[str] | None:
    """`resolveAllowedAgentIds`: None when unset or when it holds `*` (any agent may be routed to)."""
    if not isinstance(raw, list):
        return None
    allowed = set()
    for entry in raw:
        text = _text(entry)
        if text == "*":
            return None
        if text:
            allowed.add(normalize_agent_id(text))
    return allowed


def check_hooks(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("hooks")
    config = install.runtime
    hooks = as_dict(config.get("hooks"))
    found: list[Finding] = []
    if hooks.get("enabled") is True:
        remote = _remotely_exposed(config)
        severity = CRITICAL if remote else WARN
        if _text(hooks.get("path")) == "/":
            found.append(finding(CRITICAL, "the hooks path is /", "hook ingress at the root shadows the gateway's other "
                                 "HTTP endpoints", "vora config set hooks.path /hooks", **at(install, "hooks", "path"),
                                 gateway=("hooks.path_root",)))
        if not _text(hooks.get("defaultSessionKey")):
            found.append(finding(WARN, "hook runs have no default session key", "without hooks.defaultSessionKey each "
                                 "request without a key gets a new generated session", "vora config set "
                                 "hooks.defaultSessionKey hook:ingress", **at(install, "hooks"),
                                 gateway=("hooks.default_session_key_unset",)))
        if _allowed_agent_ids(hooks.get("allowedAgentIds")) is None:
            found.append(finding(severity, "hooks may route to any agent", "hooks.allowedAgentIds is unset or holds "
                                 '"*": whoever holds the hooks token can run any configured agent',
                                 "vora config set hooks.allowedAgentIds '[\"hooks\"]' (or [] to deny routing)",
                                 **at(install, "hooks"), gateway=("hooks.allowed_agent_ids_unrestricted",)))
        if hooks.get("allowRequestSessionKey") is True:
            found.append(finding(severity, "hook callers choose the session", "hooks.allowRequestSessionKey lets a "
                                 "/hooks/agent caller pick any session key", "vora config set "
                                 "hooks.allowRequestSessionKey false", **at(install, "hooks", "allowRequestSessionKey"),
                                 gateway=("hooks.request_session_key_enabled",)))
            prefixes = hooks.get("allowedSessionKeyPrefixes")
            if not (isinstance(prefixes, list) and any(_text(p) for p in prefixes)):
                found.append(finding(severity, "hook session keys are not limited by prefix",
                                     "request session keys are allowed with no hooks.allowedSessionKeyPrefixes",
                                     "vora config set hooks.allowedSessionKeyPrefixes '[\"hook:\"]'",
                                     **at(install, "hooks", "allowRequestSessionKey"),
                                     gateway=("hooks.request_session_key_prefixes_missing",)))
    found += _hook_installs(install, hooks)
    return check_result("hooks", found, "hooks are off, or routed to known agents and sessions")


def _hook_installs(install: Install, hooks: dict[str, Any]) -> list[Finding]:
    """Hook packs installed from npm: the same rules as plugin installs (`plugin-installs`), on
    `hooks.internal.installs`, whether hooks are on or not (the gateway's audit does not ask)."""
    from vora_cli.core.security.plugin_checks import package_json, pinned_spec

    records = [(i, r) for i, r in as_dict(as_dict(hooks.get("internal")).get("installs")).items()
               if isinstance(r, dict) and r.get("source") == "npm"]
    unpinned = [(i, r["spec"]) for i, r in records if isinstance(r.get("spec"), str) and not pinned_spec(r["spec"])]
    bare = [i for i, r in records if not isinstance(r.get("integrity"), str) or not js_trim(r["integrity"])]
    drift = []
    for hook_id, record in records:
        recorded = record.get("resolvedVersion") or record.get("version")
        path = record.get("installPath")
        folder = Path(path) if isinstance(path, str) else install.paths.state_dir / "hooks" / hook_id
        actual = package_json(folder).get("version") if recorded else None
        if isinstance(actual, str) and actual and actual != recorded:
            drift.append(f"{hook_id} (recorded {recorded}, installed {actual})")
    where = at(install, "hooks", "internal", "installs")
    found = []
    if unpinned:
        found.append(finding(WARN, "npm hook installs are not pinned", ", ".join(f"{i} ({s!r})" for i, s in unpinned)
                             + ": an update can bring a newer, different package", "reinstall each at an exact "
                             "version (name@x.y.z)", **where, gateway=("hooks.installs_unpinned_npm_specs",)))
    if bare:
        found.append(finding(WARN, "npm hook installs have no integrity", f"{', '.join(bare)}: no integrity hash "
                             "recorded, so a swapped package goes unnoticed", "reinstall or update them to record one",
                             **where, gateway=("hooks.installs_missing_integrity",)))
    if drift:
        found.append(finding(WARN, "an installed hook pack is not the version recorded", ", ".join(drift),
                             "update or reinstall it", **where, gateway=("hooks.installs_version_drift",)))
    return found


def check_tool_profile(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("tool-profile")
    config = install.runtime
    found: list[Finding] = []
    if as_dict(config.get("tools")).get("profile") == "minimal":
        agents = as_dict(config.get("agents")).get("list")
        overrides = [f"agents.list.{a['id']}={a['tools']['profile']}" for a in (agents if isinstance(agents, list) else ())
                     if isinstance(a, dict) and isinstance(a.get("id"), str) and as_dict(a.get("tools")).get("profile")
                     and a["tools"]["profile"] != "minimal"]
        if overrides:
            found.append(finding(WARN, "agents override the minimal tool profile", "tools.profile is minimal, but "
                                 f"these agents' own profiles win: {', '.join(overrides)}", "set those agents' "
                                 "tools.profile to minimal, or remove their own", **at(install, "agents", "list"),
                                 gateway=("tools.profile_minimal_overridden",)))
    return check_result("tool-profile", found, "no agent widens a minimal tool profile")


def check_synced_folder(install: Install) -> CheckResult:
    """The state dir or config in a folder a sync client copies to other devices (the gateway's
    substring rule: iCloud, Dropbox, Google Drive, OneDrive in the path)."""
    paths = (str(install.paths.state_dir), str(install.paths.config_path))
    found: list[Finding] = []
    if any(name in path.lower() for path in paths for name in _SYNCED):
        found.append(finding(WARN, "the install is in a synced folder", f"state dir {paths[0]}, config {paths[1]}: a "
                             "sync client copies tokens and transcripts to other devices", "move the state dir to a "
                             "local-only disk (vora --state-dir, VORA_STATE_DIR)", file=install.paths.state_dir,
                             gateway=("fs.synced_dir",)))
    return check_result("synced-folder", found, "the install is not in a synced folder")
