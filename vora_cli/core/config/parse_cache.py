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
text again when it is used (`secret_holes`, `_filled`). A text whose keys hold a URL, with more
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
from typing import Any

from vora_cli.core.errors import ParseError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.json5.parser import LayoutMismatch, Parser
from vora_cli.core.secrets import (
    GATEWAY_SECRET_TARGETS,
    is_gateway_secret_target,
    is_secret_name,
    is_secret_path,
)

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
    holes = secret_holes(doc.value, doc.text)
    if holes is None or len(holes) > MAX_HOLES:
        return  # a config mostly made of secrets or URLs: reading them back costs what a parse does
    ends, top = layout
    try:
        payload = marshal.dumps((_with_nones(doc.value, holes), ends, top, doc.maybe_duplicates, holes),
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


# What a secret-named key's name holds, lower-cased (core/secrets.py `_SECRET_NAME`; "api" for
# "api-key", "private" for "private-key"): a text with none of these, no URL, no escape and only
# ASCII (IGNORECASE folds some other letters to these) has no secret for `secret_holes` to find.
_SECRET_WORDS = ("token", "password", "secret", "api", "private", "authorization", "cookie")


def secret_holes(value: Any, text: str) -> list[tuple[str | int, ...]] | None:
    """The paths of the values of `text` (parsed: `value`) the cache must not hold: each value
    under a secret-named key (core/secrets.py, the one rule) or at a path the gateway counts as a
    secret (`GATEWAY_SECRET_TARGETS`), and each string with a URL in it (its user info or query may
    hold a secret). None when a key itself holds a URL (a key cannot be a hole). One pass, skipped
    when the text cannot hold either; a key's name is tested once however often it appears."""
    plain = text.isascii() and "\\" not in text
    urls = not plain or "://" in text
    lower = text.lower() if plain else ""
    names_secrets = not plain or any(word in lower for word in _SECRET_WORDS)
    holes: list[tuple[str | int, ...]] = []
    targets = {target[0] for target in GATEWAY_SECRET_TARGETS}
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    if not (urls or names_secrets):  # only the gateway's own secret targets can be here
        stack = [(value[k], (k,)) for k in sorted(targets) if isinstance(value, dict) and type(value.get(k)) in (dict, list)]
    names: dict[str, bool] = {}
    while stack:
        node, path = stack.pop()
        targeted = bool(path) and path[0] in targets
        for key, child in node.items() if type(node) is dict else enumerate(node):
            if type(key) is str:
                if urls and "://" in key:
                    return None
                named = names.get(key)
                if named is None:
                    named = names[key] = names_secrets and is_secret_name(key)
                if (named and is_secret_path((*path, key))) or (targeted and is_gateway_secret_target((*path, key))):
                    holes.append((*path, key))
                    continue
            elif targeted and is_gateway_secret_target((*path, key)):
                holes.append((*path, key))
                continue
            kind = type(child)
            if kind is str:
                if urls and "://" in child:
                    holes.append((*path, key))
            elif kind is dict or kind is list:
                stack.append((child, (*path, key)))
    return holes


def _with_nones(value: Any, holes: list[tuple[str | int, ...]]) -> Any:
    """`value` with None at each hole: each container on the way to one copied once."""
    return _put(value, _trie(holes), lambda _path: None, ())


def _trie(paths: list[tuple[str | int, ...]]) -> dict[Any, Any]:
    """The paths as nested dicts; a path's last step maps to `_LEAF`."""
    root: dict[Any, Any] = {}
    for path in paths:
        node = root
        for seg in path[:-1]:
            node = node.setdefault(seg, {})
        node[path[-1]] = _LEAF
    return root


def _put(tree: Any, trie: dict[Any, Any], leaf: Any, path: tuple[Any, ...]) -> Any:
    copy: Any = dict(tree) if type(tree) is dict else list(tree)
    for seg, below in trie.items():
        here = (*path, seg)
        copy[seg] = leaf(here) if below is _LEAF else _put(tree[seg], below, leaf, here)
    return copy


_LEAF = object()


def _filled(doc: Json5Document, holes: list[Any]) -> Any:
    """`doc.value` with each hole read from the text again (None: a hole the text does not hold)."""
    reader = Parser(doc.text, doc.filename)
    if not all(isinstance(path, tuple) and path for path in holes):
        return None
    try:
        trie = _trie(holes)
    except TypeError:  # a step that cannot be a key
        return None

    def read(path: tuple[Any, ...]) -> Any:
        member = doc.member_at(path)
        if member is None:
            raise LookupError(path)
        return reader.value_at(member.vstart, len(path))[0]

    try:
        return _put(doc.value, trie, read, ())
    except (LookupError, TypeError, ParseError, LayoutMismatch):
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
    """The file's bytes, or None when it is missing or not vora's own (another owner, group- or
    world-writable, not a regular file, a link)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o022 \
                or info.st_size > MAX_ENTRY_BYTES:
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
