"""The fields of each command's `--json` document, recorded from real runs on the example install.

Generated: `RECORD_JSON_FIELDS=1 python -m pytest tests/cli/common/test_json.py -k convention`
rewrites it; that test fails when a document's fields and this record differ. Read by `--query`'s
hint (`cli/query.py`), the CLI reference and the completion scripts (`cli/docgen`). A field is a
JMESPath expression: `ok`, `summary.warn`, `checks[].id`.
"""

from __future__ import annotations

CONFIG_PATCH = (
    "changed", "dryRun", "changes", "changes[].key", "changes[].old", "changes[].new", "changes[].action",
    "changes[].file", "files", "files[].path", "files[].diff", "files[].backup", "warnings",
)

CONTEXT_DETAIL = (
    "workspace", "session", "caps", "caps.maxChars", "caps.maxCharsSource", "caps.totalMaxChars",
    "caps.totalMaxCharsSource", "files", "files[].name", "files[].path", "files[].status",
    "files[].missingReason", "files[].rawChars", "files[].injectedChars", "files[].rawTokensEstimate",
    "files[].injectedTokensEstimate", "files[].injected", "files[].causes", "files[].nearLimit",
    "files[].keptLines", "files[].droppedLines", "files[].keptLines[].start", "files[].keptLines[].end",
    "files[].droppedLines[].start", "files[].droppedLines[].end", "files[].droppedLines[].headings", "totals",
    "totals.rawChars", "totals.injectedChars", "totals.rawTokensEstimate", "totals.injectedTokensEstimate",
    "totals.truncatedFiles", "totals.truncatedRawChars", "totals.truncatedInjectedChars", "totals.nearLimit",
    "skills", "skills.count", "skills.names", "skills.totalChars", "skills.totalTokensEstimate",
    "skills.items", "skills.items[].name", "skills.items[].path", "skills.items[].chars",
    "skills.items[].tokensEstimate", "skills.items[].source", "skills.items[].root", "skills.dropped",
    "skills.dropped[].name", "skills.dropped[].path", "skills.dropped[].source", "skills.dropped[].reason",
    "skills.dropped[].detail", "skills.roots", "skills.roots[].path", "skills.roots[].source", "warnings",
)

DEVICES_DEMO_REQUEST = (
    "action", "requestId", "deviceId", "name", "wasExpired", "report", "report.dryRun", "report.written",
    "report.attempts", "report.droppedExpired", "report.warnings",
)

DEVICES_REMOVE = (
    "action", "deviceId", "name", "role", "detail", "changed", "report", "report.dryRun", "report.written",
    "report.attempts", "report.droppedExpired", "report.warnings",
)

PLUGINS_DISABLE = (
    "id", "enabled", "wasEnabled", "wasReason", "warnings", "config",
)

PLUGINS_INFO = (
    "id", "name", "kind", "status", "enabled", "reason", "origin", "version", "path", "target", "dangling",
    "slots", "problem", "names", "names.manifest", "names.package", "bundled", "manifest", "idFrom",
    "package", "missingDependencies", "compat", "compat.status", "compat.message", "compat.gatewayVersion",
    "entries", "entries[].spec", "entries[].path", "entries[].exists", "install", "decision",
    "decision.enabled", "decision.reason", "slotChecks", "slotChecks[].slot", "slotChecks[].value",
    "slotChecks[].default", "slotChecks[].builtIn", "slotChecks[].ok", "slotChecks[].plugin",
    "slotChecks[].broken", "slotChecks[].message", "slotChecks[].fix", "slotChecks[].action",
    "slotChecks[].alternatives", "problems",
)

SETTINGS_SET = (
    "key", "old", "new", "file", "changed", "backup",
)

