"""What the `vora backup` commands share: sizes as people read them, progress, the keys of an encrypted archive."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from vora_cli.cli.output import Output
    from vora_cli.core.backup.encryption import Keys


def size_text(count: int | None) -> str:
    from vora_cli.cli.progress import size_text as shown

    return "-" if count is None else shown(count)


@contextlib.contextmanager
def working(out: Output, message: str, counted: str | None = None) -> Iterator[Callable[[int, int], None] | None]:
    """`message` on a terminal's stderr, its seconds ticking, while a long step runs; with
    `counted`, also a callback that shows the bytes done of all and a percentage."""
    from vora_cli.cli.progress import terminal_progress

    progress = terminal_progress(out.run, out.json_mode)
    if progress is not None:
        progress.step(message)
    shown = progress
    try:
        yield (lambda done, total: shown.bytes(counted, done, total)) if shown is not None and counted else None
    finally:
        if progress is not None:
            progress.close()


def bullets(out: Output, title: str, lines: Sequence[str], shown: int) -> None:
    """`title`, then up to `shown` lines as `- …` and how many more `--json` lists."""
    out.line(title)
    for line in lines[:shown]:
        out.line(f"- {line}")
    if len(lines) > shown:
        out.line(f"  ... and {len(lines) - shown} more (--json lists each)")


def read_passphrase(from_stdin: bool, file: Path | None, *, confirm: bool = False) -> str | None:
    """The passphrase `--passphrase` (stdin; asked twice without echo on a terminal when
    `confirm`) or `--passphrase-file` gives; never an argument, so it stays out of `ps` and shell
    history. One trailing newline is not part of it; an empty one is a usage error."""
    import sys

    from vora_cli.core.errors import VoraError

    if from_stdin and file is not None:
        raise VoraError("usage", "--passphrase and --passphrase-file cannot be used together", "give one of them")
    if file is not None:
        try:
            text = file.read_text(encoding="utf-8").splitlines()[0] if file.stat().st_size else ""
        except FileNotFoundError:
            raise VoraError("not_found", f"no passphrase file at {file}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise VoraError("io_error", f"cannot read the passphrase file {file}: {exc}") from None
    elif from_stdin:
        if sys.stdin.isatty():
            import getpass

            text = getpass.getpass("Passphrase: ")
            if confirm and getpass.getpass("Passphrase again: ") != text:
                raise VoraError("usage", "the two passphrases differ", "run the command again")
        else:
            text = sys.stdin.read()
            text = text[:-1] if text.endswith("\n") else text
            text = text[:-1] if text.endswith("\r") else text
    else:
        return None
    if not text:
        raise VoraError("usage", "the passphrase is empty", "give one on stdin (--passphrase) or in a file (--passphrase-file)")
    return text


def keys_of(identity: Path | None, passphrase: bool, passphrase_file: Path | None) -> Keys | None:
    """What decrypts an encrypted archive, from the command's options (None: no key given)."""
    secret = read_passphrase(passphrase, passphrase_file)
    if identity is None and secret is None:
        return None
    from vora_cli.core.backup.encryption import Keys

    return Keys(identity, secret)
