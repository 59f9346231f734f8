"""Every way stdout and stderr can fail ends the same way: no traceback, never `internal`, one
`error:` and its `hint:` on stderr when stderr takes it (nothing when it is gone too), exit 1; a
reader that left (`| head -c1`) is not told. Real `vora` processes on real descriptors: `/dev/full`,
a closed fd 1 (`>&-`), a pipe whose reader has gone, stderr full or closed as well.

Each command runs once plainly and once per way of failing, all at the same time, each on its own
copy of the example install; what the plain run printed says what the others must do.
docs/exit-codes-and-json.md, "When the output cannot be written".
"""

from __future__ import annotations

import errno
import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from sessions_support import entry, write_store

from vora_cli.cli.dispatch import dispatch
from vora_cli.cli.output import Run, format_error, write_stdout
from vora_cli.cli.streams import prepare_streams, release_stdout
from vora_cli.core.errors import VoraError

REPO = Path(__file__).resolve().parents[3]
FULL = Path("/dev/full")
DISK_FULL = ("error: standard output: No space left on device\n"
             "hint: the disk is full: free some space and run the command again\n")
CLOSED = ("error: standard output is closed\n"
          "hint: give vora somewhere to write: redirect it to a file or to /dev/null rather than closing it (>&-)\n")
NOT_IN_ANY_OUTPUT = ("Traceback", "unexpected error", "Exception ignored", "internal")
OFFLINE = "ws://127.0.0.1:9"  # nothing listens on the discard port


class Outcome:
    """One finished run: its exit code and what it printed where the test could see it."""

    def __init__(self, code: int, stdout: str | None, stderr: str | None) -> None:
        self.code, self.stdout, self.stderr = code, stdout, stderr


def _closing(*fds: int) -> Callable[[], None]:
    def close() -> None:  # in the child, after its descriptors are set up: `>&-`, `2>&-`
        for fd in fds:
            os.close(fd)
    return close


# How each run's stdout and stderr are set up: (stdout, stderr, descriptors closed in the child);
# "full" is /dev/full, "gone" the write end of a pipe whose read end is already closed.
Way = tuple[str, str, tuple[int, ...]]
PLAIN: dict[str, Way] = {"plain": ("pipe", "pipe", ())}
STDOUT_FAILS: dict[str, Way] = {
    "stdout full": ("full", "pipe", ()),
    "stdout closed": ("null", "pipe", (1,)),
    "reader gone": ("gone", "pipe", ()),
}
STDERR_FAILS_TOO: dict[str, Way] = {
    "both full": ("full", "full", ()),
    "both closed": ("null", "null", (1, 2)),
    "stdout full, stderr closed": ("full", "null", (2,)),
    "stderr full": ("pipe", "full", ()),
    "stderr closed": ("pipe", "null", (2,)),
}
STDOUT_GONE = ("stdout full", "stdout closed", "reader gone", "both full", "both closed", "stdout full, stderr closed")


# The plain run of a command line, by its words: the same whichever test asks (a fresh copy of the
# example install, the clock pinned), so the tests that fail its output in different ways share it.
_plain_runs: dict[tuple[str, ...], Outcome] = {}


