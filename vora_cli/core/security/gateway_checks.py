"""Gateway exposure, read from the config, by the gateway's own rules; where vora adds one, docs/security.md
says so ("Gateway").
"""

from __future__ import annotations

from collections.abc import Sequence

from vora_cli.core.doctor.model import INFO, WARN, CheckResult, Install
from vora_cli.core.security.gateway_view import (
    GATEWAY_PLACEHOLDERS,
    HTTP_DENIED_TOOLS,
    MIN_PASSWORD_LENGTH,
    MIN_TOKEN_LENGTH,
    PLACEHOLDERS,
    TOKEN_PATH,
    text_of,
    token_fix,
    view,
)
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.shell import command_line

# -- the checks -------------------------------------------------------------------------------------

def check_gateway_auth(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-auth")
    g = view(install)
    found: list[Finding] = []
    fix_text = "vora security audit --fix gateway-token (a new random token in gateway.auth.token)"
    if g.exposed and not g.has_shared_secret and g.mode != "trusted-proxy":
        found.append(finding(CRITICAL, "the gateway listens beyond loopback without auth",
                             f'gateway.bind is "{g.bind}" and no gateway.auth token or password is set: anyone who '
                             "can reach the port is the operator", fix_text + ", or bind to loopback",
                             **at(install, "gateway", "bind"), gateway=("gateway.bind_no_auth",)))
    if not g.exposed and g.control_ui_enabled and not (g.has_shared_secret or g.tailscale_auth):
        found.append(finding(CRITICAL, "no gateway auth on loopback",
                             "every local process and user, and anything a reverse proxy forwards, can drive the "
                             "gateway and its Control UI", fix_text,
                             **at(install, "gateway", "auth", "mode"), gateway=("gateway.loopback_no_auth",)))
    return check_result("gateway-auth", found, f"auth by {g.mode}", fix=token_fix(install, g) if found else None)


def check_gateway_token(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-token")
    g = view(install)
    found: list[Finding] = []
    token = g.token
    from_env = "" if g.config_token else " (from VORA_GATEWAY_TOKEN)"
    where = at(install, *TOKEN_PATH) if g.config_token else {"file": install.paths.config_path}
    fix = "vora security audit --fix gateway-token"
    if token and g.mode == "token":
        if token.lower() in PLACEHOLDERS:
            refuses = " (the gateway refuses to start with it)" if token in GATEWAY_PLACEHOLDERS else ""
            found.append(finding(CRITICAL, "the gateway token is a placeholder",
                                 f"it is a well-known example value anyone can guess{refuses}{from_env}", fix,
                                 **where))
        elif len(token) < MIN_TOKEN_LENGTH:
            found.append(finding(WARN, "the gateway token is short",
                                 f"{len(token)} characters{from_env}; use a long random token (at least "
                                 f"{MIN_TOKEN_LENGTH})",
                                 fix, **where, gateway=("gateway.token_too_short",)))
    password = g.password
    if password and g.mode == "password":
        pwhere = at(install, "gateway", "auth", "password") if text_of(g.auth.get("password")) else {
            "file": install.paths.config_path}
        if password.lower() in PLACEHOLDERS:
            refuses = " (the gateway refuses to start with it)" if password in GATEWAY_PLACEHOLDERS else ""
            found.append(finding(CRITICAL, "the gateway password is a placeholder",
                                 f"it is a well-known example value anyone can guess{refuses}",
                                 "choose a long random password, or switch to a token: vora security audit --fix "
                                 "gateway-token after vora config set gateway.auth.mode token", **pwhere))
        elif len(password) < MIN_PASSWORD_LENGTH:
            found.append(finding(WARN, "the gateway password is short",
                                 f"{len(password)} characters; use at least {MIN_PASSWORD_LENGTH}, or a token",
                                 None, **pwhere))
    hooks = as_dict(install.runtime.get("hooks"))
    hooks_token = text_of(hooks.get("token"))
    if hooks.get("enabled") is True and hooks_token:
        if len(hooks_token) < MIN_TOKEN_LENGTH:
            found.append(finding(WARN, "the hooks token is short", f"hooks.token is {len(hooks_token)} characters",
                                 "use a long random hooks.token", **at(install, "hooks", "token"),
                                 gateway=("hooks.token_too_short",)))
        gateway_token = token if g.mode == "token" else text_of(install.env.get("VORA_GATEWAY_TOKEN"))
        if gateway_token and hooks_token == gateway_token:
            found.append(finding(CRITICAL, "the hooks token is the gateway token",
                                 "whoever holds the hook ingress token also holds the gateway API",
                                 "give hooks.token its own value", **at(install, "hooks", "token"),
                                 gateway=("hooks.token_reuse_gateway_token",)))
    weak_token = any(f.title.startswith("the gateway token") for f in found)
    offer = token_fix(install, g) if weak_token else None
    return check_result("gateway-token", found, "the gateway's token or password is long and not a placeholder",
                        fix=offer)


def check_gateway_env_token(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-env-token")
    g = view(install)
    found: list[Finding] = []
    for name, path in (("VORA_GATEWAY_TOKEN", ("gateway", "auth", "token")),
                       ("VORA_GATEWAY_PASSWORD", ("gateway", "auth", "password"))):
        value = text_of(install.env.get(name))
        if value is None:
            continue
        configured = g.config_token if name == "VORA_GATEWAY_TOKEN" else text_of(g.auth.get("password"))
        if configured is not None and configured != value:
            found.append(finding(WARN, f"{name} differs from {'.'.join(path)}",
                                 f"the gateway checks {'.'.join(path)} (the config wins); clients started from this "
                                 f"shell, vora included, send {name}, so one of the two is a stale credential",
                                 f"unset {name}, or make it the same as {'.'.join(path)}", **at(install, *path)))
        elif configured is None:
            found.append(finding(INFO, f"the gateway's credential comes from {name}",
                                 "this shell has it; the gateway has it only if its own environment does "
                                 "(a service manager's unit, a container's env)", None,
                                 file=install.paths.config_path))
    return check_result("gateway-env-token", found, "no gateway credential in the environment overrides the config")


def check_gateway_rate_limit(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-rate-limit")
    g = view(install)
    found = []
    if g.exposed and g.mode != "trusted-proxy" and not g.auth.get("rateLimit"):
        found.append(finding(WARN, "no auth rate limit", f'gateway.bind is "{g.bind}" and gateway.auth.rateLimit is '
                             "not set: nothing slows down guessing the token",
                             "vora config set gateway.auth.rateLimit '{maxAttempts: 10, windowMs: 60000, lockoutMs: 300000}'",
                             **at(install, "gateway", "bind"), gateway=("gateway.auth_no_rate_limit",)))
    return check_result("gateway-rate-limit", found, "rate limited, or listening on loopback only")


def check_control_ui(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("control-ui")
    g = view(install)
    ui = g.control_ui
    found: list[Finding] = []
    flags = "config.insecure_or_dangerous_flags"
    level = CRITICAL if g.exposed else WARN
    origins = [o.strip() for o in ui.get("allowedOrigins") or [] if isinstance(o, str) and o.strip()]
    fallback = ui.get("dangerouslyAllowHostHeaderOriginFallback") is True
    if g.control_ui_enabled and g.exposed and not origins and not fallback:
        port = g.gateway.get("port") if isinstance(g.gateway.get("port"), int) else 18789
        found.append(finding(INFO, "the Control UI has no allowed origins of its own",
                             f"the gateway allows only http://localhost:{port} and http://127.0.0.1:{port} (it seeds "
                             "them for a non-loopback bind): browsers on other machines are refused",
                             "list the origins you use in gateway.controlUi.allowedOrigins",
                             **at(install, "gateway", "bind")))
    if "*" in origins:
        found.append(finding(level, "the Control UI allows every origin",
                             'gateway.controlUi.allowedOrigins includes "*": any web page a browser opens may drive '
                             "the Control UI", "list the exact origins instead (https://control.example.com)",
                             **at(install, "gateway", "controlUi", "allowedOrigins"),
                             gateway=("gateway.control_ui.allowed_origins_wildcard",)))
    if fallback:
        found.append(finding(level, "Host-header origin fallback is on",
                             "it weakens the Control UI's DNS-rebinding protection",
                             "vora config unset gateway.controlUi.dangerouslyAllowHostHeaderOriginFallback",
                             **at(install, "gateway", "controlUi", "dangerouslyAllowHostHeaderOriginFallback"),
                             gateway=("gateway.control_ui.host_header_origin_fallback", flags)))
    if ui.get("allowInsecureAuth") is True:
        found.append(finding(WARN, "Control UI insecure auth is allowed",
                             "gateway.controlUi.allowInsecureAuth is true; serve the UI over HTTPS or localhost instead",
                             "vora config unset gateway.controlUi.allowInsecureAuth",
                             **at(install, "gateway", "controlUi", "allowInsecureAuth"),
                             gateway=("gateway.control_ui.insecure_auth", flags)))
    if ui.get("dangerouslyDisableDeviceAuth") is True:
        found.append(finding(CRITICAL, "Control UI device auth is off",
                             "gateway.controlUi.dangerouslyDisableDeviceAuth skips the device identity check",
                             "vora config unset gateway.controlUi.dangerouslyDisableDeviceAuth",
                             **at(install, "gateway", "controlUi", "dangerouslyDisableDeviceAuth"),
                             gateway=("gateway.control_ui.device_auth_disabled", flags)))
    return check_result("control-ui", found, "the Control UI checks origins and devices")


def check_gateway_proxy(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-proxy")
    g = view(install)
    found: list[Finding] = []
    proxies = [p for p in g.gateway.get("trustedProxies") or [] if isinstance(p, str)]
    if not g.exposed and g.control_ui_enabled and not proxies:
        found.append(finding(WARN, "reverse-proxy headers are not trusted",
                             "gateway.trustedProxies is empty: behind a reverse proxy every request looks local, and "
                             "local-client checks can be fooled", "set gateway.trustedProxies to your proxy's address, "
                             "or keep the Control UI local-only", **at(install, "gateway"),
                             gateway=("gateway.trusted_proxies_missing",)))
    if g.mode == "trusted-proxy":
        proxy = as_dict(g.auth.get("trustedProxy"))
        found.append(finding(CRITICAL, "auth is delegated to a reverse proxy",
                             'gateway.auth.mode is "trusted-proxy": whoever reaches the port directly, past the proxy, '
                             "is trusted; the proxy must authenticate and the port must be firewalled",
                             "check the proxy, gateway.trustedProxies and the firewall",
                             **at(install, "gateway", "auth", "mode"), gateway=("gateway.trusted_proxy_auth",)))
        if not proxies:
            found.append(finding(CRITICAL, "trusted-proxy auth without trusted proxies",
                                 "gateway.trustedProxies is empty: every request is refused",
                                 "set gateway.trustedProxies to your proxy's address", **at(install, "gateway"),
                                 gateway=("gateway.trusted_proxy_no_proxies",)))
        if not text_of(proxy.get("userHeader")):
            found.append(finding(CRITICAL, "trusted-proxy auth without a user header",
                                 "gateway.auth.trustedProxy.userHeader is not set",
                                 "set it to the header your proxy sets (x-forwarded-user)",
                                 **at(install, "gateway", "auth"), gateway=("gateway.trusted_proxy_no_user_header",)))
        if not proxy.get("allowUsers"):
            found.append(finding(WARN, "trusted-proxy auth lets every proxy user in",
                                 "gateway.auth.trustedProxy.allowUsers is empty",
                                 "list the users in gateway.auth.trustedProxy.allowUsers", **at(install, "gateway", "auth"),
                                 gateway=("gateway.trusted_proxy_no_allowlist",)))
    if g.gateway.get("allowRealIpFallback") is True:
        loopback_only = all(_loopback_proxy(p) for p in proxies)
        exposed = g.exposed or (g.mode == "trusted-proxy" and not loopback_only)
        found.append(finding(CRITICAL if exposed else WARN, "X-Real-IP fallback is on",
                             "a proxy that forwards a client's own X-Real-IP lets it pick its source address",
                             "vora config unset gateway.allowRealIpFallback",
                             **at(install, "gateway", "allowRealIpFallback"),
                             gateway=("gateway.real_ip_fallback_enabled",)))
    return check_result("gateway-proxy", found, "proxy headers are handled safely")


def _loopback_proxy(entry: str) -> bool:
    value = entry.strip().lower()
    return value in ("127.0.0.1", "::1", "127.0.0.1/32", "::1/128")


def check_tailscale(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("tailscale")
    g = view(install)
    found = []
    where = at(install, "gateway", "tailscale", "mode")
    if g.tailscale == "funnel":
        found.append(finding(CRITICAL, "Tailscale Funnel puts the gateway on the internet",
                             'gateway.tailscale.mode is "funnel": treat it as internet-facing',
                             'prefer "serve" (your tailnet only) or "off"', **where, gateway=("gateway.tailscale_funnel",)))
    elif g.tailscale == "serve":
        found.append(finding(INFO, "Tailscale Serve shares the gateway with your tailnet",
                             'gateway.tailscale.mode is "serve"', None, **where, gateway=("gateway.tailscale_serve",)))
    return check_result("tailscale", found, "no Tailscale exposure")


def check_mdns(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("mdns")
    g = view(install)
    mode = as_dict(as_dict(install.runtime.get("discovery")).get("mdns")).get("mode")
    found = []
    if mode == "full":
        found.append(finding(CRITICAL if g.exposed else WARN, "mDNS announces host details",
                             'discovery.mdns.mode is "full": the local network learns the CLI path and SSH port '
                             "(user names, folder layout)", "vora config set discovery.mdns.mode minimal",
                             **at(install, "discovery", "mdns", "mode"), gateway=("discovery.mdns_full_mode",)))
    return check_result("mdns", found, "mDNS announces the minimum")


def check_log_redaction(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("log-redaction")
    found = []
    if as_dict(install.runtime.get("logging")).get("redactSensitive") == "off":
        found.append(finding(WARN, "log redaction is off",
                             'logging.redactSensitive is "off": tool summaries with secrets go to the logs as they are',
                             "vora config set logging.redactSensitive tools",
                             **at(install, "logging", "redactSensitive"), gateway=("logging.redact_off",)))
    return check_result("log-redaction", found, "logs are redacted")


def check_gateway_http(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("gateway-http")
    g = view(install)
    found: list[Finding] = []
    endpoints = as_dict(as_dict(g.gateway.get("http")).get("endpoints"))
    enabled = [path for key, path in (("chatCompletions", "/v1/chat/completions"), ("responses", "/v1/responses"))
               if as_dict(endpoints.get(key)).get("enabled") is True]
    if g.mode == "none":
        found.append(finding(CRITICAL if g.remote else WARN, "the HTTP APIs need no auth",
                             f'gateway.auth.mode is "none": {", ".join(["/tools/invoke", *enabled])} can be called '
                             "without a secret", "vora security audit --fix gateway-token (token auth)",
                             **at(install, "gateway", "auth", "mode"), gateway=("gateway.http.no_auth",)))
    allow = {t.strip().lower() for t in as_dict(g.gateway.get("tools")).get("allow") or [] if isinstance(t, str)}
    reenabled = [t for t in HTTP_DENIED_TOOLS if t in allow]
    if reenabled:
        found.append(finding(CRITICAL if g.exposed or g.tailscale == "funnel" else WARN,
                             "HTTP /tools/invoke may run dangerous tools",
                             f"gateway.tools.allow re-enables {', '.join(reenabled)} over HTTP (session spawning, "
                             "exec, control-plane actions)", "remove them from gateway.tools.allow",
                             **at(install, "gateway", "tools", "allow"),
                             gateway=("gateway.tools_invoke_http.dangerous_allow",)))
    if enabled:
        found.append(finding(INFO, "HTTP callers may pick the session",
                             f"{', '.join(enabled)} accept x-openclaw-session-key: whoever holds the API credential "
                             "can write into any session", None, **at(install, "gateway", "http", "endpoints"),
                             gateway=("gateway.http.session_key_override_enabled",)))
    return check_result("gateway-http", found, "the HTTP APIs need auth and keep dangerous tools off")


def check_dangerous_flags(install: Install) -> CheckResult:
    """The gateway's other "dangerous" switches (its `config.insecure_or_dangerous_flags`)."""
    if install.config is None:
        return skipped("dangerous-flags")
    config = install.runtime
    found: list[Finding] = []
    hits: list[Sequence[str | int]] = []
    hooks = as_dict(config.get("hooks"))
    if as_dict(hooks.get("gmail")).get("allowUnsafeExternalContent") is True:
        hits.append(("hooks", "gmail", "allowUnsafeExternalContent"))
    mappings = hooks.get("mappings")
    for i, mapping in enumerate(mappings if isinstance(mappings, list) else []):
        if as_dict(mapping).get("allowUnsafeExternalContent") is True:
            hits.append(("hooks", "mappings", i, "allowUnsafeExternalContent"))
    if as_dict(as_dict(as_dict(config.get("tools")).get("exec")).get("applyPatch")).get("workspaceOnly") is False:
        hits.append(("tools", "exec", "applyPatch", "workspaceOnly"))
    for path in hits:
        where = at(install, *path)
        found.append(finding(WARN, "a dangerous switch is on", f"{where['key']} lets outside content or patches past "
                             "a guard", command_line("vora", "config", "unset", where["key"]), **where,
                             gateway=("config.insecure_or_dangerous_flags",)))
    return check_result("dangerous-flags", found, "no dangerous switch is on")
