"""vora's marked block in a shell start-up file (`.zshrc`; an older vora's in `.bashrc`): only the block
changes, edited in place (through a symlink too), the text around it kept byte for byte.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.reading import read_bytes
from vora_cli.core.writer import remove_file, replace_atomically, unused_backup_path, update_file

BEGIN = "# >>> vora completion >>>"
END = "# <<< vora completion <<<"
SCRIPT_MODE = 0o644


CREATED_NOTE = " (it created this file)"
# The file's last line had no newline, so install ended it before adding the block: that newline is
# install's and leaves with the block.
ENDED_NOTE = ", and the newline it put at the end of the line above"


def zsh_block(site_functions: Path, created: bool = False, ended: bool = False) -> str:
    quoted = "'" + str(site_functions).replace("'", "'\\''") + "'"
    note = CREATED_NOTE if created else ENDED_NOTE if ended else ""
    return (f"{BEGIN}\n# Added by `vora completion zsh --install`; `vora completion zsh --uninstall` removes it"
            f"{note}.\n"
            f"fpath+=({quoted})\n"
            "if (( $+functions[compdef] )); then autoload -Uz _vora && compdef _vora vora; "
            "else autoload -Uz compinit && compinit; fi\n"
            f"{END}\n")


_FPATH_LINE = re.compile(r"fpath\+=\('((?:[^']|'\\'')*)'\)")


def written_by_vora_block(shell: str, block: str) -> bool:
    """Whether `block` (its BEGIN line to its END line) is exactly one this vora writes for `shell`:
    `zsh_block` for some folder, with the created note, the ended note or neither. Nothing else proves a block is
    vora's (bash gets no block; an older vora's pasted script has no record), so nothing else is
    replaced or removed without --force."""
    body = block if block.endswith("\n") else block + "\n"
    lines = body.split("\n")
    match = _FPATH_LINE.fullmatch(lines[2]) if shell == "zsh" and len(lines) > 2 else None
    if match is None:
        return False
    site_functions = Path(match.group(1).replace("'\\''", "'"))
    return any(body == zsh_block(site_functions, *notes) for notes in ((False, False), (True, False), (False, True)))


def foreign_block_line(shell: str, text: str, path: Path) -> int | None:
    """The line number of the first block in `text` vora did not write, or None."""
    for start, end in find_blocks(text, path):
        if not written_by_vora_block(shell, text[start:end]):
            return text.count("\n", 0, start) + 1
    return None


def _refuse_foreign(path: Path, line: int, *, install: bool) -> VoraError:
    what = f"{path}:{line}: the '{BEGIN}' block holds lines vora did not write"
    if install:
        return VoraError("exists", f"{what}; nothing was written",
                         f"move your lines out of the block yourself, or pass --force ({path.name} is kept as "
                         f"{path.name}.bak first)")
    return VoraError("refused", f"{what}; nothing was removed", "remove the block by hand if it should go")


def _line_starting(text: str, marker: str, pos: int) -> int:
    """The first position >= pos where a line starts with `marker`, or -1."""
    at = text.find(marker, pos)
    while at > 0 and text[at - 1] != "\n":
        at = text.find(marker, at + 1)
    return at


def block_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every BEGIN line ... END line block, END's line included.

    A scan with `str.find`, not a lazy `^BEGIN.*?^END` regex: a file of many BEGIN lines without
    an END made that rescan the rest of the file from each of them."""
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


def find_blocks(text: str, path: Path) -> list[tuple[int, int]]:
    blocks = block_spans(text)
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
    blocks = find_blocks(text, path)
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
            # the blank line install put before the block, and the newline it ended the line above with
            ended = ENDED_NOTE in text[first_start:blocks[0][1]]
            before = before[:-2] if ended else before[:-1]
        return before + new + after, "removed"
    result = before + new + after
    return result, "unchanged" if result == text else "replaced"


def mentions(text: str, directory: Path, home: Path) -> bool:
    """Whether the start-up file (outside vora's block) already names `directory` (so it is on $fpath)."""
    outside, cursor = "", 0
    for start, end in block_spans(text):
        outside += text[cursor:start]
        cursor = end
    outside += text[cursor:]
    forms = {str(directory)}
    if directory.is_relative_to(home):
        relative = directory.relative_to(home).as_posix()
        forms |= {f"~/{relative}", f"$HOME/{relative}", f"${{HOME}}/{relative}"}
    return any(form in outside for form in forms)


def plan_block(shell: str, path: Path, old: bytes | None, block: str | Callable[[bool, bool], str] | None, *,
               force: bool = False, install: bool = True) -> tuple[bytes | None, str, bool, bool]:
    """What setting vora's block in `path` (holding `old`) to `block` does: the new bytes (None: no
    change), the action, whether install created the file, and whether --force replaces a block vora
    did not write. A callable `block` gets whether the file is new and whether install must end its
    last line (`zsh_block`'s notes, kept from the block already there); None removes the block. Raises
    for a half block, and for a block vora did not write unless `force`."""
    if old is None and block is None:
        return None, "absent", False, False
    text = "" if old is None else old.decode("utf-8", errors="surrogateescape")
    spans = block_spans(text)
    created = old is None or any(CREATED_NOTE in text[s:e] for s, e in spans)
    ended = (not spans and text != "" and not text.endswith("\n")) or any(ENDED_NOTE in text[s:e] for s, e in spans)
    wanted = block(created, ended) if callable(block) else block
    new, action = with_block(text, wanted, path)
    if new == text:
        return None, action, created, False
    line = foreign_block_line(shell, text, path)
    if line is not None and not force:
        raise _refuse_foreign(path, line, install=install)
    return new.encode("utf-8", errors="surrogateescape"), action, created, line is not None


def set_block(shell: str, path: Path, block: str | Callable[[bool, bool], str] | None, lock_timeout: float, *,
              force: bool = False, install: bool = True) -> tuple[str, Path | None]:
    """Set vora's block in `path` (`plan_block`); what happened, and where --force kept the file."""
    outcome: dict[str, object] = {"action": "absent", "created": False, "foreign": False}
    backup: Path | None = None

    def transform(old: bytes | None) -> bytes | None:
        new, outcome["action"], outcome["created"], outcome["foreign"] = plan_block(
            shell, path, old, block, force=force, install=install)
        return new

    def keep_backup(old: bytes | None, _new: bytes) -> None:
        nonlocal backup
        if old is not None and outcome["foreign"]:  # --force: the operator's file is kept first, as the script is
            backup = unused_backup_path(path)
            replace_atomically(backup, old, new_mode=os.stat(path).st_mode & 0o777)

    if block is None and not path.exists():
        return "absent", None
    update_file(path, transform, lock_timeout=lock_timeout, new_mode=SCRIPT_MODE, keep_lock_file=False,
                before_replace=keep_backup)
    if block is None and outcome["created"] and read_bytes(path) == b"":
        remove_file(path, expected=b"", lock_timeout=lock_timeout)  # install created it and nothing else was added since
    return str(outcome["action"]), backup
