"""One run of a command without Typer: its output state and install (`AppState`), the root's global
options, and the error boundary's exception table and last step, shared by the Typer app and the
fast dispatch. Light on purpose: no typer, no click, no rich.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

from vora_cli.cli.output import EXIT_CANCELLED, Cancelled, Output, Run, format_error
from vora_cli.cli.streams import StdoutFailed, end_stdout, release_stdout
from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.install import Install


class AppState:
    """`ctx.obj` of the root context, and what a command body gets: the run's output state and its
    install (one per run). The boundary makes it with the `Run`; `start` adds the `Install`."""

    __slots__ = ("_install", "run")

    def __init__(self, run: Run, install: Install | None = None) -> None:
        self.run = run
        self._install = install

    @property
    def install(self) -> Install:
        """The run's install (a sub-app invoked on its own, in a test, has no global options)."""
        if self._install is None:
            from vora_cli.core.install import Install

            self._install = Install(settings=self.run.settings)
        return self._install

    @property
    def started(self) -> bool:
        return self._install is not None

    def output(self, json_mode: bool, *, no_headers: bool = False) -> Output:
        """The command's output, on the run's `Run` (JSON mode when this command or the root said so)."""
        return Output(self.run, json_mode=json_mode or self.run.json_mode, no_headers=no_headers)

    def start(self, *, state_dir: str | None, config: str | None, profile: str | None, dev: bool,
              env: Mapping[str, str], group: str | None, force: bool = False, no_pager: bool = False,
              ascii_only: bool = False) -> None:
        """The root's global options: the run's install and the options a hint repeats, how the
        output looks (`--no-pager`, `--ascii`); raises the VoraError they make (the caller shows it
        once the command's own `--json` is known)."""
        self.run.no_pager = self.run.no_pager or no_pager
        self.run.ascii_flag = self.run.ascii_flag or ascii_only
        from vora_cli.core.install import Install
        from vora_cli.core.paths import validate_profile
        from vora_cli.core.shell import shell_quote

        # The run's one install (nothing is read yet: paths, config and settings on first use), on
        # the settings the run's output already uses.
        self._install = Install(state_dir=state_dir, config=config, profile=profile, dev=dev, env=env,
                                settings=self.run.settings, force=force)
        typed = [("--state-dir", state_dir), ("--config", config), ("--profile", profile)]
        self.run.global_args = ([f"{flag} {shell_quote(value)}" for flag, value in typed if value is not None]
                                + (["--dev"] if dev else []))
        if dev and profile is not None:
            raise VoraError("usage", "--dev and --profile cannot be used together", "--dev is --profile dev; pick one")
        if profile is not None:
            validate_profile(profile)
        if group != "settings":
            # A settings file that does not parse fails every command but `vora settings` (which
            # repairs it), the same whether or not a flag settles the values it holds
            # (docs/settings.md, "A bad settings file"); `--help` and `--version` never get here.
            self._install.settings.check()


# -- the exception table: what reaches the boundary, as the error an operator reads --------------

# errno -> the next step for an operator; anything else gets the general one.
_IO_HINTS = {
    "ENOTDIR": "a file stands where vora needs a folder: move it away, or point vora elsewhere",
    "EISDIR": "a folder stands where vora needs a file: move it away, or point vora elsewhere",
    "EACCES": "you may not read or write there: check its owner and mode, or run as its owner",
    "EPERM": "the operating system does not allow this there: check its owner, mode and flags",
    "EROFS": "that file system is read-only: point vora at a writable folder",
    "ENAMETOOLONG": "the name is too long for the file system: choose a shorter name or path",
    "ENOSPC": "the disk is full: free some space and run the command again",
    "EDQUOT": "your disk quota is used up: free some space and run the command again",
    "ENOENT": "the file or folder does not exist: check the path",
}
_STDOUT_HINT = "check what the output goes to: the file, pipe or device it is redirected to"
_IO_HINT = "check that the path exists, is the kind vora expects (file or folder) and that you may use it"


def version_document() -> dict[str, str]:
    """`vora --version --json`: what scripts probe (the one version, `vora_cli.__version__`)."""
    from vora_cli import __version__

    return {"name": "vora", "version": __version__}


def _blocking_file(path: str) -> str | None:
    """For ENOTDIR: the nearest ancestor of `path` that exists and is not a folder."""
    parent = os.path.dirname(path)
    while parent and parent != os.path.dirname(parent):
        if os.path.lexists(parent):
            return parent if not os.path.isdir(parent) else None
        parent = os.path.dirname(parent)
    return None


def _io_error(error: BaseException) -> VoraError:
    """An OS refusal (ENOTDIR, EACCES, ENAMETOOLONG, EISDIR, ENOSPC, ...): the file and the OS reason."""
    import errno

    assert isinstance(error, OSError)
    names = [os.fsdecode(f) if isinstance(f, bytes) else str(f)
             for f in (error.filename, error.filename2) if f is not None]
    reason = error.strerror or type(error).__name__
    message = f"{' -> '.join(names)}: {reason}" if names else reason
    code = errno.errorcode.get(error.errno or 0, "")
    if code == "ENOTDIR" and names:
        blocking = _blocking_file(names[0])
        if blocking is not None:
            message = f"{blocking}: {reason} (needed as a folder for {names[0]})"
    return VoraError("io_error", message, _IO_HINTS.get(code, _IO_HINT))


def _unencodable_name(error: BaseException) -> VoraError:
    """A path or name holding a lone surrogate (from a JSON5 `"\\ud800"`) reached the OS, which
    cannot take it: no such file can exist, so this is bad input, not a bug."""
    assert isinstance(error, UnicodeEncodeError)
    bad = error.object[error.start : error.end]
    shown = "".join(f"\\u{ord(c):04x}" for c in bad) if isinstance(bad, str) else repr(bad)
    return VoraError("invalid", f"a file name or path holds {shown}, which no file system can store",
                     "fix that path in the config or on the command line (vora config get shows it escaped)")


def _nul_in_name(error: BaseException) -> VoraError:
    """A path holding a NUL (from a JSON5 `"\\u0000"`) reached the OS, which refuses it as
    `ValueError: embedded null byte`: bad input, as `_unencodable_name`. Any other ValueError is a bug."""
    if "embedded null" not in str(error):
        return _internal_error(error)
    return VoraError("invalid", "a file name or path holds a NUL character (\\u0000), which no file system can store",
                     "fix that path in the config or on the command line (vora config get shows it escaped)")


def _external_error(error: BaseException) -> VoraError:
    """A subprocess vora ran (npm, $EDITOR) failed or hung."""
    import subprocess

    assert isinstance(error, subprocess.SubprocessError)
    cmd = getattr(error, "cmd", None)
    program = (cmd if isinstance(cmd, str) else " ".join(str(c) for c in cmd)) if cmd else "a command"
    if isinstance(error, subprocess.CalledProcessError):
        message = f"'{program}' failed with exit code {error.returncode}"
    elif isinstance(error, subprocess.TimeoutExpired):
        message = f"'{program}' did not finish in {error.timeout:g} s"
    else:
        message = f"'{program}' failed: {error}"
    return VoraError("external", message, "run the command by hand to see its own output")


def _internal_error(error: BaseException) -> VoraError:
    return VoraError(
        "internal",
        f"unexpected error: {type(error).__name__}: {error}",
        "this is a bug in vora; rerun with VORA_DEBUG=1 to see the traceback",
    )


def _error_table() -> list[tuple[type[BaseException], Callable[[BaseException], VoraError]]]:
    """Exception type -> the VoraError it is shown as; the first matching row wins; the rest is a
    bug (`internal`). `VoraError`, click's usage errors, Ctrl-C and a closed pipe have their own
    branches at the boundary."""
    import subprocess

    return [
        (OSError, _io_error),
        (UnicodeEncodeError, _unencodable_name),
        (ValueError, _nul_in_name),
        (subprocess.SubprocessError, _external_error),
    ]


def as_vora_error(error: BaseException) -> VoraError:
    """The error an operator reads for an exception that reached the boundary."""
    if isinstance(error, VoraError):
        return error
    for kind, convert in _error_table():
        if isinstance(error, kind):
            return convert(error)
    return _internal_error(error)


def failure_code(run: Run, error: Exception) -> int:
    """The boundary's last branch: `error` shown in the run's mode, its exit code returned (a bug is
    one line; re-raised for its traceback with VORA_DEBUG=1). A failed write to stdout is said by
    `finish`, once, when the run ends."""
    if isinstance(error, StdoutFailed):
        return 1
    if isinstance(error, Cancelled):  # a declined question: no error, nothing was done
        from vora_cli.cli.output import write_stderr

        write_stderr("Cancelled.\n")
        return EXIT_CANCELLED
    vora_error = as_vora_error(error)
    if vora_error.code == "internal" and os.environ.get("VORA_DEBUG"):
        raise error
    format_error(run, vora_error)
    return vora_error.exit_code


def finish(run: Run, code: int, state: AppState | None = None) -> int:
    """The boundary's very last step, after the command and any error it printed: a newer gateway
    line's state dir said once (`say_newer_line`), stdout flushed, and when a write to it failed
    during the run, that failure is the outcome (exit 1), said once on stderr
    (`say_stdout_failure`); then stdout is the stream itself again."""
    if state is not None:
        say_newer_line(run, state)
    failure = end_stdout()
    if failure is not None:
        code = say_stdout_failure(run, failure)
    release_stdout()
    return code


def say_newer_line(run: Run, state: AppState) -> None:
    """Once a run: what vora cannot see in a state dir a newer gateway line wrote (core/newer_line.py),
    on stderr, for the commands that looked at the install. Never fails the run."""
    if not state.started:
        return
    install = state.install
    try:
        newer = install.newer_line_seen()
    except (VoraError, OSError):
        return
    if newer is not None:
        from vora_cli.cli.output import write_stderr

        write_stderr(f"note: {newer.summary()}{'' if install.force else '; vora writes nothing there without --force'}\n")


def say_stdout_failure(run: Run, failure: StdoutFailed) -> int:
    """A failed stdout as an operator reads it, on stderr (JSON mode too: stdout is what failed),
    and its exit code: 1. A reader that left (`| head`) has what it wanted: nothing is said. When
    stderr takes nothing either, nothing is said (`write_stderr`)."""
    if not failure.reader_left:
        format_error(run, stdout_error(failure.cause))
    return 1


def stdout_error(cause: OSError) -> VoraError:
    """The io_error of a failed stdout: named as the stream, with the OS reason's hint
    (`_IO_HINTS`: "the disk is full: ..."), or the closed stream's own."""
    import errno

    if cause.errno == errno.EBADF:
        return VoraError("io_error", "standard output is closed",
                         "give vora somewhere to write: redirect it to a file or to /dev/null rather than closing it (>&-)")
    reason = cause.strerror or type(cause).__name__
    return VoraError("io_error", f"standard output: {reason}",
                     _IO_HINTS.get(errno.errorcode.get(cause.errno or 0, ""), _STDOUT_HINT))
