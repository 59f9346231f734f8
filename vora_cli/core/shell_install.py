"""Install a completion script where each shell loads it from (docs/settings.md, "Completion").

The script is a file of its own in the per-user place the shell (or its completion framework)
already reads, under the real home (`HOME`, never `VORA_HOME`), resolved with platformdirs:

- bash: bash-completion's user dir, `${BASH_COMPLETION_USER_DIR:-$XDG_DATA_HOME/bash-completion}/completions/vora`
  (bash-completion loads it on the first `vora <TAB>`);
- zsh: `$XDG_DATA_HOME/zsh/site-functions/_vora`, plus one marked block in `${ZDOTDIR:-~}/.zshrc`
  that puts that dir on `$fpath` (and runs compinit only when nothing has yet) — left out when the
  `.zshrc` already names the dir;
- fish: `$XDG_CONFIG_HOME/fish/completions/vora.fish` (fish autoloads it).

Installing again rewrites nothing that is current; `uninstall` removes exactly what `install`
added: the script, the block (text around it is kept byte for byte), and folders it left empty.
Earlier vora versions pasted the whole script into `~/.bashrc`/`~/.zshrc` between the same
markers; install replaces (zsh) or removes (bash) that block. No lock file is left behind.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.writer import remove_file, update_file

BEGIN = "# >>> vora completion >>>"
END = "# <<< vora completion <<<"
SHELLS = ("bash", "zsh", "fish")
SCRIPT_MODE = 0o644


@dataclass(frozen=True)
class ShellFiles:
    """Where one shell's completion goes: the script, and the start-up file vora may add a block to."""

    shell: str
    script: Path
    rc: Path | None  # the file with vora's block (zsh), or the file an older vora used (bash)
    # The folder the operator's environment names (XDG_DATA_HOME, XDG_CONFIG_HOME,
    # BASH_COMPLETION_USER_DIR): uninstall removes the empty folders install made below it, never it.
    base: Path


def shell_files(shell: str) -> ShellFiles:
    from vora_cli.core.userdirs import real_home, xdg_config_dir, xdg_data_dir

    home = real_home()
    if shell == "bash":
        user_dirs = os.environ.get("BASH_COMPLETION_USER_DIR", "").split(":")
        base = Path(user_dirs[0]) if user_dirs[0] else xdg_data_dir("bash-completion")
        return ShellFiles(shell, base / "completions" / "vora", home / ".bashrc",
                          base if user_dirs[0] else base.parent)
    if shell == "zsh":
        zdotdir = os.environ.get("ZDOTDIR", "").strip()
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

    @property
    def changed(self) -> bool:
        return self.script_action in ("added", "replaced", "removed") or self.rc_action in ("added", "replaced", "removed")

    def to_dict(self) -> dict[str, str | None]:
        return {"shell": self.shell, "script": str(self.script), "scriptAction": self.script_action,
                "rc": None if self.rc is None else str(self.rc), "rcAction": self.rc_action,
                "startMarker": BEGIN, "endMarker": END}


CREATED_NOTE = " (it created this file)"


def zsh_block(site_functions: Path, created: bool = False) -> str:
    quoted = "'" + str(site_functions).replace("'", "'\\''") + "'"
    note = CREATED_NOTE if created else ""
    return (f"{BEGIN}\n# Added by `vora completion zsh --install`; `vora completion zsh --uninstall` removes it"
            f"{note}.\n"
            f"fpath+=({quoted})\n"
            "if (( $+functions[compdef] )); then autoload -Uz _vora && compdef _vora vora; "
            "else autoload -Uz compinit && compinit; fi\n"
            f"{END}\n")


def _line_starting(text: str, marker: str, pos: int) -> int:
    """The first position >= pos where a line starts with `marker`, or -1."""
    at = text.find(marker, pos)
    while at > 0 and text[at - 1] != "\n":
        at = text.find(marker, at + 1)
    return at


def _block_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every BEGIN line ... END line block, END's line included.

    A scan with `str.find`, not a lazy `^BEGIN.*?^END` regex: a file of many BEGIN lines without
    an END made that rescan the rest of the file from each of them (issue 12, point 8)."""
    spans: list[tuple[int, int]] = []
    pos = 0
    while (start := _line_starting(text, BEGIN, pos)) >= 0:
        body = text.find("\n", start)
        end_at = _line_starting(text, END, body + 1) if body >= 0 else -1
        if end_at < 0:
            break
        stop = text.find("\n", end_at)
        pos = len(text) if stop < 0 else stop + 1
        spans.append((start, pos))
    return spans


def _find_blocks(text: str, path: Path) -> list[tuple[int, int]]:
    blocks = _block_spans(text)
    starts = text.count("\n" + BEGIN) + text.startswith(BEGIN)
    if starts != len(blocks):
        raise VoraError(
            "refused",
            f"{path} has a '{BEGIN}' line without its '{END}' line",
            "fix or delete that partial block by hand, then run the command again",
        )
    return blocks


def with_block(text: str, block: str | None, path: Path) -> tuple[str, str]:
    """`text` with vora's block set to `block` (None: removed), and what happened."""
    blocks = _find_blocks(text, path)
    if not blocks:
        if block is None:
            return text, "absent"
        if not text:
            return block, "added"
        return text + ("" if text.endswith("\n") else "\n") + "\n" + block, "added"
    first_start, cursor = blocks[0]
    before, new = text[:first_start], block or ""
    for extra_start, extra_end in blocks[1:]:  # a copy pasted twice by hand: keep one
        new += text[cursor:extra_start]
        cursor = extra_end
    after = text[cursor:]
    if block is None:
        if not after and before.endswith("\n\n"):
            before = before[:-1]  # the blank line install put before the block
        return before + new + after, "removed"
    result = before + new + after
    return result, "unchanged" if result == text else "replaced"


