"""The models an agent runs, and the browser it drives, by the gateway's rules (docs/security.md, `models`,
`browser-control`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from vora_cli.core.doctor.model import INFO, WARN, CheckResult, Install
from vora_cli.core.secrets import redact_urls
from vora_cli.core.security.browser_config import loopback_host, private_host, profile_hosts, resolve_problem
from vora_cli.core.security.model import CRITICAL, Finding, as_dict, at, check_result, finding, skipped
from vora_cli.core.security.tool_policy import agent_entry, allowed_by_all, sandbox_mode, tool_policies
from vora_cli.core.text import js_trim
from vora_cli.core.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SMALL_MODEL_PARAM_B_MAX = 300
_PARAM_B = re.compile(r"(?:^|[^a-z0-9])[a-z]?(\d+(?:\.\d+)?)b(?:[^a-z0-9]|$)", re.ASCII)
_LEGACY = ((re.compile(r"\bgpt-3\.5\b", re.I | re.A), "GPT-3.5 family"),
           (re.compile(r"\bclaude-(instant|2)\b", re.I | re.A), "Claude 2/Instant family"),
           (re.compile(r"\bgpt-4-(0314|0613)\b", re.I | re.A), "Legacy GPT-4 snapshots"))
_HAIKU = re.compile(r"\bhaiku\b", re.I | re.A)
_GPT = re.compile(r"\bgpt-", re.I | re.A)
_GPT5 = re.compile(r"\bgpt-5(?:\b|[.-])", re.I | re.A)
_CLAUDE = re.compile(r"\bclaude-", re.I | re.A)
_CLAUDE45 = re.compile(r"\bclaude-[^\s/]*?(?:-4-?(?:[5-9]|[1-9]\d)\b|4\.(?:[5-9]|[1-9]\d)\b|-[5-9](?:\b|[.-]))", re.I | re.A)
SHOWN = 12


def param_b(model_id: str) -> float | None:
    """`inferParamBFromIdOrName`: the largest `<n>b` (`qwen2.5-7b`, `llama-3-70b-instruct`) in the id."""
    best: float | None = None
    for match in _PARAM_B.finditer(js_trim(model_id).lower()):
        value = float(match.group(1))
        if value > 0 and (best is None or value > best):
            best = value
    return best


def _primary(model: Any) -> str | None:
    if isinstance(model, str):
        return js_trim(model) or None
    return js_trim(model["primary"]) or None if isinstance(model, dict) and isinstance(model.get("primary"), str) \
        else None


def configured_models(config: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(model id, where) for every model the config names, in the gateway's `collectModels` order."""
    defaults = as_dict(as_dict(config.get("agents")).get("defaults"))
    for key in ("model", "imageModel"):
        value = defaults.get(key)
        if (primary := _primary(value)) is not None:
            yield primary, f"agents.defaults.{key}.primary"
        for fallback in value.get("fallbacks") or () if isinstance(value, dict) and isinstance(value.get("fallbacks"), list) else ():
            if isinstance(fallback, str) and js_trim(fallback):
                yield js_trim(fallback), f"agents.defaults.{key}.fallbacks"
    agents = as_dict(config.get("agents")).get("list")
    for agent in agents if isinstance(agents, list) else ():
        if not isinstance(agent, dict):
            continue
        agent_id = agent["id"] if isinstance(agent.get("id"), str) else ""
        model = agent.get("model")
        if isinstance(model, str):
            if js_trim(model):
                yield js_trim(model), f"agents.list.{agent_id}.model"
        elif isinstance(model, dict):
            if isinstance(model.get("primary"), str) and js_trim(model["primary"]):
                yield js_trim(model["primary"]), f"agents.list.{agent_id}.model.primary"
            fallbacks = model.get("fallbacks")
            for fallback in fallbacks if isinstance(fallbacks, list) else ():
                if isinstance(fallback, str) and js_trim(fallback):
                    yield js_trim(fallback), f"agents.list.{agent_id}.model.fallbacks"


