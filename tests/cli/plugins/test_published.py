"""Plugins as published (issue 19): real packages from the npm registry, installed as they are.

The tarballs are in `tests/data/plugins/npm/` (permissive licences; see its README), with the
integrity and shasum the registry gave for them; nothing here needs the network. npm itself is
replaced where it would reach the registry: `npm pack` hands over the stored tarball with the
registry's own integrity, and an `npm install` of dependencies is the one thing a test decides.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from plugins_support import pack_tiny_dep, unpacked, write_config

from vora_cli.core.json5 import parser as json5_parser
from vora_cli.core.plugins import npm

DATA = Path(__file__).resolve().parents[2] / "data" / "plugins"
REGISTRY = json.loads((DATA / "npm" / "registry.json").read_text())["packages"]
PUBLISHED = {
    # tarball: (npm spec, plugin id, package version, manifest file)
    "jasper-context-compactor-0.4.1.tgz": ("jasper-context-compactor@0.4.1", "context-compactor", "0.4.1"),
    "robertogongora-graphiti-0.6.2.tgz": ("@robertogongora/graphiti@0.6.2", "graphiti", "0.6.2"),
    "simmer-automaton-0.7.2.tgz": ("simmer-automaton@0.7.2", "simmer-automaton", "0.7.2"),
    "mem0-openclaw-mem0-1.0.16.tgz": ("@mem0/openclaw-mem0@1.0.16", "openclaw-mem0", "1.0.16"),
}
# The gateway's installer blocks it (environment read with a network send: tests/core/plugins/test_install_scan.py).
RISKY = {"simmer-automaton-0.7.2.tgz"}


def risky(tarball: str) -> tuple[str, ...]:
    return ("--allow-risky-code",) if tarball in RISKY else ()


def config_of(state_dir: Path) -> dict:
    return json5_parser.loads((state_dir / "vora.json").read_text())


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """`npm pack SPEC` answers with the stored tarball and the registry's integrity and shasum;
    `npm install` (dependencies) does nothing. Returns the specs packed."""
    packed: list[str] = []
    by_spec = {spec: tarball for tarball, (spec, _id, _v) in PUBLISHED.items()}

    def fake_pack(spec: str, dest: Path) -> npm.PackResult:
        packed.append(spec)
        full = spec if spec in by_spec else next(s for s in by_spec if s.rsplit("@", 1)[0] == spec)
        copy = dest / by_spec[full]
        shutil.copy(DATA / "npm" / by_spec[full], copy)
        name, version = full.rsplit("@", 1)
        return npm.PackResult(copy, name, version, REGISTRY[full]["integrity"], REGISTRY[full]["shasum"])

    monkeypatch.setattr(npm, "npm_pack", fake_pack)
    monkeypatch.setattr(npm, "npm_install_production", lambda *_a, **_k: None)
    return packed


@pytest.mark.parametrize("tarball", sorted(PUBLISHED))
def test_every_published_plugin_installs_from_its_archive(tarball: str, state_dir: Path, vora, registry: list[str]) -> None:
    write_config(state_dir)
    _spec, plugin_id, version = PUBLISHED[tarball]
    result = vora("plugins", "install", str(DATA / "npm" / tarball), "--json", *risky(tarball))
    assert result.exit_code == 0, result.stdout + result.stderr
    record = config_of(state_dir)["plugins"]["installs"][plugin_id]
    assert (record["source"], record["version"]) == ("archive", version)  # the package's, as the gateway
    assert (state_dir / "extensions").is_dir()
    assert "differs" not in result.stderr or plugin_id == "context-compactor" or plugin_id == "openclaw-mem0"


@pytest.mark.parametrize("tarball", sorted(PUBLISHED))
def test_every_published_plugin_installs_by_npm_spec_with_the_registrys_provenance(
        tarball: str, state_dir: Path, vora, registry: list[str]) -> None:
    write_config(state_dir)
    spec, plugin_id, version = PUBLISHED[tarball]
    name = spec.rsplit("@", 1)[0]
    assert vora("plugins", "install", name, *risky(tarball)).exit_code == 0
    record = config_of(state_dir)["plugins"]["installs"][plugin_id]
    # what the gateway records for an npm install (buildNpmInstallRecordFields, openclaw 2026.4.12)
    assert list(record) == ["source", "spec", "installPath", "version", "resolvedName", "resolvedVersion",
                            "resolvedSpec", "integrity", "shasum", "resolvedAt", "installedAt"]
    assert (record["spec"], record["resolvedSpec"], record["version"]) == (name, spec, version)
    assert record["integrity"] == REGISTRY[spec]["integrity"] and record["shasum"] == REGISTRY[spec]["shasum"]


def test_pin_records_the_exact_version(state_dir: Path, vora, registry: list[str]) -> None:
    write_config(state_dir)
    assert vora("plugins", "install", "simmer-automaton", "--pin", "--allow-risky-code").exit_code == 0
    assert config_of(state_dir)["plugins"]["installs"]["simmer-automaton"]["spec"] == "simmer-automaton@0.7.2"


def test_a_tarball_that_is_not_the_registrys_is_refused(state_dir: Path, vora, monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path) -> None:
    write_config(state_dir)
    other = REGISTRY["jasper-context-compactor@0.4.1"]["integrity"]

    def tampered(spec: str, dest: Path) -> npm.PackResult:
        copy = dest / "simmer-automaton-0.7.2.tgz"
        shutil.copy(DATA / "npm" / "simmer-automaton-0.7.2.tgz", copy)
        return npm.PackResult(copy, "simmer-automaton", "0.7.2", other, "x")

    monkeypatch.setattr(npm, "npm_pack", tampered)
    result = vora("plugins", "install", "simmer-automaton", "--json")
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "refused" and "integrity" in result.json()["error"]["message"]
    assert "installs" not in config_of(state_dir).get("plugins", {})
    assert not (state_dir / "extensions").exists()  # a failed install leaves no new, empty extensions dir


def test_published_plugins_link_as_they_are(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    source = unpacked("jasper-context-compactor-0.4.1.tgz", tmp_path / "jasper")
    result = vora("plugins", "install", "-l", str(source))
    assert result.exit_code == 0, result.stderr
    # a command plugin whose id says "context" registers no engine: no "looks like an engine" warning
    assert "engine" not in result.stderr
    record = config_of(state_dir)["plugins"]["installs"]["context-compactor"]
    assert (record["source"], record["version"]) == ("path", "0.4.1")  # not the manifest's 0.1.0
    listed = vora("plugins", "list", "-v", "--json").json()
    (row,) = [r for r in listed["plugins"]] if "plugins" in listed else listed
    assert row["names"] == {"manifest": "openclaw.plugin.json", "package": "openclaw"}
    shown = vora("plugins", "inspect", "context-compactor")
    assert 'read as:  openclaw.plugin.json, package.json "openclaw"' in shown.stdout


def test_the_vora_names_win_when_both_are_there(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    source = unpacked("simmer-automaton-0.7.2.tgz", tmp_path / "simmer")
    manifest = json.loads((source / "openclaw.plugin.json").read_text())
    (source / "vora.plugin.json").write_text(json.dumps({**manifest, "id": "simmer-vora"}))
    package = json.loads((source / "package.json").read_text())
    (source / "package.json").write_text(json.dumps({**package, "vora": {"extensions": ["./dist/api.js"]}}))
    assert vora("plugins", "install", "-l", str(source)).exit_code == 0
    report = vora("plugins", "inspect", "simmer-vora", "--json").json()
    assert report["names"] == {"manifest": "vora.plugin.json", "package": "vora"}
    assert [e["spec"] for e in report["entries"]] == ["./dist/api.js"]


def test_neither_name_is_an_error_naming_both(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    source = unpacked("simmer-automaton-0.7.2.tgz", tmp_path / "simmer")
    (source / "openclaw.plugin.json").unlink()
    result = vora("plugins", "install", str(source))
    assert result.exit_code == 1
    assert "neither vora.plugin.json nor openclaw.plugin.json" in result.stderr
    assert "the gateway needs one with an id and a configSchema" in result.stderr


def test_a_scoped_package_whose_own_name_is_the_id_gets_no_name_warning(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", "-l", str(unpacked("robertogongora-graphiti-0.6.2.tgz", tmp_path / "g")))
    assert result.exit_code == 0 and "differs" not in result.stderr


# -- dependencies ----------------------------------------------------------------------------------

def test_a_linked_engine_without_its_dependencies_fails_the_slot_check(tmp_path: Path, state_dir: Path, vora) -> None:
    write_config(state_dir)
    source = unpacked("robertogongora-graphiti-0.6.2.tgz", tmp_path / "graphiti")
    assert vora("plugins", "install", "-l", str(source), "--use").exit_code == 0
    doctor = vora("doctor", "--only", "slot-context-engine", "--json").json()
    (check,) = doctor["checks"]
    assert check["status"] == "error"
    assert "its dependencies are not installed: @sinclair/typebox" in check["message"]
    assert check["fix"]["command"] == f"npm install --omit=dev --prefix {source}"
    assert check["fix"]["alternatives"] == [f"vora plugins install -l {source} --deps"]
    # installed the way Node would find it, the same check passes (no code is run)
    typebox = source / "node_modules" / "@sinclair" / "typebox"
    typebox.mkdir(parents=True)
    (typebox / "package.json").write_text('{"name": "@sinclair/typebox", "version": "0.34.48", "main": "./build/index.js"}')
    (typebox / "build").mkdir()
    (typebox / "build" / "index.js").write_text("")
    again = vora("doctor", "--only", "slot-context-engine", "--json").json()
    assert again["checks"][0]["status"] in ("pass", "warn"), again["checks"][0]["message"]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("npm") is None, reason="npm is not installed")
def test_link_with_deps_runs_npm_install_in_the_source(tmp_path: Path, state_dir: Path, vora,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("npm_config_offline", "true")
    write_config(state_dir)
    pack_tiny_dep(tmp_path)
    source = unpacked("simmer-automaton-0.7.2.tgz", tmp_path / "simmer")
    package = json.loads((source / "package.json").read_text())
    package["dependencies"] = {"tiny-dep": f"file:{tmp_path / 'tiny-dep-1.0.0.tgz'}"}
    package.pop("devDependencies", None)  # offline: npm would ask the registry about typescript for its lockfile
    (source / "package.json").write_text(json.dumps(package))
    result = vora("plugins", "install", "-l", str(source), "--deps")
    assert result.exit_code == 0, result.stderr
    assert (source / "node_modules" / "tiny-dep" / "index.js").is_file()
    assert vora("plugins", "inspect", "simmer-automaton", "--json").json()["missingDependencies"] == []


def test_deps_without_link_is_a_usage_error(state_dir: Path, vora) -> None:
    write_config(state_dir)
    result = vora("plugins", "install", str(DATA / "npm" / "simmer-automaton-0.7.2.tgz"), "--deps", "--json")
    assert result.exit_code == 2 and result.json()["error"]["code"] == "usage"


# -- compat ---------------------------------------------------------------------------------------

def test_compat_out_of_range_is_refused_and_unknown_is_a_warning(tmp_path: Path, state_dir: Path, vora,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(state_dir)
    source = unpacked("mem0-openclaw-mem0-1.0.16.tgz", tmp_path / "mem0")  # compat >=2026.4.24
    monkeypatch.setenv("VORA_GATEWAY_VERSION", "2026.4.12")
    refused = vora("plugins", "install", "-l", str(source), "--json")
    assert refused.exit_code == 1
    error = refused.json()["error"]
    assert error["code"] == "refused"
    assert "requires minGatewayVersion >=2026.4.24, but the gateway is 2026.4.12" in error["message"]
    assert "installs" not in config_of(state_dir).get("plugins", {})
    monkeypatch.setenv("VORA_GATEWAY_VERSION", "2026.4.30")
    assert vora("plugins", "install", "-l", str(source)).exit_code == 0
    monkeypatch.delenv("VORA_GATEWAY_VERSION")
    shown = vora("plugins", "inspect", "openclaw-mem0", "--json").json()
    assert shown["compat"]["status"] == "unknown"
    assert any("was not checked" in p for p in shown["problems"])


# -- the gateway's validation of a plugin's config, on a write ------------------------------------------

def test_config_set_refuses_what_the_plugin_schema_refuses(state_dir: Path, vora) -> None:
    write_config(state_dir)
    (state_dir / "extensions").mkdir()
    shutil.copytree(DATA / "fixtures" / "bounds-plugin", state_dir / "extensions" / "bounds-plugin")
    before = (state_dir / "vora.json").read_bytes()
    refused = vora("config", "set", "plugins.entries.bounds-plugin.config.max_iterations", "500", "--json")
    assert refused.exit_code == 1
    message = refused.json()["error"]["message"]
    assert "plugins.entries.bounds-plugin.config.max_iterations: invalid config: must be <= 100" in message
    assert (state_dir / "vora.json").read_bytes() == before
    assert vora("config", "set", "plugins.entries.bounds-plugin.config.max_iterations", "50").exit_code == 0
    forced = vora("config", "set", "plugins.entries.bounds-plugin.config.max_iterations", "500", "--force")
    assert forced.exit_code == 0
    assert "the gateway will refuse to start" in forced.stderr


def test_config_set_names_the_near_key_of_a_typo(state_dir: Path, vora) -> None:
    write_config(state_dir)
    refused = vora("config", "set", "agents.defaults.bootstrapMaxchars", "5")
    assert refused.exit_code == 1
    assert 'Unrecognized key: "bootstrapMaxchars" — did you mean \'bootstrapMaxChars\'?' in refused.stderr


def test_an_old_problem_elsewhere_does_not_block_an_edit(state_dir: Path, vora) -> None:
    # the file already holds what the gateway refuses (a typo under agents); a gateway.port edit
    # touches none of it, so it is written, and validate still names the old problem
    (state_dir / "vora.json").write_text('{\n  agents: { defaults: { bootstrapMaxchars: 5 } },\n  gateway: { port: 1 },\n}\n')
    assert vora("config", "set", "gateway.port", "18790").exit_code == 0
    validated = vora("config", "validate")
    assert validated.exit_code == 1 and 'Unrecognized key: "bootstrapMaxchars"' in validated.stdout
