#!/usr/bin/env bash
# Build the small install the gateway-made test archive is taken from (no real secrets).
set -euo pipefail
R=/tmp/h5/fixture
rm -rf "$R"; mkdir -p "$R"
S=$R/state; W=$R/workspace-outside
umask 022
mkdir -p $S/agents/main/sessions $S/devices $S/identity $S/credentials $W/skills/notes
cat > $S/vora.json <<'J'
// fixture install for backup tests
{
  "$include": "./gateway.json5",
  agents: { defaults: { workspace: "/tmp/h5/fixture/workspace-outside" }, list: [{ id: "main", default: true }] },
}
J
printf '{ gateway: { port: 18789, mode: "local" } }\n' > $S/gateway.json5
printf '# AGENTS\nBe brief.\n' > $W/AGENTS.md
printf 'calm and exact\n' > $W/SOUL.md
printf -- '---\nname: notes\ndescription: take notes\n---\nWrite it down.\n' > $W/skills/notes/SKILL.md
printf '{\n  "agent:main:main": {\n    "sessionId": "0b6a3f52-1c0e-4d2b-9f1a-7e3c5d9a2b10",\n    "updatedAt": 1767225600000\n  }\n}' > $S/agents/main/sessions/sessions.json
printf '%s\n' '{"type":"session","version":3,"id":"0b6a3f52-1c0e-4d2b-9f1a-7e3c5d9a2b10","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/tmp"}' \
  '{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"hello"}}' \
  > $S/agents/main/sessions/0b6a3f52-1c0e-4d2b-9f1a-7e3c5d9a2b10.jsonl
printf '{}' > $S/devices/pending.json
printf '{}' > $S/devices/paired.json
printf '{"version":1,"deviceId":"fixture-not-a-real-key","createdAtMs":1767225600000}' > $S/identity/device.json
chmod 600 $S/identity/device.json
chmod 700 $S/identity
printf '{}' > $S/credentials/oauth.json; chmod 600 $S/credentials/oauth.json
ln -s sessions.json $S/agents/main/sessions/current-store
