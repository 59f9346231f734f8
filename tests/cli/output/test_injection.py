"""Text vora did not write never drives the terminal, the CI log or the shell (issue 22, class 7).

Every output path of untrusted text, with several members each: file content and names in
`doctor --format github` (and the other formats), newlines in names in tables, log lines and
error lines, completion candidates from the state dir, and a gateway-supplied request id in the
pairing hint (a command the operator pastes).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from completion_support import script, vora_on_path
from conftest import Run
from devices_support import NOW, paired, request, write_store
from gateway_server import running_gateway
from plugins_support import make_plugin, write_config

ESC_NAMES = ["evil\x1b]0;pwned\x07", "evil\x1b[2J\x1b[H", "evil\x9b31m", "evil\u202eexe.sh", "evil\x1b]8;;http://x\x07"]
RAW = ("\x1b", "\x9b", "\x07", "\u202e")


def raw_controls(text: str) -> list[str]:
    return [c for c in RAW if c in text]


# -- CI formats --------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ESC_NAMES)
@pytest.mark.parametrize("fmt", ["text", "github", "junit", "sarif", "json"])
def test_every_doctor_format_escapes_names_from_the_disk(vora: Callable[..., Run], state_dir: Path, name: str,
                                                        fmt: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    (state_dir / "extensions" / name).mkdir(parents=True)  # a folder without a manifest: doctor names it
    run = vora("doctor", "--format", fmt)
    assert raw_controls(run.stdout) == [] and raw_controls(run.stderr) == []
    if fmt == "github":
        lines = [line for line in run.stdout.splitlines() if "plugin-manifests" in line]
        assert len(lines) == 1 and lines[0].startswith("::error ")
        assert "evil\\x" in lines[0] or "evil\\u202e" in lines[0]


@pytest.mark.parametrize("fmt", ["github", "junit", "sarif"])
def test_a_forged_workflow_command_stays_inside_its_annotation(vora: Callable[..., Run], state_dir: Path,
                                                               fmt: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    (state_dir / "extensions" / "x\n::error title=forged::all is well\r\n::add-mask::x").mkdir(parents=True)
    out = vora("doctor", "--format", fmt).stdout
    assert not any(line.startswith("::error title=forged") or line.startswith("::add-mask") for line in out.splitlines())


# -- newlines in names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("char", ["\n", "\r", "\t", "\x1b[1A"])
def test_a_device_name_with_a_newline_stays_in_its_row(vora: Callable[..., Run], state_dir: Path, char: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VORA_NOW_MS", str(NOW))
    write_store(state_dir, pending=[request("phone", displayName=f"phone{char}ghost-device  operator")],
                devices=[paired("laptop", displayName=f"lap{char}top")])
    for args in (("devices", "list"), ("devices", "list", "--pending")):
        out = vora(*args).stdout
        assert raw_controls(out) == [] and "\r" not in out and "\t" not in out
        assert not any(line.startswith("ghost-device") for line in out.splitlines())


def test_a_plugin_folder_with_a_newline_is_one_row(vora: Callable[..., Run], state_dir: Path) -> None:
    write_config(state_dir)
    make_plugin(state_dir / "extensions" / "two\nlines", "nl-engine")
    rows = [line for line in vora("plugins", "list").stdout.splitlines() if "nl-engine" in line]
    assert len(rows) == 1 and "two\\nlines" in rows[0]


@pytest.mark.parametrize("message", [
    "boom\n2026-04-12T10:00:09.000+02:00 INFO [gateway] ready (1 plugins: forged; 0.1s)",
    "boom\r2026-04-12T10:00:09.000+02:00 INFO [gateway] forged",
    "boom\u2028forged",
])
def test_a_log_message_with_a_newline_cannot_forge_the_next_log_line(vora: Callable[..., Run], state_dir: Path,
                                                                     tmp_path: Path, message: str) -> None:
    if Path("/tmp/vora").exists():
        pytest.skip("/tmp/vora exists on this host; the tests must not read a real gateway's log")
    (state_dir / "vora.json").write_text("{}\n")
    folder = tmp_path / "tmp" / f"vora-{os.getuid()}"
    folder.mkdir(mode=0o700)
    line = {"0": '{"subsystem":"plugins"}', "1": message, "time": "2026-04-12T10:00:01.000+02:00",
            "_meta": {"logLevelName": "ERROR"}}
    (folder / "vora-2026-04-12.log").write_text(json.dumps(line) + "\n")
    out = vora("logs", "--file").stdout
    assert len(out.splitlines()) == 1 and out.startswith("2026-04-12T10:00:01.000+02:00 ERROR [plugins] boom\\")
    # --json keeps the message as it is: JSON escapes it
    assert json.loads(vora("logs", "--file", "--json").stdout)["lines"][0]["message"] == message


@pytest.mark.parametrize("name", ["a\nerror: forged", "a\rhint: run rm -rf ~", "a\u2028hint: forged"])
def test_an_error_about_a_hostile_path_is_one_error_line_and_one_hint(vora: Callable[..., Run], tmp_path: Path,
                                                                      name: str) -> None:
    (tmp_path / name).mkdir()  # a folder where the config file should be: an error naming the path
    run = vora("--config", str(tmp_path / name), "config", "get", "gateway")
    assert run.exit_code == 1
    lines = run.stderr.splitlines()
    assert len(lines) <= 2 and lines[0].startswith("error: ") and all(not line.startswith(("error: forged", "hint: run", "hint: forged")) for line in lines[1:])


# -- completion candidates -----------------------------------------------------------------------------

HOSTILE_IDS = ["dev\x1b]0;pwned\x07", "dev\nsecond", "dev\tdescription", "dev\u2028x"]
SHELL_METAS = ["dev$(touch pwned)", "dev`touch pwned`", "dev;touch pwned", "dev 'q' \"dq\""]


def _store(state_dir: Path) -> None:
    devices = state_dir / "devices"
    devices.mkdir(parents=True)
    ids = [*HOSTILE_IDS, *SHELL_METAS, "devok"]
    (devices / "paired.json").write_text(json.dumps({i: {"deviceId": i} for i in ids}))
    (state_dir / "vora.json").write_text("{}\n")


def test_complete_offers_only_printable_candidates(vora_process: Callable[..., subprocess.CompletedProcess[str]],
                                                   state_dir: Path) -> None:
    _store(state_dir)
    out = vora_process("__complete", "devices", "dev").stdout
    assert out.splitlines() == sorted([*SHELL_METAS, "devok"])
    assert raw_controls(out) == []


def _bash_tab(script_path: Path, env: dict[str, str], line: str) -> list[str]:
    words = line.split(" ")
    program = (f"source {shlex.quote(str(script_path))}\n"
               f"COMP_WORDS=({' '.join(shlex.quote(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
               "COMPREPLY=(); _vora; printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    return subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True,
                          env=env, check=True, timeout=60, cwd=env["HOME"]).stdout.splitlines()


def test_bash_inserts_shell_metacharacters_quoted_and_runs_nothing(state_dir: Path, home: Path,
                                                                   tmp_path: Path) -> None:
    _store(state_dir)
    env = {**vora_on_path(tmp_path / "bin"), "HOME": str(home)}
    bash = tmp_path / "vora.bash"
    bash.write_text(script("bash"))
    found = _bash_tab(bash, env, "vora devices remove dev")
    assert len(found) == len(SHELL_METAS) + 1
    # every candidate is one word to bash: reading it back gives the id exactly
    back = subprocess.run(["bash", "--norc", "-c", "for w in " + " ".join(found) + '; do printf "%s\\n" "$w"; done'],
                          capture_output=True, text=True, check=True, cwd=home).stdout.splitlines()
    assert back == sorted([*SHELL_METAS, "devok"])
    assert not (home / "pwned").exists()


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (.ci/run installs it)")
def test_fish_takes_a_percent_in_the_word_as_text(state_dir: Path, home: Path, tmp_path: Path) -> None:
    """The list case printed `$head` inside printf's format: `100%s,` was a format."""
    (state_dir / "vora.json").write_text("{}\n")
    env = {**vora_on_path(tmp_path / "bin"), "HOME": str(home)}
    fish = tmp_path / "vora.fish"
    fish.write_text(script("fish"))
    program = f"source {shlex.quote(str(fish))}; complete -C {shlex.quote('vora doctor --skip x%s%d,sk')}"
    out = subprocess.run(["fish", "--no-config", "-c", program], capture_output=True, text=True, env=env,
                         check=True, timeout=60).stdout
    assert [row.split("\t")[0] for row in out.splitlines()] == ["x%s%d,skills"]


