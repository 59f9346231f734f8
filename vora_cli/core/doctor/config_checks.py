"""Checks on the config file and the state dir: config-file, config-syntax, config-schema,
config-secrets, state-dir, newer-gateway and gateway-auth (spec doctor.md, "Checks").

Why one module: every check here judges the config file or the folder that holds it, through the same two helpers (its mode, the skip when it cannot be read).
"""

from __future__ import annotations

from pathlib import Path

from vora_cli.core.doctor.model import (
    ERROR,
    FIX_CHMOD,
    FIX_COMMAND,
    FIX_CONFIG,
    INFO,
    PASS,
    SKIP,
    WARN,
    CheckResult,
    ChmodOp,
    Evidence,
    Fix,
    Location,
    file_mode,
    linked_text,
    other_names,
    own_file_fix,
)
from vora_cli.core.errors import ParseError
from vora_cli.core.install import Install
from vora_cli.core.json5.path_syntax import ConfigPath
from vora_cli.core.records import replace
from vora_cli.core.secrets import (
    REDACTED,
    hide_literal_values,
    is_env_placeholder,
    mentions_secret_name,
    redact_text,
    secret_leaves,
)
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SOURCE_TEXT = {
    "flag": "--config/--state-dir flag",
    "env": "environment (VORA_CONFIG_PATH / VORA_STATE_DIR)",
    "profile": "--profile",
    "default": "default location",
}
# The offending line is shown as a window this wide around the error (a minified config or a
# one-line PEM can make a line megabytes long).
EXCERPT_CHARS = 120


def _config_skip(check_id: str, install: Install, evidence: Evidence) -> CheckResult:
    return CheckResult(check_id, SKIP, "skipped: the config does not parse (see config-syntax)", evidence=evidence)


# -- config-file --------------------------------------------------------------------------------

def check_config_file(install: Install) -> CheckResult:
    paths = install.paths
    path = paths.config_path
    source = SOURCE_TEXT.get(paths.config_source, paths.config_source)
    evidence = Evidence(files=(str(path),))
    if not path.exists():
        if path.is_symlink():
            return CheckResult("config-file", ERROR, f"{path} is a dangling symlink", (f"from the {source}",),
                               evidence, Fix("config-file", FIX_COMMAND, "point the link at a config file",
                                             f"ls -l {path}"))
        return CheckResult("config-file", INFO, f"no config file at {path}: an empty config, defaults apply",
                           (f"from the {source}", "create one with: vora config set gateway.mode local"), evidence)
    if path.is_dir():
        return CheckResult("config-file", ERROR, f"{path} is a directory, not a config file",
                           (f"from the {source}",), evidence)
    if not path.is_file():  # a FIFO or device: opening it could block forever
        return CheckResult("config-file", ERROR, f"{path} is not a regular file",
                           (f"from the {source}",), evidence)
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        return CheckResult("config-file", ERROR, f"{path} cannot be read: {error.strerror}",
                           (f"from the {source}",), evidence,
                           Fix("config-file", FIX_COMMAND, "make the file readable by this user", f"ls -l {path}"))
    details = [f"from the {source}"]
    files = [str(path)]
    if install.config is not None:
        for included in install.config.files[1:]:
            details.append(f"includes {included.path}")
            files.append(str(included.path))
    return CheckResult("config-file", PASS, f"{path} (from the {source})", tuple(details[1:]),
                       Evidence(files=tuple(files)))


# -- config-syntax ------------------------------------------------------------------------------

