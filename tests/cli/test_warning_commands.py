"""A `vora …` command inside a warning carries the run's global options, as hints and notes do:
pasted, it acts on the same install (never the default `~/.vora`)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run


def _keyed_plugin(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "openclaw.plugin.json").write_text(json.dumps({"id": "keyed-w", "configSchema": {
        "type": "object", "required": ["apiKey"], "properties": {"apiKey": {"type": "string"}}}}))
    (root / "package.json").write_text(json.dumps({"name": "keyed-w", "version": "1.0.0", "type": "module",
                                                   "openclaw": {"extensions": ["./index.js"]}}))
    (root / "index.js").write_text('export default { id: "keyed-w", register() {} };\n')
    return root


@pytest.mark.parametrize("globals_", [["--state-dir", "{state}"], ["--config", "{state}/vora.json"],
                                      ["--state-dir", "{state}", "--config", "{state}/vora.json"]])
@pytest.mark.parametrize("link", [False, True])
def test_the_commands_in_a_warning_name_the_same_install(globals_: list[str], link: bool, tmp_path: Path,
                                                         vora: Callable[..., Run]) -> None:
    state = tmp_path / "other state"
    state.mkdir()
    (state / "vora.json").write_text("{}\n")
    source = _keyed_plugin(tmp_path / "src" / "keyed-w")
    given = [g.format(state=state) for g in globals_]
    run = vora(*given, "plugins", "install", *(["-l"] if link else []), str(source))
    assert run.exit_code == 0, run.stderr
    warnings = [line for line in run.stderr.splitlines() if line.startswith("warning: ")]
    assert warnings and any("vora " in line for line in warnings), run.stderr
    prefix = "vora " + " ".join(f"{flag} '{value}'" if " " in value else f"{flag} {value}"
                                for flag, value in zip(given[::2], given[1::2], strict=True)) + " "
    assert any(prefix + "config set plugins.entries.keyed-w.config.apiKey" in line for line in warnings), warnings
    for line in warnings:  # and no command is left without them
        assert not re.search(r"\bvora (config|plugins) ", line), line
