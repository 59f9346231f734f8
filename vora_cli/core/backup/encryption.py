"""Archives only their owner can read: age encryption through pyrage (docs/backup.md, "Encrypted archives";
docs/dependencies.md). Imported only when an archive is encrypted or is to be.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

from vora_cli.core.errors import VoraError
from vora_cli.core.records import dataclass

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

AGE_MAGIC = b"age-encryption.org/v1\n"
AGE_ARMOR = b"-----BEGIN AGE ENCRYPTED FILE-----"
GZIP_MAGIC = b"\x1f\x8b"
IDENTITY_FILE_MAX = 1024 * 1024
_PIPE_SIZE = 1024 * 1024


@dataclass(frozen=True)
class Sealing:
    """Who may read a new archive: age X25519 recipients (`age1…`), or one passphrase."""
    recipients: tuple[str, ...] = ()
    passphrase: str | None = None

    @property
    def wanted(self) -> bool:
        return bool(self.recipients) or self.passphrase is not None

    def to_dict(self) -> dict[str, Any]:
        return {"recipients": list(self.recipients), "passphrase": self.passphrase is not None}


@dataclass(frozen=True)
class Keys:
    """What reads an encrypted archive: the identities of an identity file, or a passphrase."""
    identity_file: Path | None = None
    passphrase: str | None = None

    @property
    def given(self) -> bool:
        return self.identity_file is not None or self.passphrase is not None


def open_regular(path: Path) -> tuple[int, int]:
    """A read-only descriptor of the regular file at `path` (a link is followed) and its size,
    opened without blocking: a FIFO or a device in its place would hang a read forever.
    Raises `not_found`, `invalid` (a folder, a FIFO, a device) or `io_error`."""
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise VoraError("not_found", f"no archive at {path}", "vora backup list shows the archives it knows") from None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror or exc}") from exc
    info = os.fstat(fd)
    if stat.S_ISREG(info.st_mode):
        return fd, info.st_size
    os.close(fd)
    if stat.S_ISDIR(info.st_mode):
        from vora_cli.core.shell import command_line

        raise VoraError("invalid", f"{path} is a folder, not an archive",
                        f"{command_line('vora', 'backup', 'list', path)} shows the archives in it")
    what = "a FIFO (a pipe)" if stat.S_ISFIFO(info.st_mode) else "a socket" if stat.S_ISSOCK(info.st_mode) else "a device"
    raise VoraError("invalid", f"{path} is {what}, not an archive file", "save the archive to a file first, then give its path")


def sniff(head: bytes) -> str | None:
    """What a file is by its first bytes: `age` (binary, what vora writes), `age-armored`
    (`age -a`'s text form), `gzip`, or None."""
    if head.startswith(AGE_MAGIC):
        return "age"
    if head.startswith(AGE_ARMOR):
        return "age-armored"
    return "gzip" if head.startswith(GZIP_MAGIC) else None


def _pyrage() -> Any:
    try:
        import pyrage  # type: ignore[import-untyped]  # no stubs; typed at this boundary
    except ImportError:  # pragma: no cover - a dependency; only a broken install lacks it
        raise VoraError("refused", "encrypted archives need the pyrage package, which is not installed",
                        "reinstall vora (pip install vora-cli) so its dependencies come along") from None
    return pyrage


def parse_recipients(texts: Sequence[str]) -> list[Any]:
    """Each `--encrypt-to` as an age X25519 recipient; a bad one is a usage error naming it."""
    pyrage = _pyrage()
    found = []
    for text in texts:
        try:
            found.append(pyrage.x25519.Recipient.from_str(text.strip()))
        except Exception:  # pyrage.RecipientError, or a ValueError for a non-ASCII string
            raise VoraError("usage", f"--encrypt-to {text!r} is not an age X25519 recipient",
                            "give the public key age-keygen printed (age1…): age-keygen -y KEYFILE shows it") from None
    return found


def read_identities(path: Path) -> list[Any]:
    """The X25519 identities of an age identity file (what `age-keygen -o` writes): one
    `AGE-SECRET-KEY-1…` per line, `#` comments and blank lines allowed. A bad line is named by its
    number, never shown: it may be a key."""
    pyrage = _pyrage()
    try:
        with open(path, "rb") as handle:
            data = handle.read(IDENTITY_FILE_MAX + 1)
    except FileNotFoundError:
        raise VoraError("not_found", f"no identity file at {path}", "give the file age-keygen wrote: --identity FILE") from None
    except OSError as exc:
        raise VoraError("io_error", f"cannot read {path}: {exc.strerror}") from exc
    if len(data) > IDENTITY_FILE_MAX or data.startswith(AGE_MAGIC):
        raise VoraError("invalid", f"{path} is not an age identity file",
                        "vora reads the plain file age-keygen writes (AGE-SECRET-KEY-1… lines)")
    found = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        try:
            found.append(pyrage.x25519.Identity.from_str(text))
        except Exception:
            raise VoraError("invalid", f"{path}:{number}: not an age identity (AGE-SECRET-KEY-1…)",
                            "vora reads the X25519 identities age-keygen writes") from None
    if not found:
        raise VoraError("invalid", f"{path} holds no age identity", "give the file age-keygen wrote: --identity FILE")
    return found


def _pipe() -> tuple[int, int]:
    read_end, write_end = os.pipe()
    with contextlib.suppress(AttributeError, OSError):
        import fcntl

        fcntl.fcntl(write_end, fcntl.F_SETPIPE_SZ, _PIPE_SIZE)  # Linux: fewer switches between the two ends
    return read_end, write_end


class _Worker(threading.Thread):
    """pyrage's streaming call on one end of a pipe; its error, if any, for the caller to raise."""

    def __init__(self, call: Any, *args: Any) -> None:
        super().__init__(daemon=True)
        self._call, self._args = call, args
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._call(*self._args)
        except BaseException as exc:  # handed to the caller's thread
            self.error = exc
        finally:
            for end in self._args[:2]:
                if getattr(end, "_vora_owned", False):
                    with contextlib.suppress(OSError):
                        end.close()


def _owned(handle: IO[bytes]) -> IO[bytes]:
    handle._vora_owned = True  # type: ignore[attr-defined]  # the worker closes it when done
    return handle


@contextlib.contextmanager
def sealed(out: IO[bytes], sealing: Sealing) -> Iterator[IO[bytes]]:
    """A stream whose bytes reach `out` age-encrypted to `sealing`'s recipients or passphrase."""
    pyrage = _pyrage()
    if sealing.passphrase is not None:
        import io

        plain = io.BytesIO()
        yield plain
        try:
            out.write(pyrage.passphrase.encrypt(plain.getvalue(), sealing.passphrase))
        except pyrage.EncryptError as exc:
            raise VoraError("invalid", f"cannot encrypt the archive: {exc}") from None
        return
    recipients = parse_recipients(sealing.recipients)
    read_end, write_end = _pipe()
    worker = _Worker(pyrage.encrypt_io, _owned(os.fdopen(read_end, "rb")), out, recipients)
    worker.start()
    feed = os.fdopen(write_end, "wb")
    broken = False
    try:
        yield feed
    except BrokenPipeError:
        broken = True  # the worker stopped reading: its own error says why
    finally:
        with contextlib.suppress(OSError):
            feed.close()  # the worker reads to the end, then finishes the age stream
        worker.join()
    if worker.error is not None or broken:
        raise _as_os_error(worker.error)


def _as_os_error(error: BaseException | None) -> OSError:
    """What stopped age's writer, as the OSError it was (pyrage hands it back as text: "OSError:
    [Errno 28] No space left on device"), so the archive's writer says it as any write failure."""
    import re

    if isinstance(error, OSError):
        return error
    found = re.search(r"\[Errno (\d+)\] ([^\n]*)", str(error or ""))
    if found:
        return OSError(int(found.group(1)), found.group(2))
    return OSError(0, f"the encryption stopped: {_reason(error)}")


def _reason(error: BaseException | None) -> str:
    """One line for what stopped an age worker (an OSError's strerror, not its errno repr)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error or "the encryption stopped").splitlines()
    return text[0] if text else type(error).__name__


class Opened:
    """A readable archive: the file itself, or what decrypting it gives; `failure()` says why the
    decryption stopped, if it did (a damaged or forged stream fails its authentication)."""

    def __init__(self, stream: IO[bytes], worker: _Worker | None, encrypted: bool) -> None:
        self.stream = stream
        self.encrypted = encrypted
        self._worker = worker

    def failure(self) -> str | None:
        if self._worker is None or self._worker.error is None:
            return None
        return _decrypt_failure(self._worker.error)[0]


def _locked(path: Path) -> VoraError:
    return VoraError("refused", f"{path.name} is encrypted (age); vora needs the key to read it",
                     "give the identity file it was encrypted to (--identity FILE) or its passphrase "
                     "(--passphrase, read from stdin, or --passphrase-file FILE)")


def _decrypt_failure(error: BaseException) -> tuple[str, str]:
    """(what went wrong, the next step) for a failed decryption: the wrong key, a damaged header,
    or damaged data after a header the key opened (then the key is right: keep it)."""
    text = _reason(error)
    if "no matching keys" in text.lower():
        return "no identity given opens it", "give the identity whose public key the archive was encrypted to"
    if "decryption error" in text.lower():  # pyrage's word for a chunk that fails its authentication
        return (f"the key opened it, but its data is damaged or cut short ({text})",
                "the key is right; the archive is damaged: use another copy of it")
    return f"its age header is damaged ({text})", "the archive is damaged: use another copy of it"


@contextlib.contextmanager
def open_archive(path: Path, keys: Keys | None) -> Iterator[Opened]:
    """`path` for reading: as it is, or decrypted with `keys` when it is an age file. Raises
    `not_found`, `invalid` (not a regular file; an armored age file; no key opens it) or `refused`
    (an encrypted archive without keys)."""
    fd, _size = open_regular(path)
    raw = os.fdopen(fd, "rb")
    try:
        kind = sniff(raw.read(len(AGE_ARMOR)))
        raw.seek(0)
    except BaseException:
        raw.close()
        raise
    if kind == "age-armored":
        raw.close()
        raise VoraError("invalid", f"{path.name} is an armored age file (age -a); vora reads the binary form",
                        f"decrypt it first: age -d -i KEY -o {path.stem} {path.name}")
    if kind != "age":
        with raw:
            yield Opened(raw, None, False)
        return
    if keys is None or not keys.given:
        raw.close()
        raise _locked(path)
    pyrage = _pyrage()
    if keys.passphrase is not None:
        import io

        with raw:
            try:
                data = pyrage.passphrase.decrypt(raw.read(), keys.passphrase)
            except pyrage.DecryptError as exc:
                wrong = "failed" in _reason(exc).lower()
                raise VoraError("invalid", f"cannot decrypt {path.name} with that passphrase" if wrong else
                                f"cannot decrypt {path.name}: {_decrypt_failure(exc)[0]}",
                                "check the passphrase; nothing was read" if wrong else _decrypt_failure(exc)[1]) from None
        yield Opened(io.BytesIO(data), None, True)
        return
    try:
        identities = read_identities(keys.identity_file) if keys.identity_file is not None else []
    except BaseException:
        raw.close()
        raise
    read_end, write_end = _pipe()
    worker = _Worker(pyrage.decrypt_io, _owned(raw), _owned(os.fdopen(write_end, "wb")), identities)
    worker.start()
    stream = os.fdopen(read_end, "rb")
    opened = Opened(stream, worker, True)
    try:
        first = stream.peek(1)[:1]
        if not first:
            worker.join()
            if worker.error is not None:
                what, hint = _decrypt_failure(worker.error)
                raise VoraError("invalid", f"cannot decrypt {path.name} with {keys.identity_file}: {what}", hint) from None
        yield opened
    finally:
        with contextlib.suppress(OSError):
            stream.close()  # a worker still writing gets EPIPE and stops
        worker.join()