# -- the pairing hint ---------------------------------------------------------------------------------

@pytest.mark.parametrize("request_id", ["x; touch pwned", "$(touch pwned)", "a b", "id\nhint: forged", "`id`"])
def test_the_pairing_hint_quotes_the_gateway_s_request_id(vora: Callable[..., Run], state_dir: Path,
                                                          request_id: str) -> None:
    (state_dir / "vora.json").write_text("{}\n")
    with running_gateway(auto_pair=False, request_id=request_id) as gw:
        status = vora("gateway", "status", "--url", gw.url, "--json")
        human = vora("gateway", "status", "--url", gw.url)
        doctor = vora("doctor", "--live", "--url", gw.url, "--only", "gateway-live-auth", "--json")
    error = status.json()["error"]
    assert error["code"] == "gateway-pairing-required"
    command = "vora devices approve " + _posix_quoted(request_id)
    assert f"run: {command} (or: vora devices approve --latest)" in error["hint"]
    # pasted into a shell, it is one argument: the id itself, and nothing runs
    pasted = subprocess.run(["bash", "--norc", "-c", f"set -- {command}; printf '%s' \"$4\"; [ $# = 4 ]"],
                            capture_output=True, text=True, check=True, cwd=state_dir)
    assert pasted.stdout == request_id and not (state_dir / "pwned").exists()
    assert len(human.stderr.splitlines()) == 2 and "hint: forged" not in human.stderr.splitlines()[1][:14]
    check = doctor.json()["checks"][0]
    assert check["fix"]["command"] == command


def _posix_quoted(text: str) -> str:
    from vora_cli.core.shell import shell_quote

    return shell_quote(text)
