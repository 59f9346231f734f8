"""What agents and paired nodes may reach on the host (docs/security.md, "Channels and tools"):
sandbox bind mounts, dangerous node commands, exec `safeBins`. The gateway's
`collectSandboxDangerousConfigFindings`, `collectNodeDangerousAllowCommandFindings` and the safe-bin
part of `collectExecRuntimeFindings` (openclaw 2026.4.12), with their tables.
"""

from __future__ import annotations

import os
import posixpath
import re

from vora_cli.core.doctor.model import WARN, CheckResult, Install
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.text import js_trim

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# validate-sandbox-security.ts: host paths a sandbox must never see, and what a home must not share.
BLOCKED_HOST_PATHS = ("/etc", "/private/etc", "/proc", "/sys", "/dev", "/root", "/boot", "/run", "/var/run",
                      "/private/var/run", "/var/run/docker.sock", "/private/var/run/docker.sock", "/run/docker.sock")
BLOCKED_HOME_SUBPATHS = (".aws", ".cargo", ".config", ".docker", ".gnupg", ".netrc", ".npm", ".ssh")
# node-command-policy.ts: DEFAULT_DANGEROUS_NODE_COMMANDS, in its order.
DANGEROUS_NODE_COMMANDS = ("camera.snap", "camera.clip", "screen.record", "contacts.add", "calendar.add",
                           "reminders.add", "sms.send", "sms.search")
# exec-safe-bin-runtime-policy.ts: INTERPRETER_LIKE_SAFE_BINS and its patterns.
INTERPRETER_BINS = frozenset((
    "ash", "awk", "bash", "busybox", "bun", "cmd", "cmd.exe", "cscript", "dash", "deno", "fish", "gawk", "gsed",
    "ksh", "lua", "mawk", "nawk", "node", "nodejs", "perl", "php", "powershell", "powershell.exe", "pypy", "pwsh",
    "pwsh.exe", "python", "python2", "python3", "ruby", "sed", "sh", "toybox", "wscript", "zsh"))
_INTERPRETER = re.compile(r"^(?:python|ruby|perl|php|node)\d+(?:\.\d+)?$")
# exec-safe-bin-trust.ts: SAFE_BIN_SEMANTIC_RULES' config warnings (jq, the awk family, sed).
_AWK = "awk-family interpreters can run commands, read the environment and write files"
_SED = "sed scripts can run commands and write files"
BROAD_BINS = {"jq": "jq programs reach builtins such as env", "awk": _AWK, "gawk": _AWK, "mawk": _AWK, "nawk": _AWK,
              "sed": _SED, "gsed": _SED}
# node-command-policy.ts: PLATFORM_DEFAULTS, the commands a paired device may run unasked, per platform.
_CANVAS = ("canvas.present", "canvas.hide", "canvas.navigate", "canvas.eval", "canvas.snapshot", "canvas.a2ui.push",
           "canvas.a2ui.pushJSONL", "canvas.a2ui.reset")
_SYSTEM = ("system.run.prepare", "system.run", "system.which", "system.notify", "browser.proxy")
_PHONE = ("contacts.search", "calendar.events", "reminders.list", "photos.latest", "motion.activity", "motion.pedometer")
NODE_DEFAULT_COMMANDS: dict[str, tuple[str, ...]] = {
    "ios": (*_CANVAS, "camera.list", "location.get", "device.info", "device.status", *_PHONE, "system.notify"),
    "android": (*_CANVAS, "camera.list", "location.get", "notifications.list", "notifications.actions",
                "system.notify", "device.info", "device.status", "device.permissions", "device.health",
                "contacts.search", "calendar.events", "callLog.search", "reminders.list", "photos.latest",
                "motion.activity", "motion.pedometer"),
    "macos": (*_CANVAS, "camera.list", "location.get", "device.info", "device.status", *_PHONE, *_SYSTEM),
    "linux": _SYSTEM,
    "windows": _SYSTEM,
    "unknown": (*_CANVAS, "camera.list", "location.get", "system.notify"),
}


def _agents(config: dict[str, Any]) -> list[dict[str, Any]]:
    agents = as_dict(config.get("agents")).get("list")
    return [a for a in (agents if isinstance(agents, list) else ()) if isinstance(a, dict) and isinstance(a.get("id"), str)]


def _host_path(raw: str) -> str:
    """`normalizeSandboxHostPath`: posix.normalize, no trailing slash ("/" for nothing)."""
    text = raw.strip().replace("\\", "/")
    if not text:
        return "/"
    normal = posixpath.normpath(text)
    if normal.startswith("//"):  # node's posix.normalize keeps one leading slash; Python keeps two
        normal = "/" + normal.lstrip("/")
    return normal.rstrip("/") or "/"


