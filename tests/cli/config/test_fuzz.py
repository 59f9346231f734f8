"""Fuzz: whatever bytes the files, values and paths hold, vora never fails with `internal`,
never prints a traceback, and changes nothing when it fails (issue 12, "Done when").

Drives `config get/set/unset/patch` and `context list` in-process on real files. Argument bytes
reach vora as the OS hands them over: decoded with the file system encoding's surrogateescape
(what `sys.argv` holds for a non-UTF-8 byte).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import vora_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SEEDS = [
    b'{\n  // comment\n  gateway: { port: 18789, auth: { token: "t0k" } },\n  agents: { list: [{ id: "a" }] },\n}\n',
    b'{"plugins": {"entries": {"x.y": {"enabled": true}}, "allow": ["a"]}, "note": "\\ud800"}',
    b"{a: 1, a: 2, '$include': './other.json5'}",
    b"{ env: { K: '${HOME}' }, skills: { load: { extraDirs: ['/tmp'] } }, n: NaN, h: 0x1F, }",
    b'\xef\xbb\xbf{"gateway": {"port": 1}}\r\n',
]
KNOWN_PATHS = ["gateway.port", "gateway.auth.token", "agents.list[0].id", "agents.list", "plugins.allow",
               'plugins.entries["x.y"].enabled', "a", "note", "$include", "env.K", "a.b\\.c", "n", "x[0]", ""]
VALUES = ["18800", "true", "ture", "null", "NaN", "-Infinity", "[1,", "{a: [1, {b: 2}]}", "'x'", '"\\ud800"',
          "0x10", "1e999", ""]


def _mutated(seed: bytes, cut: int, insert: bytes) -> bytes:
    at = cut % (len(seed) + 1)
    return seed[:at] + insert + seed[at + len(insert) // 2:]


def _including(name: str, nested: bool) -> bytes:
    doc: dict[str, object] = {"$include": name, "a": 1}
    return json.dumps({"agents": doc} if nested else doc).encode()


config_bytes = st.one_of(
    st.binary(max_size=120),
    st.builds(_including, st.one_of(st.text(max_size=16), st.binary(max_size=16).map(os.fsdecode),
                                    st.sampled_from(["./other.json5", "../x", "/etc/passwd", "./vora.json", ""])),
              st.booleans()),
    st.builds(_mutated, st.sampled_from(SEEDS), st.integers(0, 200), st.binary(max_size=8)),
    st.sampled_from(SEEDS),
)
arg_text = st.one_of(
    st.binary(max_size=24).map(os.fsdecode),
    st.text(max_size=24),
)
paths = st.one_of(st.sampled_from(KNOWN_PATHS), arg_text)
values = st.one_of(st.sampled_from(VALUES), arg_text)
commands = st.one_of(
    st.tuples(st.just("get"), paths, st.just(""), st.booleans()),
    st.tuples(st.just("set"), paths, values, st.booleans()),
    st.tuples(st.just("unset"), paths, st.just(""), st.booleans()),
    st.tuples(st.just("patch-file"), st.just(""), st.just(""), st.booleans()),
    st.tuples(st.just("patch-stdin"), st.just(""), st.just(""), st.booleans()),
    st.tuples(st.just("context"), st.just(""), st.just(""), st.booleans()),
)


def _snapshot(root: Path) -> dict[str, bytes]:
    """Every file under `root` (lock files aside: taking a lock is not a change)."""
    found: dict[str, bytes] = {}
    for folder, _dirs, files in os.walk(os.fsencode(root)):
        for name in files:
            if name.endswith(b".lock"):
                continue
            full = os.path.join(folder, name)
            with open(full, "rb") as handle:
                found[os.fsdecode(full)] = handle.read()
    return found


@pytest.mark.slow  # 200 examples, each a temp dir of files written and snapshotted: 1.5-4.4 s wall, I/O-bound
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(config=config_bytes, included=config_bytes, patch=config_bytes, command=commands,
       json_mode=st.booleans())
def test_config_commands_never_fail_internally(config: bytes, included: bytes, patch: bytes,
                                               command: tuple[str, str, str, bool], json_mode: bool) -> None:
    name, path, value, extra = command
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        state = root / "state"
        state.mkdir()
        (state / "vora.json").write_bytes(config)
        (state / "other.json5").write_bytes(included)
        (root / "patch.json5").write_bytes(patch)
        workspace = state / "workspace"
        workspace.mkdir()
        (workspace / "AGENTS.md").write_bytes(included)
        args: list[str]
        stdin: bytes | None = None
        if name == "get":
            args = ["config", "get", path] + (["--reveal"] if extra else [])
        elif name == "set":
            args = ["config", "set", path, value] + (["--strict-json"] if extra else [])
        elif name == "unset":
            args = ["config", "unset", path] + (["--dry-run"] if extra else [])
        elif name == "patch-file":
            args = ["config", "patch", str(root / "patch.json5")]
        elif name == "patch-stdin":
            args, stdin = ["config", "patch", "-"], patch
        else:
            args = ["context", "list"] + (["--workspace", str(workspace)] if extra else [])
        if json_mode:
            args.append("--json")
        before = _snapshot(root)
        env = {"VORA_STATE_DIR": str(state), "VORA_LOCK_TIMEOUT": "2"}
        result = CliRunner(mix_stderr=False).invoke(vora_command(), args, input=stdin, env=env)
        output = result.stdout + result.stderr
        assert result.exit_code in (0, 1, 2, 3), (args, output, result.exception)
        assert result.exception is None or isinstance(result.exception, SystemExit), (args, result.exception)
        assert "unexpected error" not in output and '"internal"' not in output, (args, output)
        assert "Traceback" not in output, (args, output)
        if result.exit_code != 0 or name in ("get", "context") or (name == "unset" and extra):
            assert _snapshot(root) == before, (args, output)
