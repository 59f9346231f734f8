"""What vora parsed before: its own cache of the parses of big config files.

Parsing a 1 MB commented `vora.json` costs ~85 ms of Python (46,000 members, one regex match and a
dozen bytecodes each), most of every command that reads it: `config get`, `config validate`,
`doctor`, `config set` (issue 24). A parse depends only on the text and on the parser, so the
parse of a file of 64 KiB or more (`loading.PARSE_CACHE_MIN_BYTES`) is kept: its value and its
layout (where each container ends: `Json5Document.layout`), ~0.5 MB of `marshal` data for a 1 MB
file, read back in ~8 ms. A write by vora keeps the parse of the text it wrote (the editor knows
the new layout without parsing: `Json5Document._checked`), so a run of `config set`s parses once.

No secret is kept: each value under a secret-named key (core/secrets.py, the one rule) and each
string holding a URL is a hole in the kept value, read from the text again when it is used.

Each parse is one file, `<vora's cache dir>/parsed/<key>`, the key the BLAKE2b digest of the text,
the parser's source files (size and mtime: an upgrade or an edit forgets every parse) and the
Python version (marshal's). The file starts with a digest of the rest, so a torn or damaged file
is a miss, never a wrong value; its layout is then checked against the text (every container's
brackets are where it says). It is trusted only as vora's own: a regular file owned by this user
that no one else may write, opened without following links. At most `MAX_FILES` are kept. Only
parses are kept: a file with a syntax error is parsed every time, so every error shown is the
parser's own, and a cache that cannot be read or written changes nothing but the speed.
(docs/config.md, "Parsed before".)
"""

from __future__ import annotations

import contextlib
import marshal
import os
import stat
import sys
from pathlib import Path
from typing import Any

from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import Parser
from vora_cli.core.json5.values import with_value
from vora_cli.core.secrets import is_secret_name, is_secret_path

MAX_FILES = 16
FOLDER = "parsed"
_MAGIC = b"vora-parse-1\n"
_DIGEST = 32
_MARSHAL_VERSION = 4

_state: dict[str, Any] = {}


def look_up(raw: bytes, text: str, filename: str) -> Json5Document | None:
    """The document of `text` (decoded from `raw`) as parsed before, or None."""
    key = _key(raw)
    data = _read(_folder() / key)
    if data is None or len(data) < len(_MAGIC) + _DIGEST or not data.startswith(_MAGIC):
        return None
    payload = data[len(_MAGIC) + _DIGEST:]
    if _blake(payload) != data[len(_MAGIC):len(_MAGIC) + _DIGEST]:
        return None
    try:
        value, ends, top, duplicates, holes = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    if not (isinstance(ends, dict) and isinstance(top, tuple) and isinstance(duplicates, bool)
            and isinstance(holes, list) and _fits(text, ends, top)):
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
    if layout is None or _state.get("unwritable"):
        return
    ends, top = layout
    holes = secret_holes(doc.value, doc.text)
    kept = doc.value
    for path in holes:
        kept = with_value(kept, path, None)
    try:
        payload = marshal.dumps((kept, ends, top, doc.maybe_duplicates, holes), _MARSHAL_VERSION)
    except ValueError:  # a value marshal cannot hold (none a parse makes): not kept
        return
    from vora_cli.core.errors import VoraError
    from vora_cli.core.writer import write_cache_file

    folder = _folder()
    try:
        write_cache_file(folder / _key(raw), _MAGIC + _blake(payload) + payload)
        _prune(folder)
    except (OSError, VoraError):  # an unwritable cache dir is not this command's failure
        _state["unwritable"] = True


# What a secret-named key's name holds, lower-cased (core/secrets.py `_SECRET_NAME`; "api" for
# "api-key", "private" for "private-key"): a text with none of these, no URL, no escape and only
# ASCII (IGNORECASE folds some other letters to these) has no secret for `secret_holes` to find.
_SECRET_WORDS = ("token", "password", "secret", "api", "private", "authorization", "cookie")


def secret_holes(value: Any, text: str) -> list[tuple[str | int, ...]]:
    """The paths of the values of `text` (parsed: `value`) the cache must not hold: each value
    under a secret-named key (core/secrets.py, the one rule) and each string with a URL in it (its
    user info or query may hold a secret). One pass, skipped when the text cannot hold either; a
    key's name is tested once however often it appears."""
    plain = text.isascii() and "\\" not in text
    urls = not plain or "://" in text
    lower = text.lower() if plain else ""
    names_secrets = not plain or any(word in lower for word in _SECRET_WORDS)
    holes: list[tuple[str | int, ...]] = []
    if not (urls or names_secrets):
        return holes
    names: dict[str, bool] = {}
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        for key, child in node.items() if type(node) is dict else enumerate(node):
            if names_secrets and type(key) is str:
                named = names.get(key)
                if named is None:
                    named = names[key] = is_secret_name(key)
                if named and is_secret_path((*path, key)):
                    holes.append((*path, key))
                    continue
            kind = type(child)
            if kind is str:
                if urls and "://" in child:
                    holes.append((*path, key))
            elif kind is dict or kind is list:
                stack.append((child, (*path, key)))
    return holes


def _filled(doc: Json5Document, holes: list[Any]) -> Any:
    """`doc.value` with each hole read from the text again (None: a hole the text does not hold)."""
    value = doc.value
    reader = Parser(doc.text, doc.filename)
    for path in holes:
        if not isinstance(path, tuple):
            return None
        member = doc.member_at(path)
        if member is None:
            return None
        found, _start, _end = reader.value_at(member.vstart, len(path))
        value = with_value(value, path, found)
    return value


def _fits(text: str, ends: dict[Any, Any], top: tuple[Any, ...]) -> bool:
    """Whether the layout is one of `text`: every container opens and closes where it says."""
    if len(top) != 2 or not all(type(p) is int for p in top) or not 0 <= top[0] < top[1] <= len(text):
        return False
    closer = {"{": "}", "[": "]"}
    n = len(text)
    for start, end in ends.items():
        if type(start) is not int or type(end) is not int or not 0 <= start < end <= n:
            return False
        if closer.get(text[start]) != text[end - 1]:
            return False
    return True


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
        from vora_cli.core.json5 import parser

        marks = [f"python {sys.version_info[0]}.{sys.version_info[1]}", f"marshal {_MARSHAL_VERSION}"]
        for path in (parser.__file__, __file__):
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


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None when it is missing or not vora's own (another owner, group- or
    world-writable, not a regular file, a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022:
            return None
        chunks = []
        left = info.st_size
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _prune(folder: Path) -> None:
    """Keep the `MAX_FILES` newest parses (and drop temp files a killed writer left)."""
    try:
        entries = [e for e in os.scandir(folder) if e.is_file(follow_symlinks=False)]
    except OSError:
        return
    kept = sorted((e for e in entries if not e.name.startswith(".")),
                  key=lambda e: e.stat(follow_symlinks=False).st_mtime_ns, reverse=True)
    stale = kept[MAX_FILES:] + [e for e in entries if e.name.startswith(".") and _is_old(e)]
    for entry in stale:
        with contextlib.suppress(OSError):
            os.unlink(entry.path)


def _is_old(entry: os.DirEntry[str]) -> bool:
    import time

    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > 600
    except OSError:
        return False