def _bind_source(bind: str) -> str:
    """The host side of `source:target[:mode]` (a Windows drive letter's colon is not the separator)."""
    spec = bind.strip()
    start = 2 if re.match(r"^[A-Za-z]:[\\/]", spec) else 0
    colon = spec.find(":", start)
    return (spec[:colon] if colon != -1 else spec).strip()


def _blocked_paths(install: Install) -> list[str]:
    blocked = dict.fromkeys(_host_path(p) for p in BLOCKED_HOST_PATHS)
    homes = {str(install.paths.home), install.env.get("HOME") or str(install.paths.home)}
    for home in homes:
        for root in {_host_path(home), _host_path(os.path.realpath(home))} - {"/"}:
            for sub in BLOCKED_HOME_SUBPATHS:
                blocked[_host_path(posixpath.join(root, sub))] = None
    return list(blocked)


def blocked_bind(bind: str, blocked: list[str]) -> tuple[str, str] | None:
    """("covers"|"targets", the blocked path) for a bind whose host side is a blocked path, under
    one, or "/", read as written and again through the symlinks of its existing ancestors; None
    for a relative source too (`check_sandbox` names that on its own)."""
    source = _bind_source(bind)
    if not source.startswith("/"):
        return None
    normal = _host_path(source)
    for path in dict.fromkeys((normal, _host_path(os.path.realpath(normal)))):
        if path == "/":
            return "covers", "/"
        for entry in blocked:
            if path == entry or path.startswith(entry + "/"):
                return "targets", entry
    return None