def run_all_ways(argv: list[str], states: Installs, ways: dict[str, Way] | None = None,
                 env: dict[str, str] | None = None, *, shared_plain: bool = False) -> dict[str, Outcome]:
    """`vora --state-dir STATE *argv` plainly and once per way (`STDOUT_FAILS` unless told),
    concurrently: the outcomes by way. `shared_plain`: the plain run is the one an earlier test
    made of the same words, if any (for a test that reads no install's files afterwards and
    sets no environment of its own)."""
    full_env = {**os.environ, **(env or {}), "PYTHONPATH": str(REPO), "VORA_NOW_MS": "1767225600000"}
    plain = _plain_runs.get(tuple(argv)) if shared_plain else None
    running: dict[str, subprocess.Popen[bytes]] = {}
    installs: dict[str, str] = {}  # each run's copy, shown as INSTALL so the runs compare
    with ExitStack() as stack:
        for way, (out, err, closed) in {**({} if plain else PLAIN), **(STDOUT_FAILS if ways is None else ways)}.items():
            if "full" in (out, err) and not FULL.exists():
                continue
            ends: dict[str, Any] = {}
            for name, kind in (("stdout", out), ("stderr", err)):
                if kind == "pipe":
                    ends[name] = subprocess.PIPE
                elif kind == "null":
                    ends[name] = subprocess.DEVNULL
                elif kind == "full":
                    ends[name] = stack.enter_context(FULL.open("wb"))
                else:
                    read, write = os.pipe()
                    os.close(read)
                    ends[name] = stack.enter_context(os.fdopen(write, "wb"))
            state = next(states)
            installs[way] = str(state.parent)
            command = [sys.executable, "-m", "vora_cli", "--state-dir", str(state), *argv]
            running[way] = subprocess.Popen(command, env=full_env, stdin=subprocess.DEVNULL,
                                            preexec_fn=_closing(*closed) if closed else None, **ends)
        stack.close()  # the parent's copies of /dev/full and the pipes' write ends
        outcomes = {}
        for way, process in running.items():
            stdout, stderr = process.communicate(timeout=120)
            shown = [None if text is None else text.decode().replace(installs[way], "INSTALL") for text in (stdout, stderr)]
            outcomes[way] = Outcome(process.returncode, *shown)
    if shared_plain:
        plain = _plain_runs.setdefault(tuple(argv), plain or outcomes["plain"])
    return {"plain": plain, **outcomes} if plain else outcomes


class Installs:
    """A fresh copy of the example install for each run (config set writes); `made` lists them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.made: list[Path] = []

    def __iter__(self) -> Iterator[Path]:
        return self

    def __next__(self) -> Path:
        copy = self.root / f"install-{len(self.made)}"
        shutil.copytree(REPO / "examples", copy, symlinks=True)
        self.made.append(copy / "vora")
        return self.made[-1]


@pytest.fixture
def states(tmp_path: Path) -> Installs:
    return Installs(tmp_path)


def check_every_way(outcomes: dict[str, Outcome], *, quiet: bool = False, label: str = "error:") -> None:
    """What each way must do, from what the plain run printed. `quiet`: a TAB press (`__complete`),
    which never says anything and exits 0 (docs/README.md, "Shell completion"); `label`: how
    `error:` looks (coloured when colour is forced)."""
    plain = outcomes["plain"]
    assert plain.stdout is not None and plain.stderr is not None
    for way, outcome in outcomes.items():
        for text in (outcome.stdout, outcome.stderr):
            assert not any(bad in (text or "") for bad in NOT_IN_ANY_OUTPUT), (way, text)
        stdout_fails = way in STDOUT_GONE and plain.stdout != "" and not quiet
        expected_code = 1 if stdout_fails else plain.code
        assert outcome.code == expected_code, (way, outcome.code, outcome.stderr)
        if way in ("stderr full", "stderr closed"):
            assert outcome.stdout == plain.stdout, way  # a stderr that takes nothing changes no result
        if outcome.stderr is None:
            continue
        said = {"stdout full": DISK_FULL, "stdout closed": CLOSED}.get(way, "") if stdout_fails else ""
        said = said.replace("error:", label, 1)
        assert outcome.stderr.endswith(said), (way, outcome.stderr)
        # what came before it is what the plain run said until then (notes, warnings), never an error
        before = outcome.stderr[: len(outcome.stderr) - len(said)]
        assert plain.stderr.startswith(before), (way, outcome.stderr)
        if stdout_fails:
            assert label not in before, (way, outcome.stderr)
        else:
            assert outcome.stderr == plain.stderr, (way, outcome.stderr)


# The early paths, the fast dispatch (text and --json), the Typer app (help, usage errors, the
# other commands), streamed JSON lists and the errors of each.
COMMANDS = [
    ["--version"],
    ["--version", "--json"],
    ["--json", "-V"],
    ["--help"],
    ["confg"],
    ["confg", "--json"],
    ["config", "get", "gateway.port"],
    ["config", "get", "gateway", "--json"],
    ["config", "get", "nope"],
    ["config", "get", "nope", "--json"],
    ["config", "validate"],
    ["config", "validate", "--json"],
    ["config", "file", "--json"],
    ["context", "list"],
    ["context", "json"],
    ["plugins", "list"],
    ["plugins", "list", "--json"],
    ["devices", "list"],
    ["devices", "list", "--json"],
    ["sessions", "list"],
    ["sessions", "list", "--json"],
    ["sessions", "show", "main"],
    ["sessions", "show", "main", "--json"],
    ["doctor"],
    ["doctor", "--json"],
    pytest.param(["completion", "bash"], marks=pytest.mark.slow),  # the script is built by walking the app
    ["logs", "--url", OFFLINE],
    ["logs", "--url", OFFLINE, "--json"],
    ["gateway", "status", "--url", OFFLINE, "--json"],
]


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_failed_output_is_one_error_or_none(argv: list[str], states: Installs) -> None:
    check_every_way(run_all_ways(argv, states, shared_plain=True))


# One of each path, with stderr failing too (or alone): the early `--version`, the fast dispatch's
# text, streamed JSON and error, the app's help, usage error (JSON) and a command of its own.
@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@pytest.mark.parametrize("argv", [
    ["--version"],
    ["--version", "--json"],
    ["config", "get", "gateway.port"],
    ["sessions", "list", "--json"],
    ["config", "get", "nope", "--json"],
    ["--help"],
    pytest.param(["confg", "--json"], marks=pytest.mark.slow),
    ["plugins", "list"],
], ids=" ".join)
def test_a_stderr_that_fails_too_ends_the_run_quietly(argv: list[str], states: Installs) -> None:
    """stderr full or closed as well: nothing is said, the exit code is the same; stderr failing
    alone changes neither the data nor the exit code."""
    check_every_way(run_all_ways(argv, states, STDERR_FAILS_TOO, shared_plain=True))


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@pytest.mark.parametrize("argv", [["__complete", "plugins"], ["__complete", "config-paths", "gateway."]], ids=" ".join)
def test_a_tab_press_whose_output_fails_says_nothing(argv: list[str], states: Installs) -> None:
    outcomes = run_all_ways(argv, states, {**STDOUT_FAILS, **STDERR_FAILS_TOO})
    assert outcomes["plain"].stdout
    check_every_way(outcomes, quiet=True)


def test_a_typer_path_command_fails_as_the_fast_path_does(states: Installs) -> None:
    """The same hot command through the app (VORA_NO_FAST_DISPATCH=1): the app's boundary."""
    check_every_way(run_all_ways(["config", "get", "gateway", "--json"], states, env={"VORA_NO_FAST_DISPATCH": "1"}))