def _mentions(text: str, directory: Path, home: Path) -> bool:
    """Whether the start-up file (outside vora's block) already names `directory` (so it is on $fpath)."""
    outside, cursor = "", 0
    for start, end in _block_spans(text):
        outside += text[cursor:start]
        cursor = end
    outside += text[cursor:]
    forms = {str(directory)}
    if directory.is_relative_to(home):
        relative = directory.relative_to(home).as_posix()
        forms |= {f"~/{relative}", f"$HOME/{relative}", f"${{HOME}}/{relative}"}
    return any(form in outside for form in forms)


def _set_block(path: Path, block: str | Callable[[bool], str] | None, lock_timeout: float) -> str:
    """Set vora's block in `path` (a callable gets whether the file is new); None removes it."""
    outcome = {"action": "absent", "created": False}

    def transform(old: bytes | None) -> bytes | None:
        if old is None and block is None:
            return None
        text = "" if old is None else old.decode("utf-8", errors="surrogateescape")
        outcome["created"] = old is None or any(CREATED_NOTE in text[s:e] for s, e in _block_spans(text))
        wanted = block(bool(outcome["created"])) if callable(block) else block
        new, action = with_block(text, wanted, path)
        outcome["action"] = action
        return None if new == text else new.encode("utf-8", errors="surrogateescape")

    if block is None and not path.exists():
        return "absent"
    update_file(path, transform, lock_timeout=lock_timeout, new_mode=SCRIPT_MODE, keep_lock_file=False)
    if block is None and outcome["created"] and path.read_bytes() == b"":
        remove_file(path, expected=b"", lock_timeout=lock_timeout)  # install created it and nothing else was added since
    return str(outcome["action"])


def _is_vora_script(data: bytes) -> bool:
    return b"completion for vora" in data[:400]


def install_completion(shell: str, script: str, *, lock_timeout: float) -> CompletionChange:
    """Write `script` where `shell` loads it; for zsh, the `$fpath` block in `.zshrc` when needed.
    `lock_timeout`: the operator's lock wait (`Install.lock_timeout`)."""
    from vora_cli.core.reading import read_bytes

    files = shell_files(shell)
    if files.rc is not None and (rc_bytes := read_bytes(files.rc)) is not None:
        _find_blocks(rc_bytes.decode("utf-8", errors="surrogateescape"), files.rc)  # a half block: refuse first
    outcome = {"action": "unchanged"}
    wanted = script.encode("utf-8")

    def transform(old: bytes | None) -> bytes | None:
        outcome["action"] = "added" if old is None else ("unchanged" if old == wanted else "replaced")
        return None if old == wanted else wanted

    update_file(files.script, transform, lock_timeout=lock_timeout, new_mode=SCRIPT_MODE, keep_lock_file=False)
    rc_action = "not-needed"
    if shell == "bash" and files.rc is not None:
        legacy = _set_block(files.rc, None, lock_timeout)  # an older vora's copy in ~/.bashrc would shadow the file
        rc_action = "removed" if legacy == "removed" else "not-needed"
    elif shell == "zsh" and files.rc is not None:
        from vora_cli.core.userdirs import real_home

        current = read_bytes(files.rc)
        text = "" if current is None else current.decode("utf-8", errors="surrogateescape")
        if _mentions(text, files.script.parent, real_home()):
            legacy = _set_block(files.rc, None, lock_timeout)
            rc_action = "removed" if legacy == "removed" else "not-needed"
        else:
            site_functions = files.script.parent
            rc_action = _set_block(files.rc, lambda created: zsh_block(site_functions, created), lock_timeout)
    return CompletionChange(shell, files.script, outcome["action"], files.rc if rc_action != "not-needed" else None,
                            rc_action)


def uninstall_completion(shell: str, *, lock_timeout: float) -> CompletionChange:
    """Remove what `install_completion` added: the script, vora's block, folders left empty."""
    from vora_cli.core.reading import read_bytes
    from vora_cli.core.userdirs import real_home

    files = shell_files(shell)
    script_action = "absent"
    current = read_bytes(files.script)
    if current is not None:
        if not _is_vora_script(current):
            raise VoraError("refused", f"{files.script} is not a vora completion script; left as it is",
                            "remove it by hand if it should go")
        remove_file(files.script, expected=current, lock_timeout=lock_timeout)
        script_action = "removed"
        # Under the home: every folder install made, up to the home (`~/.local/share` too, when it
        # made that). Elsewhere (XDG_DATA_HOME=/ci/data): up to the folder the environment names.
        home = real_home()
        _remove_empty_dirs(files.script.parent, stop=home if files.script.is_relative_to(home) else files.base)
    rc_action = "absent"
    if files.rc is not None:
        rc_action = _set_block(files.rc, None, lock_timeout)
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