def check_sandbox(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("sandbox")
    config = install.runtime
    dockers: list[tuple[tuple[str | int, ...], Any]] = [
        (("agents", "defaults", "sandbox", "docker"),
         as_dict(as_dict(as_dict(config.get("agents")).get("defaults")).get("sandbox")).get("docker"))]
    for i, agent in enumerate(_agents(config)):
        dockers.append((("agents", "list", i, "sandbox", "docker"), as_dict(agent.get("sandbox")).get("docker")))
    blocked = _blocked_paths(install)
    found: list[Finding] = []
    for path, docker in dockers:
        if not isinstance(docker, dict):
            continue
        label = "agents.defaults" if path[1] == "defaults" else f"agents.list.{_agents(config)[int(path[2])]['id']}"
        for n, bind in enumerate(docker["binds"] if isinstance(docker.get("binds"), list) else ()):
            if not isinstance(bind, str):
                continue
            if not (source := _bind_source(bind)).startswith("/"):
                found.append(finding(WARN, "a sandbox bind mount has a relative source",
                                     f'{label}.sandbox.docker.binds has "{bind}", whose source "{source}" is no '
                                     "absolute path (a relative path or a Docker volume name cannot be checked); "
                                     "the gateway refuses to start with it", "write it as an absolute host path "
                                     "(/home/user/project:/project:ro)", **at(install, *path, "binds", n),
                                     gateway=("sandbox.bind_mount_non_absolute",)))
            elif (hit := blocked_bind(bind, blocked)) is not None:
                verb, where = hit
                found.append(finding(CRITICAL, "a sandbox mounts a host system path",
                                     f'{label}.sandbox.docker.binds has "{bind}", which {verb} {where}: the container '
                                     "sees (and with the Docker socket, controls) the host", f"remove it from "
                                     f"{label}.sandbox.docker.binds; mount a project folder instead",
                                     **at(install, *path, "binds", n), gateway=("sandbox.dangerous_bind_mount",)))
        found += _docker_isolation(install, path, label, docker)
    return check_result("sandbox", found + _docker_unused(install),
                        "no sandbox mounts a host system path or drops its isolation")


def _docker_isolation(install: Install, path: tuple[str | int, ...], label: str, docker: dict[str, Any]) -> list[Finding]:
    """`collectSandboxDangerousConfigFindings`' network mode and profiles: the host's network, or
    another container's (`container:<id>`), and a seccomp or AppArmor profile of `unconfined`. The
    gateway refuses to start with all of them but a namespace join that
    `dangerouslyAllowContainerNamespaceJoin` lets through, so its audit reports only that one."""
    found: list[Finding] = []
    network = docker.get("network")
    mode = js_trim(network).lower() if isinstance(network, str) else ""
    if mode == "host" or mode.startswith("container:"):
        shares = "the host's network: no network isolation at all" if mode == "host" else \
            "another container's network namespace, and whatever that container reaches"
        allowed = mode != "host" and docker.get("dangerouslyAllowContainerNamespaceJoin") is True
        found.append(finding(CRITICAL, "a sandbox shares a network namespace",
                             f'{label}.sandbox.docker.network is "{network}": the container gets {shares}; '
                             + ("dangerouslyAllowContainerNamespaceJoin lets the gateway load it" if allowed
                                else "the gateway refuses to start with it"),
                             f'set {label}.sandbox.docker.network to "bridge", "none" or a bridge network of its own',
                             **at(install, *path, "network"), gateway=("sandbox.dangerous_network_mode",)))
    for key, what, check_id in (("seccompProfile", "syscall filtering", "sandbox.dangerous_seccomp_profile"),
                                ("apparmorProfile", "AppArmor", "sandbox.dangerous_apparmor_profile")):
        value = docker.get(key)
        if isinstance(value, str) and js_trim(value).lower() == "unconfined":
            found.append(finding(CRITICAL, f"a sandbox runs without {what}",
                                 f'{label}.sandbox.docker.{key} is "{value}": {what} is off in the container; the '
                                 "gateway refuses to start with it", f"remove {label}.sandbox.docker.{key}, or name "
                                 "a profile of your own", **at(install, *path, key), gateway=(check_id,)))
    return found


def _docker_unused(install: Install) -> list[Finding]:
    """`collectSandboxDockerNoopFindings`: docker settings where the sandbox is off are never
    applied, and an operator who wrote them likely believes the agent is contained."""
    from vora_cli.core.security.tool_policy import sandbox_mode

    config = install.runtime
    agents = _agents(config)
    defaults = as_dict(as_dict(config.get("agents")).get("defaults")).get("sandbox")
    defaults = defaults if isinstance(defaults, dict) else {}
    unused: list[tuple[str, tuple[str | int, ...]]] = []
    if (isinstance(defaults.get("docker"), dict) and defaults["docker"] and defaults.get("mode") in (None, "off")
            and all(sandbox_mode(config, a["id"]) == "off" for a in agents)):
        unused.append(("agents.defaults.sandbox.docker", ("agents", "defaults", "sandbox", "docker")))
    listed = as_dict(config.get("agents")).get("list")
    for i, agent in enumerate(listed if isinstance(listed, list) else ()):
        if not isinstance(agent, dict) or not isinstance(agent.get("id"), str):
            continue
        docker = as_dict(agent.get("sandbox")).get("docker")
        if isinstance(docker, dict) and docker and sandbox_mode(config, agent["id"]) == "off":
            unused.append((f"agents.list.{agent['id']}.sandbox.docker", ("agents", "list", i, "sandbox", "docker")))
    if not unused:
        return []
    return [finding(WARN, "sandbox docker settings are set where the sandbox is off",
                    f"{', '.join(u for u, _p in unused)}: none of it applies until the sandbox mode is on, so "
                    "these agents run on the host", 'turn the sandbox on (vora config set agents.defaults.sandbox.mode '
                    '"non-main" or "all"), or remove the unused docker settings', **at(install, *unused[0][1]),
                    gateway=("sandbox.docker_config_mode_off",))]


def check_nodes(install: Install) -> CheckResult:
    """Paired devices' commands that act on the world (camera, screen, contacts, calendar,
    reminders, SMS), allowed by `gateway.nodes.allowCommands` and not denied."""
    if install.config is None:
        return skipped("nodes")
    config = install.runtime
    gateway = as_dict(config.get("gateway"))
    nodes = as_dict(gateway.get("nodes"))
    allow = {js_trim(v) for v in nodes.get("allowCommands") or () if isinstance(v, str)} \
        if isinstance(nodes.get("allowCommands"), list) else set()
    deny_raw = nodes.get("denyCommands")
    deny = {js_trim(v) for v in deny_raw if isinstance(v, str)} if isinstance(deny_raw, list) else set()
    dangerous = [c for c in DANGEROUS_NODE_COMMANDS if c in allow and c not in deny]
    found: list[Finding] = _ineffective_denies(install, nodes)
    if dangerous:
        bind = gateway["bind"] if isinstance(gateway.get("bind"), str) else "loopback"
        exposed = bind != "loopback" or as_dict(gateway.get("tailscale")).get("mode") in ("serve", "funnel")
        found.append(finding(CRITICAL if exposed else WARN, "paired devices may take photos, record or send",
                             f"gateway.nodes.allowCommands includes {', '.join(dangerous)}: whoever holds the gateway "
                             "credential can act through your devices" + (" (and the gateway is reachable from "
                                                                          "other machines)" if exposed else ""),
                             "remove them from gateway.nodes.allowCommands, or keep the gateway on loopback",
                             **at(install, "gateway", "nodes", "allowCommands"),
                             gateway=("gateway.nodes.allow_commands_dangerous",)))
    return check_result("nodes", found, "no dangerous node command is allowed")


def _known_node_commands(nodes: dict[str, Any]) -> list[str]:
    """`listKnownNodeCommands`: every platform's defaults and allowCommands, in the gateway's order."""
    extra = [js_trim(v) for v in nodes.get("allowCommands") or () if isinstance(v, str)] \
        if isinstance(nodes.get("allowCommands"), list) else []
    return list(dict.fromkeys(c for base in NODE_DEFAULT_COMMANDS.values() for c in (*base, *extra) if c))


def _looks_like_pattern(value: str) -> bool:
    return bool(re.search(r"[?*\[\]{}(),|]", value) or value.startswith(("/", "^")) or value.endswith(("/", "$"))
                or re.search(r"\s", value) or "group:" in value)


def _edit_distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, row[0] = row[0], i
        for j in range(1, len(b) + 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
    return row[len(b)]


def _suggest(unknown: str, known: list[str]) -> list[str]:
    """`suggestKnownNodeCommands`: up to three commands sharing the first two dotted parts, else the nearest."""
    needle = unknown.strip()
    prefix = ".".join(needle.split(".")[:2]) if "." in needle else needle
    if hits := [c for c in known if c.startswith(prefix)][:3]:
        return hits
    ranked = sorted(((_edit_distance(needle, c), c) for c in known), key=lambda r: (r[0], r[1].lower(), r[1]))
    threshold = max(2, min(4, ranked[0][0])) if ranked else 0
    return [c for d, c in ranked if d <= threshold][:3]


def _ineffective_denies(install: Install, nodes: dict[str, Any]) -> list[Finding]:
    """denyCommands entries that never match: the gateway compares exact command names, so a
    pattern, shell text or a misspelt name denies nothing."""
    deny_raw = nodes.get("denyCommands")
    if not isinstance(deny_raw, list):
        return []
    deny = [t for t in (js_trim(v) for v in deny_raw if isinstance(v, str)) if t]
    known = _known_node_commands(nodes)
    patterns = [d for d in deny if _looks_like_pattern(d)]
    unknown = [d for d in deny if not _looks_like_pattern(d) and d not in known]
    if not patterns and not unknown:
        return []
    parts = []
    if patterns:
        parts.append(f"patterns {', '.join(patterns)} (only exact command names match)")
    if unknown:
        named = [f"{u} (did you mean {', '.join(s)}?)" if (s := _suggest(u, known)) else u for u in unknown]
        parts.append(f"unknown commands {', '.join(named)}")
    return [finding(WARN, "some gateway.nodes.denyCommands entries deny nothing",
                    "; ".join(parts) + ": the deny list matches exact node command names (such as system.run), "
                    "never the shell text inside a command",
                    f"use exact command names (for example {', '.join(known[:8])}); to block more, take the "
                    "commands out of gateway.nodes.allowCommands and tighten tools.exec",
                    **at(install, "gateway", "nodes", "denyCommands"),
                    gateway=("gateway.nodes.deny_commands_ineffective",))]


def _bin_name(raw: str) -> str:
    """`normalizeSafeBinName`: lowercased, its last path part, without .exe/.cmd/.bat/.com."""
    text = js_trim(raw).lower()
    return re.sub(r"\.(?:exe|cmd|bat|com)$", "", re.split(r"[\\/]", text)[-1], flags=re.IGNORECASE) if text else ""


def _safe_bins(value: Any) -> list[str]:
    return sorted({js_trim(v).lower() for v in value if isinstance(v, str) and js_trim(v)}) \
        if isinstance(value, list) else []


def _profiles(*execs: dict[str, Any]) -> set[str]:
    return {js_trim(k).lower() for e in execs for k in as_dict(e.get("safeBinProfiles")) if js_trim(k)}


def safe_bin_findings(install: Install) -> list[Finding]:
    """Interpreters in `safeBins` without a `safeBinProfiles` entry, and tools with broad semantics
    (jq, awk, sed): safeBins skip the approval prompt, so these run any program they are given."""
    config = install.runtime
    global_exec = as_dict(as_dict(config.get("tools")).get("exec"))
    scopes: list[tuple[str, tuple[str | int, ...], list[str], set[str]]] = []
    if bins := _safe_bins(global_exec.get("safeBins")):
        scopes.append(("tools.exec", ("tools", "exec", "safeBins"), bins, _profiles(global_exec)))
    agents = as_dict(config.get("agents")).get("list")
    for i, agent in enumerate(agents if isinstance(agents, list) else ()):
        if not isinstance(agent, dict) or not isinstance(agent.get("id"), str):
            continue
        local = as_dict(as_dict(agent.get("tools")).get("exec"))
        if bins := _safe_bins(local.get("safeBins")):
            scopes.append((f"agents.list.{agent['id']}.tools.exec", ("agents", "list", i, "tools", "exec", "safeBins"),
                           bins, _profiles(global_exec, local)))
    interpreters, broad = [], []
    for label, path, bins, profiled in scopes:
        names = [n for n in (_bin_name(b) for b in bins) if n]
        unprofiled = sorted(n for n in names if (n in INTERPRETER_BINS or _INTERPRETER.match(n)) and n not in profiled)
        if unprofiled:
            interpreters.append((label, path, unprofiled))
        risky = sorted(dict.fromkeys(n for n in names if n in BROAD_BINS))
        if risky:
            broad.append((label, path, risky))
    found: list[Finding] = []
    if interpreters:
        found.append(finding(WARN, "safeBins lets interpreters run without a prompt",
                             "; ".join(f"{label}.safeBins: {', '.join(bins)}" for label, _p, bins in interpreters)
                             + ": an interpreter in safeBins runs any script it is handed",
                             "remove them from safeBins (allow them by path in exec approvals instead), or give each "
                             "a tools.exec.safeBinProfiles entry", **at(install, *interpreters[0][1]),
                             gateway=("tools.exec.safe_bins_interpreter_unprofiled",)))
    if broad:
        found.append(finding(WARN, "safeBins holds tools that can do more than filter text",
                             "; ".join(f"{label}.safeBins: {', '.join(f'{b} ({BROAD_BINS[b]})' for b in bins)}"
                                       for label, _p, bins in broad),
                             "remove them from safeBins and allow them by path in exec approvals, or ask each time",
                             **at(install, *broad[0][1]), gateway=("tools.exec.safe_bins_broad_behavior",)))
    return found + _trusted_dir_findings(install, global_exec)


def risky_trusted_dir(entry: str) -> str | None:
    """Why a `safeBinTrustedDirs` entry is not a trust boundary (`classifyRiskySafeBinTrustedDir`):
    a binary found there runs as a safeBin, so whoever can write there runs code unasked."""
    raw = entry.strip()
    if not raw.startswith("/"):
        return "a relative path, resolved against wherever the gateway was started" if raw else None
    normal = _host_path(raw).lower()
    if any(normal == t or normal.startswith(t + "/") for t in ("/tmp", "/var/tmp", "/private/tmp")):
        return "a temporary directory anyone can drop files in"
    if normal in ("/usr/local/bin", "/opt/homebrew/bin", "/opt/local/bin", "/home/linuxbrew/.linuxbrew/bin"):
        return "a package manager's bin directory, often writable by the user"
    if normal.startswith(("/users/", "/home/")) or "/.local/bin" in normal:
        return "a bin directory in a home, writable by its user"
    return None


def _trusted_dir_findings(install: Install, global_exec: dict[str, Any]) -> list[Finding]:
    scopes: list[tuple[str, tuple[str | int, ...], Any]] = [
        ("tools.exec", ("tools", "exec", "safeBinTrustedDirs"), global_exec.get("safeBinTrustedDirs"))]
    agents = as_dict(install.runtime.get("agents")).get("list")
    for i, agent in enumerate(agents if isinstance(agents, list) else ()):
        if isinstance(agent, dict) and isinstance(agent.get("id"), str):
            scopes.append((f"agents.list.{agent['id']}.tools.exec", ("agents", "list", i, "tools", "exec",
                                                                     "safeBinTrustedDirs"),
                           as_dict(as_dict(agent.get("tools")).get("exec")).get("safeBinTrustedDirs")))
    hits: list[tuple[str, tuple[str | int, ...]]] = []
    for label, path, value in scopes:
        entries = dict.fromkeys(t for t in (v.strip() for v in value if isinstance(v, str)) if t) \
            if isinstance(value, list) else {}
        hits += [(f"{label}.safeBinTrustedDirs: {e} ({why})", path) for e in entries if (why := risky_trusted_dir(e))]
    if not hits:
        return []
    return [finding(WARN, "safeBinTrustedDirs trusts directories others can write to",
                    "; ".join(h for h, _p in hits) + ": a program placed there runs as a safeBin, without a prompt",
                    "keep the default trusted dirs (/bin, /usr/bin) and remove these, or make them root-owned",
                    **at(install, *hits[0][1]), gateway=("tools.exec.safe_bin_trusted_dirs_risky",))]

