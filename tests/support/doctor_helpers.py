"""Builders for doctor tests: a state dir in tmp with a commented vora.json and its parts."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from pathlib import Path

from install_support import NOW_MS, make_install

from vora_cli.core.doctor.model import CheckResult, DoctorReport
from vora_cli.core.doctor.runner import run_doctor
from vora_cli.core.paths import VoraPaths, resolve_paths

__all__ = ["NOW_MS"]
ED25519_SPKI_PREFIX = bytes.fromhex("302a300506032b6570032100")


def make_state(root: Path, config: str | None = None, mode: int = 0o700) -> Path:
    state = root / "state"
    state.mkdir(parents=True, exist_ok=True)
    os.chmod(state, mode)
    if config is not None:
        (state / "vora.json").write_text(config, encoding="utf-8")
        os.chmod(state / "vora.json", 0o600)
    return state


def make_workspace(state: Path, files: dict[str, str] | None = None) -> Path:
    ws = state / "workspace"
    ws.mkdir(exist_ok=True)
    for name, text in (files if files is not None else {"AGENTS.md": "# Agents\nBe kind.\n"}).items():
        path = ws / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return ws


WS_CONFIG = """// test install
{
  agents: { defaults: { workspace: "./workspace" } },
}
"""


def paths_for(state: Path, env: dict[str, str] | None = None) -> VoraPaths:
    return resolve_paths(state_dir=str(state), env=env or {"HOME": str(state.parent / "home")})


def doctor(state: Path, *only: str, env: dict[str, str] | None = None) -> DoctorReport:
    """The doctor on the install at `state`, built directly (env as given, no settings file, pinned clock)."""
    environ = {"HOME": str(state.parent / "home"), **(env or {})}
    install = make_install(paths=paths_for(state, environ), env=environ, now_ms=NOW_MS)
    return run_doctor(install, only=list(only))


def check(state: Path, check_id: str, env: dict[str, str] | None = None) -> CheckResult:
    result = doctor(state, check_id, env=env).get(check_id)
    assert result is not None
    return result


def write_store(state: Path, name: str, data: object, mode: int = 0o600) -> Path:
    folder = state / "devices"
    folder.mkdir(exist_ok=True, mode=0o700)
    path = folder / name
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.chmod(path, mode)
    return path


def identity_doc(raw_key: bytes = b"\x01" * 32, device_id: str | None = None) -> dict[str, object]:
    der = ED25519_SPKI_PREFIX + raw_key
    body = base64.b64encode(der).decode()
    pem = f"-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----\n"
    return {
        "version": 1,
        "deviceId": device_id or hashlib.sha256(raw_key).hexdigest(),
        "publicKeyPem": pem,
        "privateKeyPem": "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n-----END PRIVATE KEY-----\n",
        "createdAtMs": NOW_MS,
    }


def write_identity(state: Path, doc: dict[str, object], mode: int = 0o600) -> Path:
    folder = state / "identity"
    folder.mkdir(exist_ok=True, mode=0o700)
    path = folder / "device.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    os.chmod(path, mode)
    return path


def make_state_plugin(state: Path, plugin_id: str, *, kind: str | None = "context-engine", built: bool = True,
                registers: str | None = None, manifest: str | None = None, folder: Path | None = None) -> Path:
    """An installed plugin in `state/extensions/<id>` (or `folder`): its manifest, package.json and a
    built entry that registers the context engine `registers` (default: the id; "" registers nothing)."""
    root = folder or state / "extensions" / plugin_id
    (root / "dist").mkdir(parents=True)
    os.chmod(root, 0o755)
    kind_text = f'kind: "{kind}", ' if kind else ""
    (root / "vora.plugin.json").write_text(
        manifest if manifest is not None else f'// {plugin_id}\n{{ id: "{plugin_id}", {kind_text}configSchema: {{}} }}\n')
    (root / "package.json").write_text(json.dumps(
        {"name": plugin_id, "version": "1.0.0", "vora": {"extensions": ["./dist/index.js"]}}))
    if built:
        engine = plugin_id if registers is None else registers
        body = f'export default (api) => api.registerContextEngine("{engine}", () => ({{}}));\n' if engine else \
            "export default (api) => {};\n"
        (root / "dist" / "index.js").write_text(body)
    return root


# -- plugin-references and its fix -------------------------------------------------------------

# A config naming plugins that are long gone (plugin-references warns, its fix removes them).
STALE_PLUGIN_CONFIG = """// plugins, some long gone
{
  plugins: {
    allow: [
      "keep", // still here
      "gone-a", // removed last spring
      "gone-b",
    ],
    deny: ["gone-c"],
    load: { paths: ["./dev/missing-plugin"] },
    entries: {
      keep: { enabled: true },
      "gone-a": { enabled: true }, // old engine
      "memory-core": { config: { depth: 2 } },
    },
  },
}
"""
