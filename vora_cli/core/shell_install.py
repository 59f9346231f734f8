"""Install a completion script into the user's shell start-up file, as one marked block.

The block sits between `# >>> vora completion >>>` and `# <<< vora completion <<<`. Installing
again replaces that block in place (never a second copy); everything outside it is left byte
for byte. The file is written through the one writer (atomic, locked, mode kept).

Where it goes: bash `~/.bashrc`; zsh `~/.zshrc` (the script inline, registered with compdef,
so it works after compinit without touching $fpath); fish
`~/.config/fish/completions/vora.fish` (fish loads it on the first `vora <TAB>`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.writer import update_file

BEGIN = "# >>> vora completion >>>"
END = "# <<< vora completion <<<"

RC_FILES = {
    "bash": Path(".bashrc"),
    "zsh": Path(".zshrc"),
    "fish": Path(".config/fish/completions/vora.fish"),
}


@dataclass(frozen=True)
class InstallResult:
    shell: str
    path: Path
    action: str  # added | replaced | unchanged

    def to_dict(self) -> dict[str, str]:
        return {"shell": self.shell, "path": str(self.path), "action": self.action,
                "startMarker": BEGIN, "endMarker": END}


def rc_file(shell: str, home: Path) -> Path:
    return home / RC_FILES[shell]


def completion_block(shell: str, script: str) -> str:
    return (f"{BEGIN}\n# Added by `vora completion {shell} --install`: run it again to update this block,"
            f" delete the block to remove it.\n{script.rstrip()}\n{END}\n")


def _line_starting(text: str, marker: str, pos: int) -> int:
    """The first position >= pos where a line starts with `marker`, or -1."""
    at = text.find(marker, pos)
    while at > 0 and text[at - 1] != "\n":
        at = text.find(marker, at + 1)
    return at


def _blocks(text: str) -> list[tuple[int, int]]:
    """The (start, end) of every BEGIN line ... END line block (END's line included).

    A scan with `str.find`, not a lazy regex: a file of many BEGIN lines without an END would
    make `^BEGIN.*?^END` rescan the rest of the file from each of them."""
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


def with_block(text: str, block: str, path: Path) -> tuple[str, str]:
    """`text` with the vora block replaced (or appended), and what happened."""
    blocks = _blocks(text)
    starts = text.count("\n" + BEGIN) + text.startswith(BEGIN)
    if starts != len(blocks):
        raise VoraError(
            "refused",
            f"{path} has a '{BEGIN}' line without its '{END}' line",
            "fix or delete that partial block by hand, then run the install again",
        )
    if not blocks:
        prefix = text if not text or text.endswith("\n") else text + "\n"
        separator = "\n" if prefix.strip() else ""
        return (prefix.rstrip("\n") + "\n" + separator if prefix.strip() else "") + block, "added"
    first_start, cursor = blocks[0]
    new = text[:first_start] + block
    for extra_start, extra_end in blocks[1:]:  # a copy pasted twice by hand: keep one
        new += text[cursor:extra_start]
        cursor = extra_end
    new += text[cursor:]
    return new, "unchanged" if new == text else "replaced"


def install_completion(shell: str, script: str, home: Path) -> InstallResult:
    """Add or replace the vora block in the shell's start-up file under `home`."""
    if shell not in RC_FILES:
        raise VoraError("usage", f"unknown shell {shell!r}", "use one of: " + ", ".join(RC_FILES))
    path = rc_file(shell, home)
    outcome = {"action": "unchanged"}

    def transform(old: bytes | None) -> bytes | None:
        text = "" if old is None else old.decode("utf-8", errors="surrogateescape")
        new, action = with_block(text, completion_block(shell, script), path)
        outcome["action"] = action
        return None if action == "unchanged" else new.encode("utf-8", errors="surrogateescape")

    update_file(path, transform, new_mode=0o644)
    return InstallResult(shell=shell, path=path, action=outcome["action"])
