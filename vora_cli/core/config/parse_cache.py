"""What vora parsed before: its own cache of the parses of big config files (docs/config.md,
"Parsed before: the parse cache").

Parsing a 1 MB commented `vora.json` costs ~85 ms of Python (46,000 members, one regex match and a
dozen bytecodes each), most of every command that reads it (issue 24). A parse depends only on the
text and on the parser, so the parse of a file of 64 KiB or more (`loading.PARSE_CACHE_MIN_BYTES`)
is kept: its value and its layout (where each container ends: `Json5Document.layout`), ~0.5 MB of
`marshal` data for a 1 MB file, read back in ~8 ms. A write by vora's editor keeps the parse of
the text it wrote (the editor derives the new layout without parsing: `Json5Document._checked`).

No secret is kept: each value under a secret-named key or at a gateway secret target (core/
secrets.py, the one rule) and each string holding a URL is a hole in the kept value, read from the
text again when it is used (`secrets.secret_paths`, `_filled`). A text whose keys hold a URL, with more
than `MAX_HOLES` holes, or with a NaN (`_cacheable`) is not kept.

Each parse is one file, `<vora's cache dir>/parsed/<key>`, the key the BLAKE2b digest of the text,
the source files the parse and its holes depend on (size and mtime) and the Python version. The file
starts with a digest of the rest, so a torn or damaged file is a miss; its layout must fit the text
(`_fits`), and the editor checks the containers on the path it walks (`Json5Document._walk`: a
layout the text does not have makes it parse the text again). The folder and files are trusted only
as vora's own: a real folder and regular files of this user's that no one else may write, never
through a link; pruning removes only files with this module's names. Only parses are kept: a file
with a syntax error is parsed every time, and a cache that cannot be read or written changes
nothing but the speed.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import re
import stat
import sys
from pathlib import Path

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import LayoutMismatch, Parser
from vora_cli.core.json5.values import with_values
from vora_cli.core.reading import read_own_file
from vora_cli.core.secrets import secret_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

MAX_FILES = 16
MAX_HOLES = 256  # more secrets or URLs than this: not kept (filling them costs what a parse does)
MAX_ENTRY_BYTES = 64 * 1024 * 1024  # a cache file bigger than any parse of a 2 MiB config makes
FOLDER = "parsed"
_MAGIC = b"vora-parse-1\n"
_DIGEST = 32
_MARSHAL_VERSION = 4

_state: dict[str, Any] = {}
_ENTRY_NAME = re.compile(r"[0-9a-f]{64}")
_TEMP_NAME = re.compile(r"\.[0-9a-f]{64}\.[0-9]+\.tmp")


def look_up(raw: bytes, text: str, filename: str) -> Json5Document | None:
    """The document of `text` (decoded from `raw`) as parsed before, or None."""
    folder = _own_folder()
    if folder is None or not _cacheable(raw):
        return None
    data = _read(folder / _key(raw))
    if data is None or len(data) < len(_MAGIC) + _DIGEST or not data.startswith(_MAGIC):
        return None
    payload = data[len(_MAGIC) + _DIGEST:]
    if _blake(payload) != data[len(_MAGIC):len(_MAGIC) + _DIGEST]:
        return None
    try:
        value, ends, top, duplicates, holes = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(value, dict) and isinstance(ends, dict) and isinstance(top, tuple)
            and isinstance(duplicates, bool) and isinstance(holes, list) and _fits(text, ends, top)):
        return None
    doc = Json5Document.from_layout(text, value, (ends, top), duplicates, filename=filename)
    if holes:
        value = _filled(doc, holes)
        if value is None:
            return None
        doc = Json5Document.from_layout(text, value, (ends, top), duplicates, filename=filename)
    return doc


def remember(raw: bytes, doc: Json5Document) -> None:
    """Keep the parse of `raw` (the bytes of `doc.text`) when its layout is known; the callers
    keep only files of `loading.PARSE_CACHE_MIN_BYTES` or more (best effort: a cache that cannot be
    written is skipped). The secrets in it are not kept: each is a hole, read from the text again."""
    layout = doc.layout()
    if layout is None or _state.get("unwritable") or not _cacheable(raw) or not isinstance(doc.value, dict):
        return
    from vora_cli.core.errors import VoraError
    from vora_cli.core.writer import ensure_dir, write_cache_file

    folder = _folder()
    try:
        if not folder.exists():
            ensure_dir(folder)
    except (OSError, VoraError):
        _state["unwritable"] = True
    if _state.get("unwritable") or _own_folder() is None:
        _state["unwritable"] = True
        return
    holes = secret_paths(doc.value, doc.text)
    if holes is None or len(holes) > MAX_HOLES:
        return  # a config mostly made of secrets or URLs: reading them back costs what a parse does
    ends, top = layout
    try:
        payload = marshal.dumps((with_values(doc.value, holes, lambda _path: None), ends, top, doc.maybe_duplicates, holes),
                                _MARSHAL_VERSION)
    except ValueError:  # a value marshal cannot hold (none a parse makes): not kept
        return
    try:
        write_cache_file(folder / _key(raw), _MAGIC + _blake(payload) + payload)
        _prune(folder)
    except (OSError, VoraError):  # an unwritable cache dir is not this command's failure
        _state["unwritable"] = True


def _cacheable(raw: bytes) -> bool:
    """A text with a NaN is parsed every time: each parse reads every NaN as the one `math.nan`,
    which a marshalled copy is not, and a NaN is equal only to itself (a key holding one would
    look changed to the read-back check)."""
    return b"NaN" not in raw


def _filled(doc: Json5Document, holes: list[Any]) -> Any:
    """`doc.value` with each hole read from the text again (None: a hole the text does not hold)."""
    reader = Parser(doc.text, doc.filename)
    if not all(isinstance(path, tuple) and path for path in holes):
        return None

    def read(path: tuple[Any, ...]) -> Any:
        member = doc.member_at(path)
        if member is None:
            raise LookupError(path)
        return reader.value_at(member.vstart, len(path))[0]

    try:
        return with_values(doc.value, holes, read)
    except (LookupError, TypeError, ParseError, LayoutMismatch):  # TypeError: a step no key can be
        return None


def _fits(text: str, ends: dict[Any, Any], top: tuple[Any, ...]) -> bool:
    """Whether the layout can be one of `text` at a glance: the top-level value where it says. The
    rest is checked where it is used, container by container, as the editor walks it (each
    container's brackets, ends and members: `Parser.members`, `Json5Document._walk`; a mismatch
    parses the text again): checking all 30,000 ends of a 2 MB config here cost more than its use."""
    if len(top) != 2 or not all(type(p) is int for p in top) or not 0 <= top[0] < top[1] <= len(text):
        return False
    closer = {"{": "}", "[": "]"}
    if closer.get(text[top[0]]) != text[top[1] - 1]:
        return False
    return bool(ends.get(top[0]) == top[1])


def _key(raw: bytes) -> str:
    digest = _hasher()(digest_size=_DIGEST)
    digest.update(_parser_identity().encode())
    digest.update(raw)
    key: str = digest.hexdigest()
    return key


def _blake(data: bytes) -> bytes:
    digest: bytes = _hasher()(data, digest_size=_DIGEST).digest()
    return digest


def _hasher() -> Any:
    """BLAKE2b from CPython's own module (~0.2 ms to load; `hashlib` loads OpenSSL, ~3.5 ms)."""
    made = _state.get("blake2b")
    if made is None:
        try:
            import _blake2

            made = _blake2.blake2b
        except ImportError:  # a build without it
            import hashlib

            made = hashlib.blake2b
        _state["blake2b"] = made
    return made