def _web_search_on(config: dict[str, Any], env: dict[str, str] | Any) -> bool:
    """`isWebSearchEnabled`: on when asked, off when asked, else when a provider has a credential."""
    from vora_cli.core.security.tool_policy import tables

    search = as_dict(as_dict(as_dict(config.get("tools")).get("web")).get("search"))
    if search.get("enabled") is False:
        return False
    if search.get("enabled") is True:
        return True
    entries = as_dict(as_dict(config.get("plugins")).get("entries"))
    for provider in tables()["webSearchCredentials"]:
        plugin_config = as_dict(as_dict(as_dict(entries.get(provider["plugin"])).get("config")).get("webSearch"))
        values = [plugin_config.get(provider["key"]) if provider["key"] else None,
                  (as_dict(search.get(provider["scoped"])).get("apiKey") if provider["scoped"] else search.get("apiKey"))
                  if provider["searchConfig"] else None,
                  *(env.get(name) for name in provider["env"])]
        if any((isinstance(v, str) and v.strip()) or (v is not None and not isinstance(v, str)) for v in values):
            return True
    return False


def check_models(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("models")
    config = install.runtime
    models = list(configured_models(config))
    found: list[Finding] = []
    small = [(m, where, b) for m, where in models if "imageModel" not in where
             and (b := param_b(m)) is not None and b <= SMALL_MODEL_PARAM_B_MAX]
    if small:
        unsafe = False
        lines = []
        exposed_any: dict[str, None] = {}
        search_on = None
        for model, where, b in small:
            agent_id = where.split(".")[2] if where.startswith("agents.list.") else None
            mode = sandbox_mode(config, agent_id)
            entry = agent_entry(config, agent_id)
            policies = tool_policies(config, entry.get("tools") if entry is not None else None, mode, agent_id)
            exposed = []
            if search_on is None:
                search_on = _web_search_on(config, install.env)
            web = as_dict(as_dict(config.get("tools")).get("web"))
            if search_on and allowed_by_all("web_search", policies):
                exposed.append("web_search")
            if as_dict(web.get("fetch")).get("enabled") is not False and allowed_by_all("web_fetch", policies):
                exposed.append("web_fetch")
            if as_dict(config.get("browser")).get("enabled") is not False and allowed_by_all("browser", policies):
                exposed.append("browser")
            exposed_any.update(dict.fromkeys(exposed))
            safe = mode == "all" and not exposed
            unsafe = unsafe or not safe
            shown = f"{b:g}B"
            lines.append(f"{model} ({shown}) at {where}: {'ok' if safe else 'unsafe'}; sandbox={mode}; "
                         f"web=[{', '.join(exposed) or 'off'}]")
        found.append(finding(
            CRITICAL if unsafe else INFO, "small models read untrusted input with tools" if unsafe else
            "small models run sandboxed without web tools",
            f"{'; '.join(lines)}. Small models (<= {SMALL_MODEL_PARAM_B_MAX}B parameters) follow injected "
            "instructions more easily" + (f"; web/browser tools they can use: {', '.join(exposed_any)}" if exposed_any else ""),
            'sandbox every session (vora config set agents.defaults.sandbox.mode all) and deny the web and browser '
            "tools (vora config set tools.deny '[\"group:web\",\"browser\"]'), or use a larger model",
            **at(install, "agents"), gateway=("models.small_params",)))
    weak: dict[tuple[str, str], list[str]] = {}
    legacy: list[str] = []
    for model, where in models:
        reasons = weak.setdefault((model, where), [])
        if _HAIKU.search(model):
            reasons.append("Haiku tier (smaller model)")
        if _GPT.search(model) and not _GPT5.search(model):
            reasons.append("Below GPT-5 family")
        if _CLAUDE.search(model) and not _CLAUDE45.search(model):
            reasons.append("Below Claude 4.5")
        if not reasons:
            del weak[(model, where)]
        label = next((label for pattern, label in _LEGACY if pattern.search(model)), None)
        if label is not None:
            legacy.append(f"{model} ({label}) at {where}")
    if legacy:
        found.append(finding(WARN, "some models look legacy", "older models resist prompt injection and tool misuse "
                             "less: " + _listed(legacy), "prefer a current, instruction-hardened model for any agent "
                             "with tools", **at(install, "agents"), gateway=("models.legacy",)))
    if weak:
        found.append(finding(WARN, "some models are below the recommended tier", "smaller and older models are more "
                             "easily talked into misusing tools: " + _listed(
                                 [f"{m} ({'; '.join(r)}) at {w}" for (m, w), r in weak.items()]),
                             "use a top-tier model (GPT-5 or later, Claude 4.5 or later, not Haiku) for agents with "
                             "tools or untrusted inboxes", **at(install, "agents"), gateway=("models.weak_tier",)))
    return check_result("models", found, f"{plural(len(models), 'model')}, none small, weak or legacy" if models else
                        "no model configured")


def _listed(items: list[str]) -> str:
    more = f"; and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return "; ".join(items[:SHOWN]) + more


# -- browser control -------------------------------------------------------------------------------


def _names_browser(tools: Any) -> bool:
    return isinstance(tools, dict) and any(isinstance(v, str) and js_trim(v).lower() == "browser"
                                           for key in ("allow", "alsoAllow") for v in as_dict(tools).get(key) or ()
                                           if isinstance(as_dict(tools).get(key), list))


def browser_requested(config: dict[str, Any]) -> bool:
    """Whether the gateway loads its browser plugin's audit: a `browser` section, a tool policy
    that allows `browser`, or the plugin named in `plugins.allow` or `plugins.entries` (its
    `applyPluginAutoEnable`, then the requested plugin ids)."""
    plugins = as_dict(config.get("plugins"))
    entry = as_dict(plugins.get("entries")).get("browser")
    agents = as_dict(config.get("agents")).get("list")
    return (isinstance(config.get("browser"), dict) or _names_browser(config.get("tools"))
            or any(isinstance(a, dict) and _names_browser(a.get("tools")) for a in (agents if isinstance(agents, list) else ()))
            or (isinstance(plugins.get("allow"), list) and any(isinstance(v, str) and js_trim(v) == "browser"
                                                               for v in plugins["allow"]))
            or (isinstance(entry, dict) and entry.get("enabled") is not False))


def check_browser_control(install: Install) -> CheckResult:
    if install.config is None:
        return skipped("browser-control")
    from vora_cli.core.security.gateway_view import view

    config = install.runtime
    found: list[Finding] = []
    browser = as_dict(config.get("browser"))
    problem = resolve_problem(browser, config, dict(install.env)) if browser_requested(config) else None
    if problem is not None:
        found.append(finding(WARN, "the browser config does not load", f"{problem.rstrip('.')}: the gateway's browser control "
                             "fails to start with it", "fix browser.cdpUrl (an http(s) or ws(s) URL) or "
                             "browser.cdpPortRangeStart", **at(install, "browser") if "browser" in config
                             else at(install, "gateway"), gateway=("browser.control_invalid_config",)))
    if browser_requested(config) and browser.get("enabled") is not False:
        if not view(install).browser_credential():
            found.append(finding(CRITICAL, "browser control has no auth",
                                 "the browser control routes are on and no gateway token or password is set: any "
                                 "local process (or a request forged to loopback) can drive the browser",
                                 "vora security audit --fix gateway-token (a new gateway.auth.token)",
                                 **at(install, "browser") if "browser" in config else at(install, "gateway"),
                                 gateway=("browser.control_no_auth",)))
        for name, host, url in profile_hosts(browser) if problem is None else ():
            if loopback_host(host):
                continue
            spot = ("browser", "profiles", name, "cdpUrl") if name in as_dict(browser.get("profiles")) \
                else ("browser", "cdpUrl")
            if url.lower().startswith("http://"):
                found.append(finding(WARN, "a remote browser is driven over plain HTTP",
                                     f'browser profile "{name}" uses an http CDP URL to another host: fine only on a '
                                     "tailnet or through an encrypted tunnel", "use https, or a tailnet-only endpoint",
                                     **at(install, *spot), gateway=("browser.remote_cdp_http",)))
            if _allows_private_network(browser) and private_host(host):
                found.append(finding(WARN, "a remote browser is on a private or internal host",
                                     f'browser profile "{name}" drives {redact_urls(url)}, a private or internal host, '
                                     "and browser.ssrfPolicy allows private networks: the browser tool trusts that "
                                     "network", "use a tailnet or a tunnel; to block private hosts, set "
                                     "browser.ssrfPolicy.dangerouslyAllowPrivateNetwork false and allow the hosts you "
                                     "need by name", **at(install, *spot), gateway=("browser.remote_cdp_private_host",)))
    return check_result("browser-control", found, "browser control is off or needs the gateway's credential")


def _allows_private_network(browser: dict[str, Any]) -> bool:
    policy = as_dict(browser.get("ssrfPolicy"))
    return policy.get("allowPrivateNetwork") is True or policy.get("dangerouslyAllowPrivateNetwork") is True