@pytest.mark.slow  # over 1.5 s of CPU on the 2-core machine (VORA_TEST_SLOW_CHECK=report)
@pytest.mark.parametrize("argv", [["doctor"], ["plugins", "list"]], ids=" ".join)
def test_rich_output_that_fails_is_one_error_too(argv: list[str], states: Installs) -> None:
    """Colour forced (FORCE_COLOR): the styled lines go through rich's console, on the same stdout."""
    outcomes = run_all_ways(argv, states, env={"NO_COLOR": "", "FORCE_COLOR": "1"})
    assert "\x1b[" in (outcomes["plain"].stdout or "")
    check_every_way(outcomes, label="\x1b[1;31merror:\x1b[0m")


@pytest.mark.parametrize("argv", [["config", "set", "gateway.port", "18790"],
                                  ["config", "set", "gateway.port", "18790", "--json"]], ids=" ".join)
def test_a_write_whose_report_fails_is_written_whole(argv: list[str], states: Installs) -> None:
    """The write is done before its report is printed: when only the report fails, the file is the
    one the plain run wrote (whole, with its backup) and the run says stdout failed, exit 1."""
    check_every_way(run_all_ways(argv, states))
    written = (states.made[0] / "vora.json").read_bytes()
    assert b"18790" in written
    assert {(state / "vora.json").read_bytes() for state in states.made} == {written}


@pytest.mark.parametrize("argv", [["config", "set", "gateway.port", "x" * 3],
                                  ["config", "set", "gateway.port", "x" * 3, "--json"],
                                  ["config", "set", "nope..path", "1", "--json"]], ids=" ".join)