FIELDS: dict[str, tuple[str, ...]] = {
    "backup create": (
        "dryRun", "archivePath", "archiveRoot", "createdAt", "options", "options.includeWorkspace",
        "options.onlyConfig", "options.includeLogs", "options.includeLinks", "assets", "assets[].kind",
        "assets[].sourcePath", "assets[].archivePath", "skipped", "skipped[].kind", "skipped[].sourcePath",
        "skipped[].reason", "skipped[].coveredBy", "skipped[].detail", "files", "dirs", "links",
        "payloadBytes", "archiveBytes", "encrypted", "changedDuringBackup",
    ),
    "backup list": (
        "dir", "exists", "verified", "count", "archives", "archives[].path", "archives[].name",
        "archives[].createdAt", "archives[].modifiedAt", "archives[].bytes", "archives[].fileCount",
        "archives[].payloadBytes", "archives[].assets", "archives[].format", "archives[].encrypted",
        "archives[].verified", "archives[].ok", "archives[].hashes", "archives[].problems",
        "archives[].firstProblem", "unreadable",
    ),
    "backup restore": (
        "archivePath", "format", "encrypted", "hashes", "dryRun", "to", "targets", "targets[].kind",
        "targets[].sourcePath", "targets[].archivePath", "targets[].target", "skipped", "counts",
        "counts.create", "counts.replace", "counts.same", "preRestoreBackup", "preRestoreLeftOut",
        "gatewayRunning", "recovered", "files", "files[].path", "files[].type", "files[].action",
        "files[].detail", "files[].entry",
    ),
    "backup verify": (
        "ok", "archivePath", "archiveBytes", "archiveRoot", "createdAt", "createdBy", "format", "encrypted",
        "hashes", "note", "assetCount", "entryCount", "fileCount", "payloadBytes", "problems",
    ),
    "completion": (
        "shell", "script",
    ),
    "config edit": (
        "changed", "dryRun", "changes", "files", "warnings",
    ),
    "config file": (
        "path", "source", "exists", "stateDir", "stateDirSource", "profile", "profileSource", "settingsFile",
    ),
    "config get": (
        "key", "value", "source",
    ),
    "config patch": CONFIG_PATCH,
    "config schema": (
    ),
    "config set": CONFIG_PATCH,
    "config unset": CONFIG_PATCH,
    "config validate": (
        "valid", "path", "strict", "gatewayVersion", "errors", "warnings", "infos", "problems",
    ),
    "context detail": CONTEXT_DETAIL,
    "context json": CONTEXT_DETAIL,
    "context list": CONTEXT_DETAIL,
    "context preview": (
        "workspace", "name", "chars", "text",
    ),
    "devices approve": (
        "requestId", "deviceId", "name", "classification", "classification.kind", "classification.kinds",
        "classification.changes", "classification.publicKeyChanged", "classification.newRoles",
        "classification.newScopes", "roles", "approvedScopes", "tokens", "tokens[].role", "tokens[].scopes",
        "tokens[].rotated", "approvedAtMs", "takesEffect", "report", "report.dryRun", "report.written",
        "report.attempts", "report.droppedExpired", "report.warnings",
    ),
    "devices clear": (
        "removedDevices", "rejectedRequests", "report", "report.dryRun", "report.written", "report.attempts",
        "report.droppedExpired", "report.warnings",
    ),
    "devices demo-request": DEVICES_DEMO_REQUEST,
    "devices identity": (
        "path", "exists", "created", "deviceId", "publicKey", "publicKeyPem", "createdAtMs",
        "deviceIdMatchesKey",
    ),
    "devices list": (
        "stateDir", "nowMs", "pending", "pending[].requestId", "pending[].deviceId", "pending[].name",
        "pending[].displayName", "pending[].platform", "pending[].deviceFamily", "pending[].clientId",
        "pending[].clientMode", "pending[].roles", "pending[].scopes", "pending[].remoteIp",
        "pending[].isRepair", "pending[].silent", "pending[].requestedAtMs", "pending[].ageMs",
        "pending[].expiresInMs", "pending[].expired", "pending[].classification",
        "pending[].classification.kind", "pending[].classification.kinds", "pending[].classification.changes",
        "pending[].classification.publicKeyChanged", "pending[].classification.newRoles",
        "pending[].classification.newScopes", "pending[].problems", "pending[].futureByMs", "paired",
        "paired[].deviceId", "paired[].name", "paired[].label", "paired[].displayName", "paired[].platform",
        "paired[].deviceFamily", "paired[].clientId", "paired[].clientMode", "paired[].roles",
        "paired[].approvedScopes", "paired[].remoteIp", "paired[].createdAtMs", "paired[].approvedAtMs",
        "paired[].tokens", "paired[].tokens[].role", "paired[].tokens[].state", "paired[].tokens[].scopes",
        "paired[].tokens[].createdAtMs", "paired[].tokens[].rotatedAtMs", "paired[].tokens[].revokedAtMs",
        "paired[].tokens[].lastUsedAtMs", "paired[].problems",
    ),
    "devices reject": DEVICES_DEMO_REQUEST,
    "devices remove": DEVICES_REMOVE,
    "devices rename": DEVICES_REMOVE,
    "devices revoke": DEVICES_REMOVE,
    "devices rotate": (
        "deviceId", "name", "role", "scopes", "token", "takesEffect", "report", "report.dryRun",
        "report.written", "report.attempts", "report.droppedExpired", "report.warnings",
    ),
    "doctor": (
        "ok", "stateDir", "configPath", "summary", "summary.pass", "summary.info", "summary.warn",
        "summary.error", "summary.skip", "checks", "checks[].id", "checks[].status", "checks[].message",
        "checks[].file", "checks[].line", "checks[].col", "checks[].locations", "checks[].evidence",
        "checks[].details", "checks[].fix", "checks[].locations[].file", "checks[].locations[].line",
        "checks[].locations[].col", "checks[].locations[].message", "checks[].locations[].status",
        "checks[].fix.id", "checks[].fix.kind", "checks[].fix.automatic", "checks[].fix.description",
        "checks[].fix.command", "checks[].fix.alternatives", "checks[].fix.operations",
    ),
    "gateway call": (
    ),
    "gateway status": (
        "reachable", "url", "urlSource", "latencyMs", "server", "protocol", "uptimeMs", "auth", "auth.mode",
        "auth.source", "device", "device.id", "device.identityCreated", "device.tokenStored", "scopes",
        "deviceTokenScopes", "health", "memory", "plugins", "plugins.evidence", "plugins.loaded",
        "plugins.readyAt", "plugins.failed", "plugins.logFile", "slots", "slots.contextEngine",
        "slots.contextEngine.configured", "slots.contextEngine.builtin", "slots.contextEngine.loaded",
        "slots.memory",
    ),
    "logs": (
        "source", "file", "lines",
    ),
    "plugins disable": PLUGINS_DISABLE,
    "plugins enable": PLUGINS_DISABLE,
    "plugins info": PLUGINS_INFO,
    "plugins init": (
        "id", "kind", "root", "files",
    ),
    "plugins inspect": PLUGINS_INFO,
    "plugins install": (
        "id", "name", "version", "kind", "source", "spec", "link", "installPath", "replaces", "record",
        "slotChanges", "slotHints", "warnings", "dependencies", "packageName", "needsSettings", "notes",
        "scan", "scan.findings", "scan.scannedFiles", "scan.critical", "scan.warn",
        "scan.blockedDependencies", "dryRun", "config",
    ),
    "plugins list": (
        "plugins", "plugins[].id", "plugins[].name", "plugins[].kind", "plugins[].status",
        "plugins[].enabled", "plugins[].reason", "plugins[].origin", "plugins[].version", "plugins[].path",
        "plugins[].target", "plugins[].dangling", "plugins[].slots", "plugins[].problem", "plugins[].names",
        "plugins[].names.manifest", "plugins[].names.package", "shadowed",
    ),
    "plugins uninstall": (
        "id", "references", "slotChanges", "delete", "keep", "notes", "deleted", "dryRun", "config",
    ),
    "plugins update": (
        "ok", "dryRun", "plugins", "plugins[].id", "plugins[].status", "plugins[].old", "plugins[].new",
        "plugins[].reason", "plugins[].warnings",
    ),
    "plugins use": (
        "id", "slot", "old", "new", "config",
    ),
    "security audit": (
        "ok", "stateDir", "configPath", "failOn", "summary", "summary.critical", "summary.warn",
        "summary.info", "findings", "findings[].id", "findings[].severity", "findings[].title",
        "findings[].detail", "findings[].remediation", "findings[].file", "findings[].key", "findings[].line",
        "findings[].col", "findings[].gateway", "findings[].fix", "checks", "checks[].id", "checks[].area",
        "checks[].status", "checks[].severity", "checks[].message", "checks[].findings", "checks[].fix",
        "checks[].fix.id", "checks[].fix.kind", "checks[].fix.automatic", "checks[].fix.description",
        "checks[].fix.command", "checks[].fix.alternatives", "checks[].fix.operations",
    ),
    "sessions list": (
        "stateDir", "stores", "stores[].agentId", "stores[].path", "stores[].configured", "stores[].error",
        "activeMinutes", "count", "sessions", "sessions[].agentId", "sessions[].key", "sessions[].kind",
        "sessions[].sessionId", "sessions[].updatedAt", "sessions[].updatedAtMs", "sessions[].ageMs",
        "sessions[].chatType", "sessions[].model", "sessions[].modelProvider", "sessions[].label",
        "sessions[].totalTokens", "sessions[].totalTokensFresh", "sessions[].contextUsed",
        "sessions[].contextTokens", "sessions[].contextPercent", "sessions[].compactionCount",
        "sessions[].transcriptPath", "sessions[].transcriptBytes", "sessions[].hasRunReport",
    ),
    "sessions show": (
        "agentId", "key", "kind", "storePath", "entry", "entry.agentId", "entry.key", "entry.kind",
        "entry.sessionId", "entry.updatedAt", "entry.updatedAtMs", "entry.ageMs", "entry.chatType",
        "entry.model", "entry.modelProvider", "entry.label", "entry.totalTokens", "entry.totalTokensFresh",
        "entry.contextUsed", "entry.contextTokens", "entry.contextPercent", "entry.compactionCount",
        "entry.transcriptPath", "entry.transcriptBytes", "entry.hasRunReport", "entry.inputTokens",
        "entry.outputTokens", "entry.spawnedBy", "entry.parentSessionKey", "entry.status",
        "entry.reportSource", "compactions", "compactions[].entryId", "compactions[].line",
        "compactions[].compactedAt", "compactions[].summaryChars", "compactions[].summaryTokens",
        "compactions[].summaryHash", "compactions[].preview", "compactions[].firstKeptEntryId",
        "compactions[].tokensBefore", "compactions[].onLeafPath", "compactions[].checkpointId",
        "compactions[].reason", "compactions[].tokensAfter", "checkpoints", "checkpoints[].checkpointId",
        "checkpoints[].createdAt", "checkpoints[].createdAtMs", "checkpoints[].reason",
        "checkpoints[].tokensBefore", "checkpoints[].tokensAfter", "checkpoints[].firstKeptEntryId",
        "checkpoints[].snapshotPath", "checkpoints[].snapshotExists", "transcript", "transcript.path",
        "transcript.exists", "transcript.bytes", "transcript.lines", "transcript.entries",
        "transcript.byType", "transcript.byRole", "transcript.badLines", "transcript.tornTail",
        "transcript.branchPoints", "transcript.leafId", "transcript.header", "context", "context.leafId",
        "context.compactionId", "context.summaryChars", "context.messages", "context.totalChars",
        "context.totalTokens", "context.byKind", "context.thinkingLevel", "context.model", "context.segments",
        "context.segments[].index", "context.segments[].entryId", "context.segments[].kind",
        "context.segments[].chars", "context.segments[].tokens", "context.segments[].hash",
        "context.segments[].preview", "context.segments[].toolCalls", "context.segments[].toolName",
        "context.segments[].isError", "context.segments[].attachments",
    ),
    "settings get": (
        "key", "value", "source", "origin",
    ),
    "settings list": (
        "file", "exists", "settings", "settings[].key", "settings[].value", "settings[].source",
        "settings[].origin", "settings[].type",
    ),
    "settings path": (
        "settingsFile", "exists", "configDir", "cacheDir", "cacheSizeBytes", "cacheFiles",
    ),
    "settings set": SETTINGS_SET,
    "settings unset": SETTINGS_SET,
}