def _parser_identity() -> str:
    identity: str | None = _state.get("parser")
    if identity is None:
        from vora_cli.core import secrets
        from vora_cli.core.json5 import document, parser

        marks = [f"python {sys.version_info[0]}.{sys.version_info[1]}", f"marshal {_MARSHAL_VERSION}"]
        # the parser, what finds the holes (the secret rule) and this module
        for path in (parser.__file__, document.__file__, secrets.__file__, __file__):
            try:
                info = os.stat(path)
                marks.append(f"{path}:{info.st_size}:{info.st_mtime_ns}")
            except OSError:
                marks.append(f"unreadable:{path}")
        identity = _state["parser"] = "\0".join(marks) + "\0"
    return identity


def _folder() -> Path:
    from vora_cli.core.userdirs import cache_dir

    return cache_dir() / FOLDER


def _own_folder() -> Path | None:
    """The cache folder when it is vora's own: a real folder (not a link) of this user's that no one
    else may write. Anything else is not read, written or pruned."""
    folder = _folder()
    try:
        info = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
        return None
    return folder


def _read(path: Path) -> bytes | None:
    """The entry's bytes, or None when it is missing, not vora's own, or bigger than any parse."""
    status, data, size = read_own_file(path, MAX_ENTRY_BYTES)
    return data if status == "ok" and size <= MAX_ENTRY_BYTES else None


def _prune(folder: Path) -> None:
    """Keep the `MAX_FILES` newest parses and drop temp files a killed writer left: only files
    named as this module names them (a digest, or the writer's temp name of one)."""
    try:
        entries = [e for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
    except OSError:
        return
    kept = sorted((e for e in entries if _ENTRY_NAME.fullmatch(e.name)),
                  key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
    stale = kept[MAX_FILES:] + [e for e in entries if _TEMP_NAME.fullmatch(e.name) and _is_old(e)]
    for entry in stale:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


def _is_old(entry: os.DirEntry[str]) -> bool:
    import time

    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > 600
    except OSError:
        return False
