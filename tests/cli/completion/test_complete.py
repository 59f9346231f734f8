"""`vora __complete KIND [PREFIX]`: ids read from a real state dir, quietly and before typer.

A TAB press (`vora __complete`) pays only for what it reads: an ASCII answer is written without
the output layer, a JSON5 config is read without the secret-name rules (they shape parse errors,
which a TAB never shows); a non-ASCII answer still goes through `write_stdout`'s escaping.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from completion_support import REPO, make_state


def complete(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    import os

    full = {**os.environ, **(env or {}), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "vora_cli", *args], capture_output=True, text=True,
                          env=full, check=False, timeout=30)


@pytest.fixture
def state(state_dir: Path) -> Path:
    return make_state(state_dir)


def test_plugin_ids_come_from_entries_installs_and_extension_folders(state: Path) -> None:
    result = complete("__complete", "plugins")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == ["@acme/memory", "ext-folder", "lossless-claw", "my-engine"]


def test_prefix_filters(state: Path) -> None:
    assert complete("__complete", "plugins", "my").stdout == "my-engine\n"
    assert complete("__complete", "plugins", "zz").stdout == ""


def test_devices_requests_and_pending_devices(state: Path) -> None:
    assert complete("__complete", "devices").stdout.splitlines() == ["96ce6dad0000aaaa", "abcd1234abcd1234"]
    assert complete("__complete", "requests").stdout.splitlines() == ["req-7f3a", "req-b210"]
    assert complete("__complete", "pending-devices").stdout.splitlines() == ["96ce6dad0000aaaa", "c0ffee00c0ffee00"]


def test_config_paths_are_known_paths_plus_what_the_file_has(state: Path) -> None:
    paths = complete("__complete", "config-paths").stdout.splitlines()
    for expected in ("gateway.port", "agents.defaults.bootstrapMaxChars", "plugins.slots.contextEngine",
                     "plugins.entries.my-engine.enabled", 'plugins.entries["@acme/memory"]',
                     "plugins.installs.lossless-claw.spec", "agents.list[0].id"):
        assert expected in paths
    assert not [p for p in paths if "*" in p or "[]" in p]
    assert complete("__complete", "config-paths", "gateway.p").stdout == "gateway.port\n"


def test_global_options_and_env_choose_the_state_dir(home: Path, tmp_path: Path) -> None:
    make_state(tmp_path / "elsewhere")
    make_state(home / ".vora-work")
    assert complete("__complete", "plugins").stdout == ""  # the default state dir is empty
    flag = complete("--state-dir", str(tmp_path / "elsewhere"), "__complete", "requests")
    assert flag.stdout.splitlines() == ["req-7f3a", "req-b210"]
    assert complete(f"--state-dir={tmp_path / 'elsewhere'}", "__complete", "requests").stdout.count("\n") == 2
    assert complete("--profile", "work", "__complete", "devices").stdout.count("\n") == 2
    assert complete("__complete", "devices", env={"VORA_PROFILE": "work"}).stdout.count("\n") == 2
    assert complete("__complete", "devices", env={"VORA_STATE_DIR": str(tmp_path / "elsewhere")}).stdout != ""
    assert complete("__complete", "profiles").stdout.splitlines() == ["default", "work"]


@pytest.mark.parametrize("args", [
    ("__complete", "nonsense"),
    ("__complete",),
    ("--profile", "!!bad!!", "__complete", "plugins"),
    ("--dev", "--profile", "x", "__complete", "plugins"),
])
def test_failures_print_nothing_and_exit_0(state: Path, args: tuple[str, ...]) -> None:
    result = complete(*args)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_broken_files_print_nothing_but_other_sources_still_answer(state: Path) -> None:
    (state / "vora.json").write_text("{ plugins: { entries: ")
    (state / "devices" / "paired.json").write_text("{not json")
    result = complete("__complete", "plugins", env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == ["ext-folder", "my-engine"]  # the folders, no error text
    assert complete("__complete", "devices").stdout == ""
    assert "\x1b[" not in result.stdout


def test_an_unreadable_state_dir_prints_nothing(tmp_path: Path) -> None:
    result = complete("--state-dir", str(tmp_path / "missing"), "__complete", "plugins")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_answered_before_typer_click_or_rich_are_imported(state: Path) -> None:
    script = (
        "import sys, runpy\n"
        "sys.argv = ['vora', '__complete', 'plugins']\n"
        "try:\n    runpy.run_module('vora_cli', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    import os

    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)}, check=False)
    loaded = set(result.stderr.split())
    assert "my-engine" in result.stdout
    assert not loaded & {"typer", "click", "rich", "vora_cli.cli.app"}, sorted(loaded & {"typer", "click", "rich"})


def test_config_get_of_the_word_complete_still_reaches_the_app(vora_process, state: Path) -> None:
    result = vora_process("config", "get", "__complete", "--json")
    assert result.returncode == 1
    assert '"error"' in result.stdout


NOT_ON_A_TAB = {"vora_cli.cli.output", "vora_cli.core.secrets", "typer", "click", "rich"}


def _complete(args: list[str], env: dict[str, str] | None = None) -> tuple[str, set[str]]:
    script = (
        "import sys\n"
        f"sys.argv = ['vora', *{args!r}]\n"
        "from vora_cli.complete import run\n"
        "run(sys.argv[1:])\n"
        "print(' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    full = {**os.environ, **(env or {}), "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, env=full, check=True, timeout=30)
    return result.stdout.decode("utf-8", "surrogateescape"), set(result.stderr.decode().split())


def test_ascii_answers_load_no_output_layer_and_no_secret_rules(state_dir: Path) -> None:
    make_state(state_dir)
    for kind, expected in (("config-paths", "gateway.port"), ("plugins", "my-engine"), ("requests", "req-7f3a")):
        out, loaded = _complete(["__complete", kind])
        assert expected in out.splitlines(), kind
        assert not (loaded & NOT_ON_A_TAB), f"{kind}: {sorted(loaded & NOT_ON_A_TAB)}"
        if kind != "requests":  # the commented vora.json goes through the JSON5 parser
            assert "vora_cli.core.json5.parser" in loaded


def test_a_non_ascii_answer_is_still_escaped_for_an_ascii_stdout(state_dir: Path) -> None:
    make_state(state_dir)
    (state_dir / "extensions" / "caf\u00e9").mkdir(parents=True)
    utf8, _ = _complete(["__complete", "plugins", "caf"], {"PYTHONIOENCODING": "utf-8"})
    assert utf8 == "caf\u00e9\n"
    ascii_out, loaded = _complete(["__complete", "plugins", "caf"], {"PYTHONIOENCODING": "ascii"})
    assert ascii_out == "caf\\xe9\n"
    assert "vora_cli.cli.output" in loaded


@pytest.mark.parametrize(("kind", "rel", "link"), [
    ("devices", "devices/paired.json", False), ("pending-devices", "devices/pending.json", True),
    ("plugins", "vora.json", False), ("config-paths", "vora.json", True),
])
def test_a_fifo_or_device_in_a_files_place_answers_nothing_at_once(state: Path, kind: str, rel: str,
                                                                    link: bool) -> None:
    # a TAB press reads the file: a FIFO (opening it waits for a writer) or a link to /dev/zero
    # (an endless read) must give an empty answer, never a shell that hangs
    (state / rel).unlink()
    if link:
        (state / rel).symlink_to("/dev/zero")
    else:
        os.mkfifo(state / rel)
    before = sorted(os.listdir(state / os.path.dirname(rel) if os.path.dirname(rel) else state))
    result = complete("__complete", kind)  # `timeout=`: a hang fails the test
    assert (result.returncode, result.stderr) == (0, "")
    assert not any(line in result.stdout.splitlines() for line in ("abcd1234abcd1234", "c0ffee00c0ffee00"))
    assert sorted(os.listdir(state / os.path.dirname(rel) if os.path.dirname(rel) else state)) == before
