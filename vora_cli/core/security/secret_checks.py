"""Secrets stored as plain text: the gateway's `secrets audit`; a finding names the key and where it is
written, never the value (docs/security.md, "Secrets").
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.doctor.model import WARN, CheckResult, Evidence, Install
from vora_cli.core.security.model import Finding, check_result, finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# `NAME=value` / `export NAME=value` in a .env file; linear: anchored, one class per run.
_ENV_LINE = re.compile(r"[ \t]*+(?:export[ \t]++)?([A-Za-z_][A-Za-z0-9_]*+)[ \t]*+=[ \t]*+(.*)")
# What the gateway itself reads from the environment instead of the config.
ENV_INSTEAD: dict[tuple[str | int, ...], str] = {("gateway", "auth", "token"): "VORA_GATEWAY_TOKEN",
               ("gateway", "auth", "password"): "VORA_GATEWAY_PASSWORD"}


def plain_secrets(value: Any) -> Iterator[tuple[str | int, ...]]:
    """The paths of plain-text secrets in a config tree (SecretRefs and `${VAR}` left out): at a
    secret path, or a value that says it is one (a well-known token under any key)."""
    from vora_cli.core.secrets import is_env_placeholder, is_secret_ref, secret_leaves

    for path, leaf in secret_leaves(value, prune=is_secret_ref, shaped=True):
        if isinstance(leaf, str) and leaf.strip() and not is_env_placeholder(leaf):
            yield path


def _env_name(path: tuple[str | int, ...]) -> str:
    words = [re.sub(r"[^A-Za-z0-9]+", "_", str(p)).strip("_").upper() for p in path if not isinstance(p, int)]
    return "_".join(w for w in words if w)


def _config_findings(install: Install) -> list[Finding]:
    from vora_cli.core.json5.path_syntax import format_config_path

    out: list[Finding] = []
    if install.config is None:
        return out
    hooks = install.runtime.get("hooks")
    hooks_on = isinstance(hooks, dict) and hooks.get("enabled") is True
    for file in install.config.files:
        for path in plain_secrets(file.value):
            key = format_config_path(path)
            pos = file.doc.get_node_position(list(path)) if file.doc is not None else None
            line, col = pos if pos else (None, None)
            env = ENV_INSTEAD.get(path)
            if env:
                remedy = f"move it to the gateway's environment ({env}), then: vora config unset {key}"
            else:
                var = _env_name(path)
                remedy = (f"move it to the environment: vora config set {key} '${{{var}}}' and export {var} where the "
                          f'gateway runs (or a SecretRef: {{source: "env", provider: "default", id: "{var}"}})')
            gateway: tuple[str, ...] = ()
            if path == ("gateway", "auth", "password"):
                gateway = ("config.secrets.gateway_password_in_config",)
            elif path == ("hooks", "token") and hooks_on:
                gateway = ("config.secrets.hooks_token_in_config",)
            out.append(finding(WARN, "a secret is stored in the config as plain text",
                               f"{key} in {file.path.name}: anyone who reads the file, a backup or a copy has it",
                               remedy, file=file.path, line=line, col=col, key=key, gateway=gateway))
    return out


def _read_json(path: Path) -> Any:
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes

    try:
        data = read_bytes(path)
    except VoraError:
        return None
    if data is None:
        return None
    try:
        return nesting.loads(data)
    except ValueError:
        return None


def _store_findings(install: Install) -> list[Finding]:
    from vora_cli.core.security.file_checks import agent_ids

    out: list[Finding] = []
    for agent_id in agent_ids(install):
        folder = install.paths.state_dir / "agents" / agent_id / "agent"
        profiles = _read_json(folder / "auth-profiles.json")
        entries = profiles.get("profiles") if isinstance(profiles, dict) else None
        for profile_id, entry in (entries.items() if isinstance(entries, dict) else ()):
            for field in ("key", "token"):
                value = entry.get(field) if isinstance(entry, dict) else None
                if isinstance(value, str) and value.strip():
                    out.append(finding(WARN, "an auth profile holds a plain-text credential",
                                       f"profiles.{profile_id}.{field} in {folder.name}/auth-profiles.json (agent "
                                       f"{agent_id})", "replace it with a SecretRef, or keep the file 0600 (the "
                                       "credentials check)", file=folder / "auth-profiles.json",
                                       key=f"profiles.{profile_id}.{field}"))
        models = _read_json(folder / "models.json")
        providers = models.get("providers") if isinstance(models, dict) else None
        for provider, entry in (providers.items() if isinstance(providers, dict) else ()):
            value = entry.get("apiKey") if isinstance(entry, dict) else None
            if isinstance(value, str) and value.strip() and not value.strip().startswith("${"):
                out.append(finding(WARN, "models.json holds a plain-text API key",
                                   f"providers.{provider}.apiKey (agent {agent_id}; the gateway writes it from the "
                                   "config)", "give the provider's key by environment variable in the config",
                                   file=folder / "models.json", key=f"providers.{provider}.apiKey"))
    return out


def _env_file_findings(install: Install) -> list[Finding]:
    from vora_cli.core.errors import VoraError
    from vora_cli.core.reading import read_bytes
    from vora_cli.core.secrets import is_secret_name
    from vora_cli.core.security.model import unreadable

    path = install.paths.config_dir / ".env"
    try:
        data = read_bytes(path, 4 * 1024 * 1024)  # enough bytes for the first 1 Mi characters
    except VoraError as error:
        return [unreadable(path, error.message)]
    if data is None:
        return []
    text = data.decode("utf-8", "replace")[: 1024 * 1024]
    out: list[Finding] = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _ENV_LINE.fullmatch(line)
        if match is None or not is_secret_name(match.group(1)):
            continue
        value = match.group(2).strip().strip("\"'")
        if value and not value.startswith("${"):
            out.append(finding(WARN, "a .env file holds a secret", f"{match.group(1)} at line {number} of {path}",
                               "keep it out of the config dir, or at least 0600 (the config-files check)",
                               file=path, line=number, col=1, key=match.group(1)))
    return out


def check_plaintext_secrets(install: Install) -> CheckResult:
    found = _config_findings(install) + _store_findings(install) + _env_file_findings(install)
    ok = "no secret is stored as plain text" if install.config is not None else \
        "no plain-text secret outside the config (the config does not parse)"
    return check_result("plaintext-secrets", found, ok, evidence=Evidence(files=(str(install.paths.config_path),)))