def offending_excerpt(path: Path, error: ParseError) -> str | None:
    """At most EXCERPT_CHARS of the line the parse error points at, secrets redacted.

    Cut first, redact second: only the shown text is scanned. When the error sits inside a secret
    (`error.hidden`), the line is shown only up to the error, so the secret's text never is."""
    from vora_cli.core.config.loading import raw_config_text

    text = raw_config_text(path)
    if text is None:
        return None
    lines = text.splitlines()
    if not 0 < error.line <= len(lines):
        return None
    line = lines[error.line - 1]
    col = max(error.col - 1, 0)
    start = max(0, col - EXCERPT_CHARS // 2)
    end = col if error.hidden else min(len(line), start + EXCERPT_CHARS)
    # Once a secret name appears anywhere up to the shown text, values are hidden and keys kept:
    # a secret subtree may close earlier on this very line (`main: "xoxb-…" }, port: 1 2`).
    if error.hidden or mentions_secret_name(line, 0, end) or any(map(mentions_secret_name, lines[: error.line - 1])):
        shown = hide_literal_values(line, start, end, keep_at=None if error.hidden else col,
                                    words_from=0 if error.hidden else col + 1)
    else:
        shown = line[start:end]
    shown = redact_text(shown.strip())
    if error.hidden:
        return ("…" if start else "") + f"{shown} {REDACTED}"
    return ("…" if start else "") + shown + ("…" if end < len(line) else "")


def check_config_syntax(install: Install) -> CheckResult:
    path = install.paths.config_path
    evidence = Evidence(files=(str(path),))
    error = install.config_error
    if error is None:
        if install.config is None or not install.config.exists:
            return CheckResult("config-syntax", PASS, "no config file to parse", evidence=evidence)
        n = len(install.config.files)
        what = "parses" if n == 1 else f"and its {plural(n - 1, 'included file')} parse"
        return CheckResult("config-syntax", PASS, f"{path.name} {what} (JSON5)",
                           evidence=Evidence(files=tuple(str(f.path) for f in install.config.files)))
    message = error.message
    details: list[str] = []
    locations: tuple[Location, ...] = (Location(str(path)),)
    if isinstance(error, ParseError):  # positions are data: file, line, col (never parsed back)
        bad_file = Path(error.file)
        evidence = Evidence(files=(str(bad_file),))
        text = offending_excerpt(bad_file, error)
        if text is not None:
            details.append(f"{error.line} | {text}")
        # `what` already hides the parser's quote when it sits in a secret (error.hidden)
        locations = (Location(error.file, error.line, error.col, error.what),)
    if error.hint:
        details.append(f"next: {error.hint}")
    return CheckResult("config-syntax", ERROR, message, tuple(details), evidence,
                       Fix("config-syntax", FIX_COMMAND, "fix the file by hand", "vora config edit"), locations)


# -- config-schema ------------------------------------------------------------------------------

def check_config_schema(install: Install) -> CheckResult:
    evidence = Evidence(files=(str(install.paths.config_path),))
    if install.config is None:
        return _config_skip("config-schema", install, evidence)
    from vora_cli.core.config.validation import validation_problems
    from vora_cli.core.plugins.facts import facts_of

    problems = validation_problems(install.config, facts_of(install.plugins, install.paths))
    if not problems:
        return CheckResult("config-schema", PASS, "the gateway's validator accepts the config "
                           "(its schema, its rules, every plugin's configSchema)", evidence=evidence)
    errors = [p for p in problems if p.severity == "error"]
    warnings = [p for p in problems if p.severity == "warn"]
    legacy = [p for p in problems if p.severity == "info"]
    details = tuple(p.line_text() for p in problems)
    config_paths = tuple(dict.fromkeys(p.path for p in problems if p.path))
    files = tuple(dict.fromkeys(p.file for p in problems))
    evidence = Evidence(config=config_paths, files=files)
    fix = Fix("config-schema", FIX_COMMAND, "correct the keys named above (vora config validate checks again)",
              "vora config edit")
    # Errors first: the check's own location is its worst finding.
    status_of = {"error": ERROR, "warn": WARN, "info": INFO}
    locations = tuple(Location(p.file, p.line, p.col, _problem_text(p), status_of[p.severity])
                      for p in (*errors, *warnings, *legacy))
    if not errors and not warnings:
        # Legacy keys only: the gateway starts on them; said once, so a later release that drops
        # the migration does not come as a surprise.
        first = legacy[0]
        message = f"the gateway rewrites {plural(len(legacy), 'legacy key')} as it reads the config: {first.path}"
        return CheckResult("config-schema", INFO, message, details, evidence, _legacy_fix(install), locations)
    if errors:
        from vora_cli.core.config.gateway import ROOT

        first = errors[0]
        where = first.gateway_path if first.gateway_path not in (None, "", ROOT) else \
            first.path or f"{Path(first.file).name} (top level)"
        message = f"the gateway would refuse to start: {plural(len(errors), 'problem')}; {where}: {first.message}"
        if first.unknown or first.near:
            from vora_cli.core.config.gateway import unknown_key_text

            message += unknown_key_text(first.message, first.unknown, first.near)
        elif first.suggestion:
            message += f" (did you mean {first.suggestion}?)"
        if first.expected:
            message += f" (expected {first.expected})"
        return CheckResult("config-schema", ERROR, message, details, evidence, fix, locations)
    first = warnings[0]
    message = f"{plural(len(warnings), 'unknown or questionable key')}: {first.path or first.message}"
    if legacy:
        message += f"; {plural(len(legacy), 'legacy key')} the gateway rewrites"
    if first.suggestion:
        message += f" (did you mean {first.suggestion}?)"
    # A warning (an unset ${VAR}, a stale plugin entry) does not stop the legacy keys' rewrite: real
    # installs nearly always have one. The rewrite is the fix; the warnings are edited by hand.
    legacy_fix = _legacy_fix(install) if legacy else None
    if legacy_fix is not None:
        fix = replace(legacy_fix, description=legacy_fix.description + "; then correct the keys the warnings name",
                      alternatives=("vora config edit",))
    return CheckResult("config-schema", WARN, message, details, evidence, fix, locations)


def _legacy_fix(install: Install) -> Fix | None:
    """`--fix config-schema` (only when named): the legacy keys written as the gateway reads them,
    through the one lossless editor (comments and layout kept; `${VAR}` placeholders as written:
    the config as written is migrated, not the resolved one)."""
    from vora_cli.core.config.loading import MISSING
    from vora_cli.core.config.migrations import doctor_fixed
    from vora_cli.core.config.writing import changed_members

    if install.config is None:
        return None
    written = install.config.value
    migrated = doctor_fixed(install.config.migrated_as_written())
    changes = changed_members(written, migrated) if migrated is not written else []
    if not changes:
        return None
    unset = tuple(path for path, _old, new, _action in changes if new is MISSING)
    sets = tuple((path, new) for path, _old, new, _action in changes if new is not MISSING)
    return Fix("config-schema", FIX_CONFIG, "write the legacy keys in the form the gateway reads them (comments kept)",
               "vora doctor --fix config-schema", unset=unset, set=sets)


def _problem_text(problem: Any) -> str:
    """A schema problem without its `file:line:col` (the location carries those)."""
    return f"{problem.severity}: {problem.said()}"


# -- config-secrets -----------------------------------------------------------------------------

def _secret_paths(value: Any) -> list[ConfigPath]:
    return [path for path, leaf in secret_leaves(value, shaped=True)
            if isinstance(leaf, str) and leaf.strip() and not is_env_placeholder(leaf)]


def _raw_has_secret(install: Install) -> bool:
    return any(v.strip() for v in install.raw_config_secrets)


def check_config_secrets(install: Install) -> CheckResult:
    from vora_cli.core.json5.path_syntax import format_config_path

    holding: list[tuple[Path, list[str]]] = []
    if install.config is not None:
        for f in install.config.files:
            if f.exists:
                secrets = _secret_paths(f.value)
                if secrets:
                    holding.append((f.path, [format_config_path(p) for p in secrets]))
    elif _raw_has_secret(install):
        holding.append((install.paths.config_path, []))  # unparseable: the raw text shows a secret
    if not holding:
        return CheckResult("config-secrets", PASS, "no secrets stored in the config file",
                           evidence=Evidence(files=(str(install.paths.config_path),)))
    config_paths = tuple(p for _, ps in holding for p in ps)
    files = tuple(str(f) for f, _ in holding)
    evidence = Evidence(config=config_paths, files=files)
    ops: list[ChmodOp] = []
    linked: list[tuple[ChmodOp, int]] = []  # a chmod would change its other names too: never offered
    for file, _ in holding:
        mode = file_mode(file)
        if mode is not None and mode & 0o044:
            op, links = ChmodOp(str(file), mode, 0o600), other_names(file)
            (linked.append((op, links)) if links else ops.append(op))
    if not ops and not linked:
        return CheckResult("config-secrets", PASS, "the config holds secrets and only its owner can read it",
                           tuple(f"{f}: mode {(file_mode(Path(f)) or 0):04o}" for f in files), evidence)
    exposed = [*ops, *(op for op, _ in linked)]
    details = (*(f"{op.path}: mode {op.old_mode:04o} (group/other can read it)" for op in exposed),
               *(linked_text(Path(op.path), links) for op, links in linked))
    names = ", ".join(Path(op.path).name for op in exposed)
    message = f"{names} holds secrets and is readable by group/others"
    if linked and not ops:
        op, links = linked[0]
        message += f"; {linked_text(Path(op.path), links).split(' is ', 1)[1]}"
        fix = own_file_fix("config-secrets", Path(op.path), 0o600)
    else:
        fix = Fix("config-secrets", FIX_CHMOD, "make the config readable by its owner only (chmod 600)"
                  + ("; a file with other names is left for you" if linked else ""),
                  "vora doctor --fix config-secrets", chmod=tuple(ops))
    return CheckResult(
        "config-secrets", WARN, message, details, evidence, fix,
        tuple(Location(op.path, message=f"mode {op.old_mode:04o}: group/other can read its secrets") for op in exposed),
    )


# -- state-dir ----------------------------------------------------------------------------------

def check_state_dir(install: Install) -> CheckResult:
    path = install.paths.state_dir
    evidence = Evidence(files=(str(path),))
    if not path.exists():
        return CheckResult("state-dir", INFO, f"no state dir at {path} yet: vora creates it (0700) on first write",
                           evidence=evidence)
    if not path.is_dir():
        return CheckResult("state-dir", ERROR, f"{path} is not a directory", evidence=evidence,
                           fix=Fix("state-dir", FIX_COMMAND, "move the file away", f"ls -l {path}"))
    mode = file_mode(path)
    if mode is not None and mode & 0o022:
        op = ChmodOp(str(path), mode, 0o700)
        return CheckResult(
            "state-dir", WARN, f"{path} is writable by group/others (mode {mode:04o})",
            ("anyone who can write there can replace the config, plugins and the pairing store",),
            evidence,
            Fix("state-dir", FIX_CHMOD, "make the state dir private (chmod 700)",
                "vora doctor --fix state-dir", chmod=(op,)),
        )
    return CheckResult("state-dir", PASS, f"{path} (mode {(mode or 0):04o})", evidence=evidence)


# -- newer-gateway ------------------------------------------------------------------------------

def check_newer_gateway(install: Install) -> CheckResult:
    """A state dir a newer gateway line wrote (core/newer_line.py): what vora cannot see, and that
    it writes nothing there without --force."""
    from vora_cli.core.newer_line import SQLITE

    evidence = Evidence(config=("meta.lastTouchedVersion", "agents.entries"),
                        files=(str(install.paths.config_path), str(install.paths.state_dir / SQLITE)))
    newer = install.newer_line
    if newer is None:
        return CheckResult("newer-gateway", PASS, "written by the gateway line vora follows (2026.4) or a vora",
                           evidence=evidence)
    details = (*(f"not seen: {what}" for what in newer.unseen()),
               "vora writes nothing into this state dir (config, pairing store, plugins, fixes) unless you add --force",
               "next: manage this install with the newer gateway's own CLI")
    location = Location(newer.sqlite or str(install.paths.config_path), message=newer.summary())
    return CheckResult("newer-gateway", WARN, newer.summary(), details, evidence, None, (location,))


# -- gateway-auth -------------------------------------------------------------------------------

def _set(value: Any) -> bool:
    return isinstance(value, str) and bool(value.strip())


def check_gateway_auth(install: Install) -> CheckResult:
    keys = ("gateway.bind", "gateway.auth.mode", "gateway.auth.token", "gateway.auth.password")
    evidence = Evidence(config=keys, files=(str(install.paths.config_path),))
    if install.config is None:
        return _config_skip("gateway-auth", install, evidence)
    gateway = install.runtime.get("gateway")
    gateway = gateway if isinstance(gateway, dict) else {}
    auth = gateway.get("auth")
    auth = auth if isinstance(auth, dict) else {}
    bind = gateway.get("bind") if isinstance(gateway.get("bind"), str) else "loopback"
    mode = auth.get("mode") if isinstance(auth.get("mode"), str) else None
    raw_gateway = install.config.value.get("gateway")
    raw_auth = raw_gateway.get("auth") if isinstance(raw_gateway, dict) else None
    file_token = isinstance(raw_auth, dict) and _set(raw_auth.get("token"))
    env_token = _set(install.env.get("VORA_GATEWAY_TOKEN"))
    has_token = _set(auth.get("token"))
    has_password = _set(auth.get("password"))
    token_from = "gateway.auth.token" if file_token else "VORA_GATEWAY_TOKEN" if env_token else None
    details = [f"bind: {bind}", f"auth.mode: {mode or '(unset)'}",
               f"token: {'set (' + token_from + ')' if has_token and token_from else 'set' if has_token else 'not set'}",
               f"password: {'set' if has_password else 'not set'}"]
    loopback = bind == "loopback"
    set_token = Fix("gateway-auth", FIX_COMMAND,
                    "give the gateway a token: in its config, or VORA_GATEWAY_TOKEN in the gateway's environment",
                    "openssl rand -base64 32 | vora config set gateway.auth.token --stdin --type string",
                    alternatives=('export VORA_GATEWAY_TOKEN="$(openssl rand -base64 32)"',))
    if mode == "token" and not has_token:
        return CheckResult("gateway-auth", ERROR, "gateway.auth.mode is token but no token is set "
                           "(gateway.auth.token or VORA_GATEWAY_TOKEN)", tuple(details), evidence, set_token)
    if mode == "password" and not has_password:
        return CheckResult("gateway-auth", ERROR, "gateway.auth.mode is password but gateway.auth.password is not set",
                           tuple(details), evidence,
                           Fix("gateway-auth", FIX_COMMAND,
                               "set a password (type it, then Ctrl-D: it stays out of your shell history)",
                               "vora config set gateway.auth.password --stdin --type string"))
    if not loopback and mode != "trusted-proxy" and (mode == "none" or not (has_token or has_password)):
        return CheckResult("gateway-auth", ERROR,
                           f"the gateway listens beyond this machine (bind: {bind}) without a token or password",
                           tuple(details), evidence, set_token)
    if has_token and has_password:
        return CheckResult("gateway-auth", WARN, "both a token and a password are set: keep one",
                           tuple(details), evidence,
                           Fix("gateway-auth", FIX_COMMAND, "remove the one you do not use",
                               "vora config unset gateway.auth.password"))
    if loopback and not (has_token or has_password) and mode != "trusted-proxy":
        return CheckResult("gateway-auth", INFO, "no auth: the gateway only listens on loopback (this machine)",
                           tuple(details), evidence)
    what = f"token ({token_from})" if has_token and token_from else "token" if has_token else \
        "password" if has_password else mode or "trusted proxy"
    return CheckResult("gateway-auth", PASS, f"bind {bind}, auth by {what}", tuple(details), evidence)
