"""npm specs, `npm pack` and production-dependency installs through the real `npm`.

vora never runs plugin code: both npm calls pass `--ignore-scripts`.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from vora_cli.core import nesting
from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass

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
    """An npm package spec split into its name and its version or tag."""
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


def _run_npm(args: list[str], cwd: Path, what: str, *, stream: bool = False) -> str:
    """Run npm; its output is captured (and its reason quoted on failure), or with `stream` its
    progress goes straight to vora's stderr (stdout stays clean for vora's own output)."""
    import subprocess
    import sys

    command = [npm_executable(), *args]
    try:
        if stream:
            env = {**npm_env(), "npm_config_loglevel": "http", "npm_config_progress": "true"}
            done = subprocess.run(command, cwd=cwd, stdout=sys.stderr.fileno(), stderr=sys.stderr.fileno(),
                                  text=True, check=False, env=env, stdin=subprocess.DEVNULL)
        else:
            done = subprocess.run(
                command, cwd=cwd, capture_output=True, text=True, check=False,
                env=npm_env(), stdin=subprocess.DEVNULL,
            )
    except OSError as exc:
        raise VoraError("external", f"cannot run npm: {exc}") from exc
    if done.returncode != 0:
        if stream:
            raise VoraError("external", f"{what} failed (exit code {done.returncode}); npm's output is above", None)
        reason, log = npm_failure(done.stderr or done.stdout or "", done.returncode)
        hint = (f"npm's full log: {log}" if log else
                "npm named no log; run it by hand to see all it says (npm pack SPEC, or npm install in the plugin folder)")
        raise VoraError("external", f"{what} failed: {reason}", hint)
    return done.stdout or ""


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
        data = nesting.loads(out)
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


def npm_install_production(package_root: Path, shown_as: str | None = None, *, stream: bool = False,
                           lockfile: bool = False) -> None:
    """Install `dependencies` (not devDependencies) in `package_root`: the staged copy of an install
    (`shown_as`: what the user gave, named in errors instead of the staging path; no lockfile is
    written into it), or a link's own source folder (`install -l DIR --deps`, which keeps npm's
    lockfile, as `npm install` there would). `stream` shows npm's progress."""
    where = f"the staged copy of {shown_as}" if shown_as else str(package_root)
    args = ["install", "--omit=dev", "--ignore-scripts", *([] if lockfile else ["--no-package-lock"])]
    _run_npm(args, package_root, f"npm install in {where}", stream=stream)


def tarball_integrity(path: Path) -> str:
    """The tarball's Subresource Integrity string, as npm computes it (`sha512-<base64>`)."""
    import base64
    import hashlib

    digest = hashlib.sha512()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def verify_tarball(pack: PackResult) -> None:
    """The fetched tarball must be the one npm's metadata names (its `integrity`): a download that
    does not match is refused before one byte of it is extracted."""
    integrity = pack.integrity or ""
    if not (integrity.startswith("sha512-") and len(integrity) == len("sha512-") + 88):
        return  # npm names no sha512 of the tarball (an old registry entry has only a sha1 shasum)
    actual = tarball_integrity(pack.tarball)
    if actual != pack.integrity:
        raise VoraError("refused", f"{pack.name}@{pack.version}: the fetched tarball's integrity {actual} is not "
                        f"the registry's {pack.integrity}; nothing was installed",
                        "fetch it again (npm cache verify), and check the registry you use")


def record_fields(pack: PackResult, now: str) -> dict[str, str]:
    """What an npm install records about the fetched package, as the gateway does
    (`resolvedName`, `resolvedVersion`, `resolvedSpec`, `integrity`, `shasum`, `resolvedAt`)."""
    fields = {"resolvedName": pack.name, "resolvedVersion": pack.version, "resolvedSpec": f"{pack.name}@{pack.version}"}
    if pack.integrity:
        fields["integrity"] = pack.integrity
    if pack.shasum:
        fields["shasum"] = pack.shasum
    fields["resolvedAt"] = now
    return fields
