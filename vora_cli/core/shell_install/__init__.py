"""Install a completion script where each shell loads it from, and only ever replace or remove what vora's
record proves vora wrote (docs/settings.md, "Shell completion").
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass
from vora_cli.core.shell_install.blocks import (
    BEGIN,
    END,
    SCRIPT_MODE,
    mentions,
    plan_block,
    set_block,
    with_block,
)
from vora_cli.core.shell_install.record import looks_like_vora_script, written_by_vora
from vora_cli.core.writer import (
    check_replaceable,
    remove_file,
    replace_atomically,
    unused_backup_path,
    update_file,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.core.shell_install.bash_check import BashLoading

__all__ = ["BEGIN", "END", "SHELLS", "CompletionChange", "ShellFiles", "install_completion", "shell_files",
           "uninstall_completion", "with_block"]

SHELLS = ("bash", "zsh", "fish")


@dataclass(frozen=True)
class ShellFiles:
    """Where one shell's completion goes: the script, and the start-up file vora may add a block to."""

    shell: str
    script: Path
    rc: Path | None  # the file with vora's block (zsh), or the file an older vora used (bash)
    # The folder the operator's environment names (XDG_DATA_HOME, XDG_CONFIG_HOME,
    # BASH_COMPLETION_USER_DIR): uninstall removes the empty folders install made below it, never it.
    base: Path


def shell_files(shell: str, env: Mapping[str, str]) -> ShellFiles:
    from vora_cli.core.home import os_home
    from vora_cli.core.userdirs import xdg_config_dir, xdg_data_dir

    home = os_home(env)
    if shell == "bash":
        user_dirs = env.get("BASH_COMPLETION_USER_DIR", "").split(":")
        base = Path(user_dirs[0]) if user_dirs[0] else xdg_data_dir("bash-completion")
        return ShellFiles(shell, base / "completions" / "vora", home / ".bashrc",
                          base if user_dirs[0] else base.parent)
    if shell == "zsh":
        zdotdir = env.get("ZDOTDIR", "").strip()
        zsh_data = xdg_data_dir("zsh")
        return ShellFiles(shell, zsh_data / "site-functions" / "_vora",
                          (Path(zdotdir) if zdotdir else home) / ".zshrc", zsh_data.parent)
    if shell == "fish":
        fish_config = xdg_config_dir("fish")
        return ShellFiles(shell, fish_config / "completions" / "vora.fish", None, fish_config.parent)
    raise VoraError("usage", f"unknown shell {shell!r}", "use one of: " + ", ".join(SHELLS))


@dataclass(frozen=True)
class CompletionChange:
    """What `vora completion install` / `uninstall` did to a shell's script and rc file."""

    shell: str
    script: Path
    script_action: str  # added | replaced | unchanged | removed | absent
    rc: Path | None
    rc_action: str  # added | replaced | removed | unchanged | not-needed | absent
    backup: Path | None = None  # where --force kept the file it replaced
    bash: BashLoading | None = None  # whether a new bash loads the script (bash --install)
    rc_backup: Path | None = None  # where --force kept the start-up file whose block it replaced

    @property
    def changed(self) -> bool:
        return self.script_action in ("added", "replaced", "removed") or self.rc_action in ("added", "replaced", "removed")

    def to_dict(self) -> dict[str, object]:
        return {"shell": self.shell, "script": str(self.script), "scriptAction": self.script_action,
                "rc": None if self.rc is None else str(self.rc), "rcAction": self.rc_action,
                "startMarker": BEGIN, "endMarker": END,
                "backup": None if self.backup is None else str(self.backup),
                "rcBackup": None if self.rc_backup is None else str(self.rc_backup),
                **({} if self.bash is None else {"bash": self.bash.to_dict()})}


def _not_vora_s(path: Path, data: bytes | None) -> str:
    """Why the file at `path` is the operator's, not vora's, for the `exists`/`refused` message."""
    if os.path.islink(path):
        return f"{path} is a symlink (to {os.readlink(path)}), not a file vora wrote"
    if data is not None and looks_like_vora_script(data):
        return f"{path} was changed since vora wrote it (or by a vora without a record of it)"
    return f"{path} was not written by vora"