def test_a_write_refused_before_writing_changes_nothing(argv: list[str], states: Installs) -> None:
    """A set refused before it writes (a bad value, a bad path) leaves every copy as it was, its
    folder too (no lock, backup or temporary file), whichever way its output fails."""
    outcomes = run_all_ways(argv, states)
    assert outcomes["plain"].code != 0
    check_every_way(outcomes)
    original = REPO / "examples" / "vora"
    for state in states.made:
        assert (state / "vora.json").read_bytes() == (original / "vora.json").read_bytes()
        assert sorted(p.name for p in state.iterdir()) == sorted(p.name for p in original.iterdir())


@pytest.mark.parametrize(("argv", "env"), [
    (["sessions", "list"], {}),
    (["sessions", "list", "--json"], {}),
    (["sessions", "list", "--json"], {"VORA_NO_FAST_DISPATCH": "1"}),
], ids=["fast text", "fast streamed json", "typer streamed json"])
def test_a_reader_that_leaves_early_ends_the_run_quietly(argv: list[str], env: dict[str, str], tmp_path: Path) -> None:
    """`vora sessions list | head -c1`: more than a pipe holds (3,000 sessions), the reader takes one
    byte and leaves; vora's next write fails: exit 1, nothing on stderr, not even Python's
    "Exception ignored" from its flush at exit."""
    state = tmp_path / "state"
    write_store(state, {f"agent:main:s{i}": entry(f"session-{i:05d}", label="x" * 40) for i in range(3000)})
    full_env = {**os.environ, **env, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen([sys.executable, "-m", "vora_cli", "--state-dir", str(state), *argv], env=full_env,
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.read(1)
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 1
    assert len(first) == 1
    assert stderr == b""


class _FillsUp(io.RawIOBase):
    """A file on a disk with `room` bytes left: takes them, then ENOSPC."""

    def __init__(self, room: int) -> None:
        self.room, self.got = room, bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        if not self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        taken = bytes(data[: self.room])
        self.got += taken
        self.room -= len(taken)
        return len(taken)


def _dispatch_into(stdout: _FillsUp, argv: list[str]) -> tuple[int | None, str]:
    """The fast dispatch in-process with stdout on `stdout`: (exit code, stderr)."""
    saved = sys.stdout, sys.stderr
    err = io.BytesIO()
    out = sys.stdout = io.TextIOWrapper(io.BufferedWriter(stdout), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        code = dispatch(argv)
        said = err.getvalue().decode()
    finally:
        sys.stdout, sys.stderr = saved
    got = bytes(stdout.got)
    try:
        out.close()  # what a failed flush kept goes nowhere: the file is what it got
    except OSError:
        pass
    del stdout.got[len(got):]
    return code, said


@pytest.mark.parametrize("room", [0, 1, 20_000])
def test_json_cut_short_by_a_full_disk_is_never_followed_by_anything(room: int, tmp_path: Path,
                                                                     pinned_clock: None) -> None:
    """`sessions list --json > file` on a disk with `room` bytes left: the file holds a prefix of the
    document and nothing after it (no error document, not a byte of the retained buffer); the
    disk-full error is on stderr, once."""
    state = tmp_path / "state"
    write_store(state, {f"agent:main:s{i}": entry(f"session-{i:05d}") for i in range(1000)})
    argv = ["--state-dir", str(state), "sessions", "list", "--json"]
    whole = _FillsUp(10**9)
    assert _dispatch_into(whole, argv) == (0, "")
    json.loads(bytes(whole.got))
    cut = _FillsUp(room)
    assert _dispatch_into(cut, argv) == (1, DISK_FULL)
    assert len(cut.got) == room
    assert bytes(whole.got).startswith(bytes(cut.got))


def test_an_error_after_json_data_went_out_is_said_on_stderr() -> None:
    """stdout holds one JSON document: once data went out, a later error cannot be a second one."""
    saved = sys.stdout, sys.stderr
    out, err = io.StringIO(), io.StringIO()
    sys.stdout, sys.stderr = out, err
    try:
        prepare_streams()
        run = Run(["--json"])
        run.json_mode = True
        write_stdout('{"rows": [1, 2')
        format_error(run, VoraError("io_error", "the store went away", "run it again"))
    finally:
        release_stdout()
        sys.stdout, sys.stderr = saved
    assert out.getvalue() == '{"rows": [1, 2'
    assert err.getvalue() == "error: the store went away\nhint: run it again\n"
