"""npm specs, `npm pack` and production-dependency installs through the real `npm`.

vora never runs plugin code: both npm calls pass `--ignore-scripts`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from vora_cli.core.errors import VoraError

_NAME = r"(?:@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*"
_SEMVER = r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?"
_TAG = r"[A-Za-z][A-Za-z0-9._-]*"
NPM_SPEC_RE = re.compile(rf"^(?P<name>{_NAME})(?:@(?P<ref>{_SEMVER}|{_TAG}))?$", re.IGNORECASE)
_NPM_ENV = {
    "npm_config_update_notifier": "false",
    "npm_config_fund": "false",
    "npm_config_audit": "false",
    "npm_config_loglevel": "error",
}


@dataclass(frozen=True)
class NpmSpec:
    raw: str
    name: str
    ref: str | None  # exact version, tag, or None (latest)


@dataclass(frozen=True)
class PackResult:
    """What `npm pack --json` reported for one package."""

    tarball: Path
    name: str
    version: str
    integrity: str | None
    shasum: str | None


def looks_like_npm_spec(spec: str) -> bool:
    """Whether `spec` is an npm spec vora accepts (`parse_npm_spec` would return it)."""
    return NPM_SPEC_RE.match(spec) is not None and not any(c.isspace() for c in spec)


def parse_npm_spec(spec: str) -> NpmSpec:
    """`name`, `name@1.2.3`, `name@tag`, `@scope/name@…`; no ranges, URLs, git refs or whitespace."""
    match = NPM_SPEC_RE.match(spec)
    if not match or any(c.isspace() for c in spec):
        raise VoraError(
            "usage",
            f"not a plugin source vora accepts: {spec!r}",
            "give a folder, an archive (.zip, .tgz, .tar.gz, .tar), a .js/.ts file, file:PATH, "
            "or an npm spec: name, name@1.2.3, name@tag, @scope/name (no ranges, URLs or git refs)",
        )
    return NpmSpec(raw=spec, name=match.group("name"), ref=match.group("ref"))


def npm_executable() -> str:
    import shutil

    found = shutil.which("npm")
    if found is None:
        raise VoraError(
            "external",
            "npm is not on PATH: installing from npm (or installing a plugin's dependencies) needs it",
            "install Node.js (which brings npm), or install the plugin from a folder or an archive",
        )
    return found


def npm_env() -> dict[str, str]:
    """npm's environment: quiet, and its download cache in vora's user cache dir (`vora settings
    path --json` shows its size), so `plugins update` re-fetches from there. An operator's own
    npm cache setting wins."""
    env = {**os.environ, **_NPM_ENV}
    if not any(name.lower() == "npm_config_cache" for name in os.environ):
        from vora_cli.core.userdirs import npm_cache_dir

        env["npm_config_cache"] = str(npm_cache_dir())
    return env


def _run_npm(args: list[str], cwd: Path, what: str) -> str:
    import subprocess

    command = [npm_executable(), *args]
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, check=False,
            env=npm_env(), stdin=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise VoraError("external", f"cannot run npm: {exc}") from exc
    if done.returncode != 0:
        reason, log = npm_failure(done.stderr or done.stdout or "", done.returncode)
        hint = (f"npm's full log: {log}" if log else
                "npm named no log; run it by hand to see all it says (npm pack SPEC, or npm install in the plugin folder)")
        raise VoraError("external", f"{what} failed: {reason}", hint)
    return done.stdout


# What npm prefixes its error lines with (npm 7+: "npm error", older: "npm ERR!"), and the lines
# that only repeat a code ("code E404", "404", "errno -3008").
_NPM_PREFIXES = ("npm error", "npm ERR!")
_NPM_CODE_ONLY = re.compile(r"(?:code|errno|syscall) +\S+|\d{3}")
_NPM_LOG = "A complete log of this run can be found in:"


def npm_failure(output: str, returncode: int) -> tuple[str, str | None]:
    """npm's reason in one line (its first error line that says more than a code) and its debug
    log, so the error stays one line and names what npm said (spec README, one-line errors)."""
    reason: str | None = None
    log: str | None = None
    log_next = False  # npm 6 puts the log's path on the line after the words
    for raw in output.splitlines():
        line = raw.strip()
        for prefix in _NPM_PREFIXES:
            if line.startswith(prefix):
                line = line[len(prefix):].strip()
                break
        if not line:
            continue
        if log_next:
            log, log_next = line, False
        elif line.startswith(_NPM_LOG):
            log = line[len(_NPM_LOG):].strip() or None
            log_next = log is None
        elif reason is None and _NPM_CODE_ONLY.fullmatch(line) is None:
            reason = line[:300]
    return reason or f"exit code {returncode}", log


def npm_pack(spec: str, dest: Path) -> PackResult:
    """Fetch `spec` as a tarball into `dest` with `npm pack --ignore-scripts --json`."""
    out = _run_npm(["pack", spec, "--ignore-scripts", "--json", "--pack-destination", str(dest)], dest,
                   f"npm pack {spec}")
    try:
        data = json.loads(out)
        item = data[0] if isinstance(data, list) else data
        tarball = dest / str(item["filename"]).replace("/", "-").lstrip("@")
        if not tarball.is_file():
            tarball = dest / str(item["filename"])
        return PackResult(
            tarball=tarball,
            name=str(item["name"]),
            version=str(item["version"]),
            integrity=item.get("integrity"),
            shasum=item.get("shasum"),
        )
    except (ValueError, LookupError, TypeError) as exc:
        raise VoraError("external", f"npm pack {spec}: unexpected output ({exc}): {out[:300]}") from exc


def npm_install_production(package_root: Path, shown_as: str | None = None) -> None:
    """Install `dependencies` (not devDependencies) inside the staged copy (`shown_as`: what the
    user gave, named in errors instead of the staging path)."""
    where = f"the staged copy of {shown_as}" if shown_as else str(package_root)
    _run_npm(["install", "--omit=dev", "--ignore-scripts", "--no-package-lock"], package_root,
             f"npm install in {where}")