def _write_script(path: Path, wanted: bytes, *, force: bool, lock_timeout: float) -> tuple[str, Path | None]:
    """Write the script at `path`; what happened, and the backup --force kept."""
    backup: Path | None = None
    if os.path.islink(path):  # never written through: the link and what it points at stay the operator's
        if not force:
            raise VoraError("exists", f"{_not_vora_s(path, None)}; nothing was written",
                            "remove or rename it yourself, or pass --force (the link is kept as .bak)")
        backup = unused_backup_path(path)
        try:
            os.rename(path, backup)
        except OSError as exc:
            raise VoraError("io_error", f"cannot move {path} aside to {backup}: {exc.strerror}") from exc
    outcome = {"action": "unchanged"}

    def transform(old: bytes | None) -> bytes | None:
        if old is None:
            outcome["action"] = "replaced" if backup is not None else "added"
            return wanted
        if old == wanted:
            return None
        if not written_by_vora(old) and not force:
            raise VoraError("exists", f"{_not_vora_s(path, old)}; nothing was written",
                            "move it away yourself, or pass --force (it is kept as .bak first)")
        outcome["action"] = "replaced"
        return wanted

    def keep_backup(old: bytes | None, _new: bytes) -> None:
        nonlocal backup
        if old is not None and not written_by_vora(old):  # --force: the operator's bytes are kept first
            backup = unused_backup_path(path)
            replace_atomically(backup, old, new_mode=SCRIPT_MODE)

    update_file(path, transform, lock_timeout=lock_timeout, new_mode=SCRIPT_MODE, keep_lock_file=False,
                before_replace=keep_backup)
    return outcome["action"], backup


def install_completion(shell: str, script: str, *, env: Mapping[str, str], lock_timeout: float,
                       force: bool = False) -> CompletionChange:
    """Write `script` where `shell` loads it; for zsh, the `$fpath` block in `.zshrc` when needed;
    for bash, ask a new bash whether it loads it. `lock_timeout`: the operator's lock wait
    (`Install.lock_timeout`); `force`: replace a file that is not vora's, keeping it as `.bak`."""
    from vora_cli.core.home import os_home
    from vora_cli.core.reading import read_bytes

    files = shell_files(shell, env)
    block: str | Callable[[bool, bool], str] | None = None
    if files.rc is not None:
        # Everything about the start-up file is settled before the script is written: a refusal
        # (a half block, a block vora did not write, a read-only file, a dangling link) writes nothing.
        rc_bytes = read_bytes(files.rc)
        text = "" if rc_bytes is None else rc_bytes.decode("utf-8", errors="surrogateescape")
        if shell == "zsh" and not mentions(text, files.script.parent, os_home(env)):
            from functools import partial

            from vora_cli.core.shell_install.blocks import zsh_block

            block = partial(zsh_block, files.script.parent)  # gets the notes: file new, last line ended
        # bash: an older vora's copy in ~/.bashrc would shadow the file; zsh: a block is not needed
        # when the file already names the folder.
        if plan_block(shell, files.rc, rc_bytes, block, force=force)[0] is not None:
            check_replaceable(files.rc)
    action, backup = _write_script(files.script, script.encode("utf-8"), force=force, lock_timeout=lock_timeout)
    rc_action = "not-needed"
    rc_backup = None
    bash = None
    if files.rc is not None:
        rc_action, rc_backup = set_block(shell, files.rc, block, lock_timeout, force=force)
        if block is None and rc_action != "removed":
            rc_action = "not-needed"
    if shell == "bash":
        from vora_cli.core.shell_install.bash_check import bash_loads

        bash = bash_loads(files.script, env)
    return CompletionChange(shell, files.script, action, files.rc if rc_action != "not-needed" else None,
                            rc_action, backup, bash, rc_backup)


def uninstall_completion(shell: str, *, env: Mapping[str, str], lock_timeout: float) -> CompletionChange:
    """Remove what `install_completion` added: the script (only while vora's record in it
    matches), vora's block, folders left empty."""
    from vora_cli.core.home import os_home
    from vora_cli.core.reading import read_bytes

    files = shell_files(shell, env)
    script_action = "absent"
    current = None if os.path.islink(files.script) else read_bytes(files.script)
    if os.path.islink(files.script) or (current is not None and not written_by_vora(current)):
        raise VoraError("refused", f"{_not_vora_s(files.script, current)}; left as it is",
                        "remove it by hand if it should go")
    if files.rc is not None and plan_block(shell, files.rc, read_bytes(files.rc), None, install=False)[0] is not None:
        check_replaceable(files.rc)  # a block that is not vora's, or a file vora cannot change: nothing removed
    if current is not None:
        remove_file(files.script, expected=current, lock_timeout=lock_timeout)
        script_action = "removed"
        # Under the home: every folder install made, up to the home (`~/.local/share` too, when it
        # made that). Elsewhere (XDG_DATA_HOME=/ci/data): up to the folder the environment names.
        home = os_home(env)
        _remove_empty_dirs(files.script.parent, stop=home if files.script.is_relative_to(home) else files.base)
    rc_action = "absent"
    if files.rc is not None:
        rc_action = set_block(shell, files.rc, None, lock_timeout, install=False)[0]
    return CompletionChange(shell, files.script, script_action, files.rc, rc_action)


def _remove_empty_dirs(directory: Path, stop: Path) -> None:
    """rmdir `directory` and its parents while they are empty (the folders install created),
    up to but never including the home."""
    folder = directory
    while folder != stop and folder.is_relative_to(stop) and folder != folder.parent:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent
