"""npm as vora runs it: its failure read as one line, its cache in vora's cache dir, and a dependency
found the way node finds one (up the node_modules chain). `vora plugins install` meeting npm's
failures is in `tests/cli/plugins/test_npm.py`, the published packages in
`tests/cli/plugins/test_published.py`."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from plugins_support import NPM_6_OFFLINE, NPM_10_E404, unpacked

from vora_cli.core.plugins.npm import npm_failure


@pytest.mark.parametrize(("output", "reason", "log"), [
    (NPM_10_E404, "404 Not Found - GET https://registry.npmjs.org/@acme%2fthing - Not found",
     "/home/ada/.npm/_logs/2026-11-30T15_50_52_790Z-debug-0.log"),
    (NPM_6_OFFLINE, "network request to https://registry.npmjs.org/left-pad failed, reason: getaddrinfo "
                    "ENOTFOUND registry.npmjs.org", "/root/.npm/_logs/2026-11-30T10_00_00_000Z-debug.log"),
    ("", "exit code 7", None),
    ("npm error code E401\nnpm error 401 Unauthorized\n", "401 Unauthorized", None),
])
def test_npm_failure_is_one_line(output: str, reason: str, log: str | None) -> None:
    assert npm_failure(output, 7) == (reason, log)


@pytest.mark.skipif(not __import__("shutil").which("npm"), reason="npm is not installed")
def test_npm_runs_with_its_cache_in_vora_s_cache_dir(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.plugins import npm

    for name in list(os.environ):
        if name.lower() == "npm_config_cache":
            monkeypatch.delenv(name)
    assert npm._run_npm(["config", "get", "cache"], tmp_path, "npm config").strip() == str(home / ".cache/vora/npm")
    monkeypatch.setenv("npm_config_cache", str(tmp_path / "mine"))  # the operator's own choice wins
    assert npm._run_npm(["config", "get", "cache"], tmp_path, "npm config").strip() == str(tmp_path / "mine")


def test_a_dependency_found_up_the_node_modules_chain_resolves(tmp_path: Path) -> None:
    from vora_cli.core.plugins.dependencies import missing_dependencies
    from vora_cli.core.plugins.manifest import read_plugin

    source = unpacked("robertogongora-graphiti-0.6.2.tgz", tmp_path / "mono" / "packages" / "g")
    assert missing_dependencies(read_plugin(source)) == ("@sinclair/typebox",)
    hoisted = tmp_path / "mono" / "node_modules" / "@sinclair" / "typebox"
    hoisted.mkdir(parents=True)
    (hoisted / "package.json").write_text('{"name": "@sinclair/typebox", "exports": {".": "./x.js"}}')
    assert missing_dependencies(read_plugin(source)) == ()
