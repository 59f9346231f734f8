"""Secrets: which keys are secret, and keeping their values out of everything vora shows, in linear time
on any text (the rule and its decisions: docs/secrets.md).

Why one module: the key, value, raw-text and URL rules are one rule, known nowhere else; the scrub of known values needs the URL rule and the redaction of text needs the scrub.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

REDACTED = "<redacted>"
# An empty secret hides nothing, and is usually a mistake (an empty `--stdin`): structured output
# says so instead of `<redacted>`.
EMPTY_SECRET = "<empty>"

# A literal alternation: the engine tries a handful of fixed words per position, never a run.
_SECRET_NAME = re.compile(
    r"token|password|secret|api[-_]?key|private[-_]?key|authorization|cookie", re.IGNORECASE
)
# Shorter values are not scrubbed out of free text: they would wreck it and protect nothing.
MIN_SCRUB_LENGTH = 3
# A known value is looked for in data a script reads (a config value, a file's content) only from
# this length: a short password (`vora`) would turn `~/.vora/workspace` into wrong data.
MIN_KNOWN_VALUE_LENGTH = 8
_PLACEHOLDER = r"\$\{[A-Z_][A-Z0-9_]*\}"


def is_secret_name(name: object) -> bool:
    """Whether a key's name marks its value (and everything below it) as secret."""
    return isinstance(name, str) and _SECRET_NAME.search(name) is not None


def mentions_secret_name(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether `text[start:end]` contains a secret word anywhere (a raw-text test, for error
    excerpts: it errs on the side of hiding)."""
    return _SECRET_NAME.search(text, start, len(text) if end is None else end) is not None


def _is_name_slot(path: Sequence[object], index: int) -> bool:
    """`plugins.entries.<id>`, `plugins.installs.<id>`, `skills.entries.<key>`: the id is a name."""
    return index == 2 and path[0] in ("plugins", "skills") and path[1] in ("entries", "installs")


# Where the gateway keeps secrets under names the name rule misses: the `vora.json` paths of its
# secret-target registry (openclaw 2026.4.12, `listSecretTargetRegistryEntries`: the core entries
# and those of each bundled channel, per account too; kept as test data,
# tests/data/upstream/secret-targets-openclaw-2026.4.12.json). `*` is any one key. Everything at or
# below such a path is secret, for every printer (a service account may be a whole object).
GATEWAY_SECRET_TARGETS = (
    ("channels", "googlechat", "serviceAccount"), ("channels", "googlechat", "accounts", "*", "serviceAccount"),
    ("channels", "feishu", "encryptKey"), ("channels", "feishu", "accounts", "*", "encryptKey"),
    ("models", "providers", "*", "headers", "*"),
    ("models", "providers", "*", "request", "headers", "*"),
    ("models", "providers", "*", "request", "auth", "value"),
    *(("models", "providers", "*", "request", *via, "tls", part)
      for via in ((), ("proxy",)) for part in ("ca", "cert", "key", "passphrase")),
)

# The targets as a tree of keys: `_HERE` marks where one ends. A walk carries the nodes its path
# has reached (at most a few), so a child's test is a dict look-up, not a comparison per target.
_HERE = ""  # no target's key is empty, and a target ends where the walk stands, never below ""


def _target_tree() -> dict[str, Any]:
    root: dict[str, Any] = {}
    for target in GATEWAY_SECRET_TARGETS:
        node = root
        for key in target:
            node = node.setdefault(key, {})
        node[_HERE] = {}
    return root


_TARGETS: dict[str, Any] = _target_tree()
_NO_NODES: tuple[dict[str, Any], ...] = ()


def _below(nodes: tuple[dict[str, Any], ...], key: object) -> tuple[tuple[dict[str, Any], ...], bool]:
    """The target nodes one key further down (`*` is any key), and whether a target ends there."""
    found: list[dict[str, Any]] = []
    for node in nodes:
        if type(key) is str and key and key in node:
            found.append(node[key])
        if "*" in node:
            found.append(node["*"])
    return tuple(found), any(_HERE in n for n in found)


def is_secret_path(path: Sequence[object]) -> bool:
    """Whether the value at `path` is a secret: some key on the way names one, or the path is at or
    below one of the gateway's secret targets."""
    if any(is_secret_name(seg) and not _is_name_slot(path, i) for i, seg in enumerate(path)):
        return True
    if not path or path[0] not in _TARGETS:
        return False
    nodes: tuple[dict[str, Any], ...] = (_TARGETS,)
    for seg in path:
        nodes, here = _below(nodes, seg)
        if here:
            return True
        if not nodes:
            return False
    return False


def _is_secret_scalar(value: object) -> bool:
    return value is not None and not isinstance(value, bool | dict | list)


def redact(value: Any, path: Sequence[object] = (), *, said: bool = False) -> Any:
    """A copy of `value` (found at `path`) with every secret replaced by "<redacted>" (an empty
    string by "<empty>": there is nothing in it to hide). `said`: the value's neighbour says it is
    a secret (`follows_secret_flag`: the element after `--api-key`)."""
    if said or (path and is_secret_path(path)):
        return _redact_all(value)
    nodes: tuple[dict[str, Any], ...] = (_TARGETS,)
    for seg in path:
        nodes, _here = _below(nodes, seg)
        if not nodes:
            break
    return _redact_below(value, tuple(path), nodes)


def follows_secret_flag(tree: Any, path: Sequence[object]) -> bool:
    """Whether the array element at `path` of `tree` is the value of a secret flag just before it
    (`["--token", X]`): for a value shown alone, without the array around it."""
    if not path:
        return False
    index = path[-1]
    if type(index) is not int or index < 1:
        return False
    node = tree
    for seg in path[:-1]:
        try:
            node = node[seg]
        except (KeyError, IndexError, TypeError):
            return False
    return type(node) is list and index < len(node) and _secret_flag_before(node, index)


def _redact_below(value: Any, path: tuple[object, ...], nodes: tuple[dict[str, Any], ...] = _NO_NODES) -> Any:
    """`redact(value, path)` where no key of `path` is secret: a child's path is secret only when
    its own key is, or it reaches a target (`nodes`: the targets' keys below `path`);
    `is_secret_path` of every path again was most of a 5,000-line payload's cost."""
    if isinstance(value, dict):
        depth = len(path)
        out = {}
        for k, v in value.items():
            below, here = _below(nodes, k) if nodes else (_NO_NODES, False)
            if here or (is_secret_name(k) and not _is_name_slot((*path, k), depth)):
                out[k] = _redact_all(v)
            else:
                out[k] = _redact_below(v, (*path, k), below)
        return out
    if isinstance(value, list):  # an index names no secret; a plain string is kept as it is (a log tail)
        shown: list[Any] = []
        for i, v in enumerate(value):
            if i and _secret_flag_before(value, i) and not isinstance(v, dict | list):
                shown.append(_redact_all(v))
            elif type(v) is str:
                shown.append(redact_string(v))
            else:
                shown.append(_redact_below(v, (*path, i), _below(nodes, i)[0] if nodes else _NO_NODES))
        return shown
    if isinstance(value, str):
        return redact_string(value)
    return value


def _redact_all(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _redact_all(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_redact_all(v) for v in value]
    if value == "":
        return EMPTY_SECRET
    return REDACTED if _is_secret_scalar(value) else value


# -- values that say they are secrets ----------------------------------------------------------
#
# A value under a key that names nothing may still say what it is (docs/secrets.md, "Values that
# say so"): a header line or an assignment whose name is secret-named (`Authorization: Bearer …`,
# `OPENAI_API_KEY=…`, `--api-key=…`), an auth scheme and its credential (`Bearer …`, as a header
# map's `X-Custom` holds it), a secret-named flag and its value inside a command line (`mcp --token
# X`), the element after such a flag in an array (`args: ["--api-key", X]`), a PEM private key.

# `[-][-]name: ` or `name=` at the start of the value.
_LEADING_NAME = r"[ \t]*+(?:export[ \t]++)?-{0,2}+([A-Za-z_][\w.-]*+)[ \t]*+(?:=|:[ \t])[ \t]*+"
# `scheme credentials` as the whole value.
_SCHEME_VALUE = r"[ \t]*+([A-Za-z][A-Za-z0-9-]*+)[ \t]++(?=\S)"
# A flag inside a command line and its value (`--token X`, `--token=X`, `-api-key "X"`); a value
# that is itself a long flag (`--no-token-check --verbose`) is none. Each match starts at its
# dashes, which nothing before may continue: linear.
# A value that opens with a backslash is an escaped quote of JSON text inside the value (a raw
# log line): left to the gateway's escaped-quote patterns (`core/sessions/redact.py`), which read
# it whole; hiding the backslash alone would unescape the quote and expose what follows.
_FLAG_VALUE = (r"""(?<![\w-])-{1,2}+([A-Za-z][\w.-]*+)(?:=|[ \t]++)(?!--[A-Za-z])(?!\\)"""
               r"""("[^"\n]*+"?|'[^'\n]*+'?|[^\s"']++)""")
_FLAG_ALONE = r"-{1,2}+[A-Za-z][\w.-]*+"
# The label's run gives back to its last word (`OPENSSH PRIVATE KEY`); each match starts at the
# literal dashes, so a run is read again only from a `-----BEGIN ` of its own.
_PEM_BEGIN = r"-----BEGIN [A-Z ]*PRIVATE KEY-----"
_PEM_END = r"-----END [A-Z ]*PRIVATE KEY-----"
# Schemes that are also everyday words: their credential must not be one (`Token budget`, `Key
# rotation`, `Basic setup` are no credentials).
_WORDLIKE_SCHEMES = frozenset({"basic", "digest", "token", "key", "mutual", "concealed", "negotiate", "kerberos",
                               "oauth", "mac", "hawk"})
_PLAIN_WORD = r"[A-Z]?[a-z]*+"


# The gateway's well-known token shapes (its default log-redaction patterns, openclaw 2026.4.12,
# case-insensitive; `\b` as JavaScript reads it, ASCII: a token beside 汉字 or é is still one): a
# value holding one is a secret under any key (`env.vars.OPENAI: "sk-proj-…"`).
# Each with the literal its match starts with, lower-cased (a text without it is not searched).
# `core/sessions/redact.py` applies the same ones, among its other patterns, to transcript text.
TOKEN_SHAPES: tuple[tuple[str, str], ...] = (
    ("sk-", r"(?a)\b(sk-[A-Za-z0-9_-]{8,})\b"),
    ("ghp_", r"(?a)\b(ghp_[A-Za-z0-9]{20,})\b"),
    ("github_pat_", r"(?a)\b(github_pat_[A-Za-z0-9_]{20,})\b"),
    ("xox", r"(?a)\b(xox[baprs]-[A-Za-z0-9-]{10,})\b"),
    ("xapp-", r"(?a)\b(xapp-[A-Za-z0-9-]{10,})\b"),
    ("gsk_", r"(?a)\b(gsk_[A-Za-z0-9_-]{10,})\b"),
    ("aiza", r"(?a)\b(AIza[0-9A-Za-z\-_]{20,})\b"),
    ("pplx-", r"(?a)\b(pplx-[A-Za-z0-9_-]{10,})\b"),
    ("npm_", r"(?a)\b(npm_[A-Za-z0-9]{10,})\b"),
)


def _token_spans(text: str) -> list[tuple[int, int]]:
    """Where the config value `text` holds one of the gateway's well-known tokens. One that goes on a
    word of a path or a name (`/srv/sk-workspace-main`, `my-npm_cache-dir`) is that word, not a token:
    a config value is shown whole, and a path hidden in it would mislead a script."""
    low = text.lower()
    return [found.span(1) for needle, source in TOKEN_SHAPES if needle in low
            for found in re.finditer(source, text, re.IGNORECASE)
            if found.start(1) == 0 or text[found.start(1) - 1] not in "/\\._-"]


def is_secret_flag(text: object) -> bool:
    """Whether `text` is a command-line flag alone whose name is secret-named (`--api-key`): the
    next argument is its value."""
    return (type(text) is str and text.startswith("-") and re.fullmatch(_FLAG_ALONE, text) is not None
            and is_secret_name(text))


def _secret_flag_before(items: Sequence[Any], index: int) -> bool:
    """Whether `items[index]` is the value of a secret flag just before it."""
    value = items[index]
    return is_secret_flag(items[index - 1]) and not (type(value) is str and value.startswith("--"))


def _may_say_secret(text: str) -> bool:
    """False only when no shape of `shaped_spans` can be in `text`: no secret word, and its first
    word is no auth scheme, and it holds no token's literal (a few substring tests, not the patterns)."""
    if may_hold_secret_name(text):
        return True
    low = text.lower()
    if any(needle in low for needle, _source in TOKEN_SHAPES):
        return True
    head = text.lstrip(" \t")[:24]
    blank = min((i for i in (head.find(" "), head.find("\t")) if i > 0), default=-1)
    return blank > 0 and head[:blank].lower() in AUTH_SCHEMES


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    end = len(text) if end == -1 else end
    return at + len(text[at:end].rstrip())


def shaped_spans(text: str) -> list[tuple[int, int]]:
    """Where the value `text` says it holds a secret, in order and apart (see above); empty when
    it says nothing of the kind. Linear: each pattern is tried at its own literal."""
    if not text or not _may_say_secret(text):
        return []
    spans = _token_spans(text)
    lead = re.match(_LEADING_NAME, text)
    if lead is not None and is_secret_name(lead.group(1)):
        end = _line_end(text, lead.end())
        if end > lead.end():
            spans.append((lead.end(), end))
    scheme = re.match(_SCHEME_VALUE, text)
    if scheme is not None and scheme.group(1).lower() in AUTH_SCHEMES:
        end = _line_end(text, scheme.end())
        if _is_credential(scheme.group(1).lower(), text[scheme.end() : end]):
            spans.append((scheme.end(), end))
    if "-" in text:
        for flag in re.finditer(_FLAG_VALUE, text):
            if is_secret_name(flag.group(1)):
                start, end = flag.span(2)
                if text[start] in "\"'":  # the value inside its quotes
                    start += 1
                    end -= 1 if end - start > 0 and text[end - 1] == text[start - 1] else 0
                if end > start:
                    spans.append((start, end))
        begin = re.search(_PEM_BEGIN, text) if "PRIVATE KEY" in text else None
        if begin is not None:
            close = re.compile(_PEM_END).search(text, begin.end())
            spans.append((begin.end(), len(text) if close is None else close.start()))
    return _joined(spans)


def _is_credential(scheme: str, rest: str) -> bool:
    """Whether `rest`, after an auth scheme, is its credential: one word, or parameters
    (`realm="x", response="…"`, `Credential=…, Signature=…`)."""
    words = rest.split()
    if len(words) > 1:
        return "=" in rest
    return scheme not in _WORDLIKE_SCHEMES or re.fullmatch(_PLAIN_WORD, words[0]) is None


def _joined(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    if len(spans) < 2:
        return spans
    spans.sort()
    out = [spans[0]]
    for start, end in spans[1:]:
        if start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out


def redact_string(text: str) -> str:
    """A string value as it may be shown: what it says is secret (`shaped_spans`) and the secret
    parts of its URLs (`redact_urls`) replaced by "<redacted>". For a value whose path is no secret."""
    spans = shaped_spans(text)
    if spans:
        text = _replace_spans(text, spans)
    return redact_urls(text) if "://" in text else text


def _replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out += (text[pos:start], REDACTED)
        pos = end
    out.append(text[pos:])
    return "".join(out)


# A key below a secret-named one may itself be the credential (`tokens: {"<token>": {scopes}}`):
# one whole word of token characters, with a run of 12 or more letters and digits mixing both (a
# random token, a hex digest, a UUID's last group); a name (`main`, `operator`, `openai:default`)
# or a model id (`claude-3-5-sonnet-20241022`: no run mixes) is none.
_TOKEN_WORD = r"[A-Za-z0-9._~+/=:-]{12,}"
_ALNUM_RUN = r"[A-Za-z0-9]{12,}"


def looks_like_token(text: str) -> bool:
    """Whether `text` (a key below a secret-named key) is shaped like a credential rather than a name."""
    if len(text) > 4096 or re.fullmatch(_TOKEN_WORD, text) is None:
        return False
    return _mixed_run(text)


def _mixed_run(text: str) -> bool:
    """Whether `text` holds a run of 12 or more letters and digits mixing both, as a random token does."""
    return any(not run.isalpha() and not run.isdigit() for run in re.findall(_ALNUM_RUN, text))


SECRET_REF_SOURCES = ("env", "file", "exec")


def is_secret_ref(value: Any) -> bool:
    """A SecretRef (`{source: "env", provider: "default", id: "X"}`): where a secret is kept, the
    names of a source, a provider and an id, none of them the secret."""
    return isinstance(value, dict) and value.get("source") in SECRET_REF_SOURCES and isinstance(value.get("id"), str)


def secret_values(*trees: Any) -> set[str]:
    """Every secret string in the given config trees (for scrubbing text built from them): values
    at secret paths, what values say is secret (`shaped_spans`, the element after a secret flag)
    and the secret parts of URLs. A bare `${VAR}` is no secret, strings shorter than
    MIN_SCRUB_LENGTH are left out, and a tree given twice is walked once.
    """
    found: set[str] = set()
    neutral: dict[str, None] = {}  # the strings under no secret path, each once
    stack: list[tuple[Any, tuple[object, ...], bool, tuple[dict[str, Any], ...]]] = [
        (tree, (), False, (_TARGETS,)) for tree in {id(tree): tree for tree in trees}.values()]
    while stack:
        node, path, secret, nodes = stack.pop()
        if isinstance(node, dict):
            for key, child in node.items():
                # only the first three segments matter for the name-slot exception
                child_path = (*path, key) if len(path) < 3 else path
                below, here = _below(nodes, key) if nodes else (_NO_NODES, False)
                child_secret = secret or here or (is_secret_name(key) and not _is_name_slot(child_path, len(path)))
                if isinstance(child, dict | list):
                    if not (child_secret and is_secret_ref(child)):  # its words are names ("env", "default")
                        stack.append((child, child_path, child_secret, below))
                elif child_secret:
                    _add_value(found, child)
                elif isinstance(child, str):
                    neutral[child] = None
        elif isinstance(node, list):
            for i, child in enumerate(node):
                if isinstance(child, dict | list):
                    if not (secret and is_secret_ref(child)):
                        stack.append((child, (*path, 0) if len(path) < 3 else path, secret,
                                      _below(nodes, i)[0] if nodes else _NO_NODES))
                elif secret or (i and _secret_flag_before(node, i)):
                    _add_value(found, child)
                elif isinstance(child, str):
                    neutral[child] = None
    for text in neutral:
        if "://" in text:
            _add_url_secrets(found, text)
    for text in _saying(list(neutral)):
        for start, end in shaped_spans(text):
            _add_value(found, text[start:end])
    return found


def secret_leaves(tree: Any, prune: Callable[[Any], bool] | None = None, *,
                  shaped: bool = False) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Each non-container value of `tree` at a secret path (`is_secret_path`), with its path, in
    the tree's order. `prune(node)`: a container not to look into (a SecretRef). `shaped`: also
    each string elsewhere that says it holds a secret (`shaped_spans`) and the element after a
    secret flag in an array."""
    stack: list[tuple[Iterator[tuple[Any, Any]], Any, tuple[Any, ...], bool, tuple[dict[str, Any], ...]]] = []

    def enter(node: Any, path: tuple[Any, ...], secret: bool, nodes: tuple[dict[str, Any], ...]) -> None:
        stack.append((iter(node.items()) if type(node) is dict else enumerate(node), node, path, secret, nodes))

    if isinstance(tree, dict | list) and not (prune is not None and prune(tree)):
        enter(tree, (), False, (_TARGETS,))
    while stack:
        members, node, path, secret, nodes = stack[-1]
        step = next(members, None)
        if step is None:
            stack.pop()
            continue
        key, child = step
        below, here = _below(nodes, key) if nodes else (_NO_NODES, False)
        child_secret = secret or here or (type(key) is str and is_secret_name(key) and not _is_name_slot((*path, key), len(path)))
        if isinstance(child, dict | list):
            if not (prune is not None and prune(child)):
                enter(child, (*path, key), child_secret, below)
        elif child_secret or (shaped and type(child) is str and (
                (type(key) is int and key and _secret_flag_before(node, key)) or shaped_spans(child))):
            yield (*path, key), child


def _saying(texts: list[str]) -> list[str]:
    """The texts `shaped_spans` may find something in: each holding a secret word, each starting
    with an auth scheme and a blank (or with a blank: the scheme may follow), each non-ASCII one
    (Unicode case folding). The ASCII ones are joined and searched once per word, each search going
    on from the text after the one it hit: a pass per word over all of them, not a test per text."""
    from bisect import bisect_right

    out = [t for t in texts if not t.isascii() or t[:1] in (" ", "\t")]
    plain = [t for t in texts if t.isascii() and t[:1] not in (" ", "\t")]
    if not plain:
        return out
    starts: list[int] = []
    at = 1
    for text in plain:
        starts.append(at)
        at += len(text) + 1
    low = ("\n" + "\n".join(plain)).lower()
    hit: set[int] = set()

    def sift(needle: str, shift: int) -> None:
        found = low.find(needle)
        while found != -1:
            index = bisect_right(starts, found + shift) - 1
            hit.add(index)
            found = low.find(needle, starts[index + 1] - shift) if index + 1 < len(starts) else -1

    for word in (*_SECRET_WORDS, *(needle for needle, _source in TOKEN_SHAPES)):
        sift(word, 0)
    for scheme in AUTH_SCHEMES:  # at a text's start: after the newline that joins it
        for blank in (" ", "\t"):
            sift("\n" + scheme + blank, 1)
    out += [plain[i] for i in sorted(hit)]
    return out


# A query value hidden by the word rule may be a plain word (`?sort_key=name`): scrubbed from all
# text built from the config it would blank every `name` there. Where the whole URL is printed,
# `redact_urls` hides any value; only a token-length one is scrubbed from other text.
URL_VALUE_SCRUB_MIN = 8


def _add_url_secrets(found: set[str], value: str) -> None:
    for start, end in _url_spans_in_text(value):
        if value[end : end + 1] == "@" or end - start >= URL_VALUE_SCRUB_MIN:  # a password always
            _add_value(found, value[start:end])


def is_env_placeholder(value: str) -> bool:
    """A bare `${VAR}`: the secret stays in the environment, the file holds none."""
    return re.fullmatch(_PLACEHOLDER, value.strip()) is not None


def _add_value(found: set[str], value: Any) -> None:
    if isinstance(value, str):
        if len(value.strip()) >= MIN_SCRUB_LENGTH and not is_env_placeholder(value):
            found.add(value)
    elif _is_secret_scalar(value):
        text = str(value)
        if len(text) >= MIN_SCRUB_LENGTH:
            found.add(text)


# -- text ---------------------------------------------------------------------------------------

# `key: ` in text: JSON5 config text, a diff line, a log line, JSON text and JSON text inside a JSON
# string (a raw log line: `{\"apiKey\":\"…\"}`, `\\\"` a level deeper). The name's quotes may be
# escaped, by the same backslashes on both sides (`e`); the value is read by `_member_value`, so a
# match ends at the value and the search goes on inside a value that is no secret (`"0": "token: x"`
# of a raw log line). Linear: the lookbehinds let a key (or its escape run) start only where a run
# starts, the name is possessive (never given back), and so is every blank run.
_MEMBER = r"""(?<![\w$-])(?P<e>(?<!\\)\\++)?(?P<q>["']?)(?P<name>[\w$-]++)(?(q)(?(e)(?P=e))(?P=q))\s*+:[ \t]*+"""
_QUOTED_VALUE = r""""[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'?"""
# A bare value is one word; a quote or a backslash ends it (in JSON text the string holding the
# member closes there, or an escape such as `\n` starts).
_WORD_VALUE = r'[^\s,{}\[\]/"\\]++'
_BACKSLASHES = r"\\++"
# Where a value that runs to the end of its line stops: the line's end, a quote, or a `\n` or `\r`
# (in JSON text the string holding the line ends at a quote, and `\n` is its line break; `\t` is
# a blank inside the line).
_LINE_STOP = r'[\r\n"\\]'
# Header names whose value is a credential with blanks in it (`Authorization: Basic dXNl…`,
# `Cookie: sid=…; csrf=…`): the key rule's words in header form (a name holding a `-`: `x-api-key`,
# `Proxy-Authorization`, `Set-Cookie`, `X-Auth-Token`) and these two, and a password (a passphrase
# has blanks; a token or key has none).
_LINE_VALUE_NAMES = ("authorization", "cookie", "password", "passwd")
# A value starting with an HTTP auth scheme and a blank is `scheme credentials`, under any
# secret-named key (the IANA registry's schemes and the common unregistered ones).
AUTH_SCHEMES = frozenset({
    "basic", "bearer", "digest", "token", "negotiate", "ntlm", "kerberos", "hoba", "mutual", "oauth", "dpop",
    "gnap", "concealed", "privatetoken", "vapid", "scram-sha-1", "scram-sha-256", "aws4-hmac-sha256", "apikey",
    "api-key", "key", "hawk", "sharedkey", "sharedkeylite", "ssws", "splunk", "sapisidhash", "mac", "jwt",
})


def _is_line_value_name(name: str) -> bool:
    """Whether a secret-named member called `name` holds a value with blanks (a header's, a password)."""
    if "-" in name:
        return True
    low = name.lower()
    return any(n in low for n in _LINE_VALUE_NAMES)


def _runs_to_line_end(name: str, word: str, after: str) -> bool:
    """Whether the unquoted value of secret-named `name`, whose first word is `word` and which
    goes on with `after`, runs to the end of its line (docs/secrets.md, "Member values")."""
    return _is_line_value_name(name) or (after[:1] in (" ", "\t") and word.lower() in AUTH_SCHEMES)


def _escaped_end(text: str, start: int, depth: int, limit: int) -> tuple[int, bool]:
    """Where the string that opens at `text[start]` with `depth` backslashes before its quote
    (`\\"…\\"`) ends, and whether it is closed: at a quote with as many backslashes before it,
    or before one with fewer (the string holding this one closes there), or at a line break; at
    `limit` at the latest (where the string the member sits in closes)."""
    pos = start + depth + 1
    while True:  # each find reads only up to what it finds: a text with no line break is read once
        quote = text.find('"', pos, limit)
        line = text.find("\n", pos, limit if quote == -1 else quote)
        if line != -1:
            return line, False
        if quote == -1:
            return max(limit, pos), False
        run = quote
        while run > pos and text[run - 1] == "\\":
            run -= 1
        # the backslashes before a quote are escaped backslashes of this string (pairs of `depth + 1`)
        # and then the quote's own escape: `depth` of them close it, fewer close a string around it
        left = (quote - run) % (2 * (depth + 1))
        if left == depth:
            return quote + 1, True
        if left < depth:
            return quote - left, False
        pos = quote + 1


# A quoted auth-parameter or cookie value (`realm="x"`) is known by the lower-case name before its
# `=`, which a base64 credential's padding (`dXNlcjpwdw==` before the quote that ends a JSON string)
# is not; read back at most 32 characters.
_PARAM_NAME_BEFORE = r"(?<![A-Za-z0-9_+/-])[a-z][a-z0-9_-]{0,31}=\Z"


def _line_value_end(text: str, at: int, limit: int) -> int:
    """The end of a value that runs to the end of its line (`_LINE_STOP`), from `at`, over the
    quoted parameters inside it (`realm="x"` of Digest, `a="b c"` of a cookie, escaped or not);
    `limit` at the latest."""
    pos = at
    line_stop, backslashes = re.compile(_LINE_STOP), re.compile(_BACKSLASHES)
    while True:
        found = line_stop.search(text, pos, limit)
        stop = limit if found is None else found.start()
        if found is None or text[stop] in "\r\n":
            break
        run = backslashes.match(text, stop)
        depth = 0 if run is None else run.end() - stop
        after = text[stop + depth : stop + depth + 1]
        if depth and after not in ('"', "n", "r", ""):  # an escaped tab, slash or backslash: same line
            pos = stop + depth + 1
            continue
        if after != '"' or (depth % 2 == 0 and depth):
            break
        if not re.compile(_PARAM_NAME_BEFORE).search(text, max(at, stop - 33), stop):
            break
        if depth:
            end, closed = _escaped_end(text, stop, depth, limit)
        else:
            quoted = re.compile(_QUOTED_VALUE).match(text, stop, limit)
            end = stop if quoted is None else quoted.end()
            closed = end > stop + 1 and text[end - 1] == '"'
        if not closed:
            return end
        pos = end
    return len(text[at:stop].rstrip(" \t")) + at


def _member_value(text: str, m: re.Match[str], limit: int | None = None) -> tuple[int, int, str] | None:
    """The value of the member `m` of `_MEMBER` in `text`: its span and how it is quoted (`"`,
    `'`, the escaped quote `\\"` with its backslashes, or "" for none); None when there is none.
    An unquoted or escaped value is read up to `limit` at most (the end of the string the member
    sits in: reading on past it, for each member inside, would read a line once per member)."""
    limit = len(text) if limit is None else limit
    at = m.end()
    first = text[at : at + 1]
    if not first:
        return None
    if first in "\"'":
        quoted = re.compile(_QUOTED_VALUE).match(text, at)
        assert quoted is not None
        return at, quoted.end(), first
    if first == "\\":
        run = re.compile(_BACKSLASHES).match(text, at)
        assert run is not None
        if text[run.end() : run.end() + 1] == '"' and (run.end() - at) % 2:  # even: `\\` and a string's end
            end, _closed = _escaped_end(text, at, run.end() - at, limit)
            return at, end, text[at : run.end() + 1]
    word = re.compile(_WORD_VALUE).match(text, at, limit)
    if word is None and (first in _NO_VALUE or not _is_line_value_name(m.group("name"))):
        return None
    end = at if word is None else word.end()
    if is_secret_name(m.group("name")) and _runs_to_line_end(m.group("name"), text[at:end], text[end : end + 1]):
        end = _line_value_end(text, at, limit)
    return (at, end, "") if end > at else None


_NO_VALUE = frozenset(" \t\r\n\f\v,{}[]\"\\")
_OPENS_STRING = ("\"", "'", "\\")  # how a quoted or escaped value starts


def secret_values_in_text(text: str) -> list[str]:
    """The values of secret-named `key: value` members in raw config text (quotes stripped), for a
    config that does not parse: its text must not leak either.

    Only lines holding a secret word are scanned (`_secret_lines`), each from a place the whole
    scan also starts a match at, so the answer is the whole scan's. A match inside a secret value
    found is part of that value, as `hide_member_values` reads it (`password: password: …` is one
    value, kept once per word)."""
    lines = _secret_lines(text, len(text) // _LINE_COST)
    out: list[str] = []
    if lines is None:
        _values_from(text, 0, len(text), out, 0)
        return out
    taken = 0  # the end of the last secret value found: a match before it lies inside that value
    resume = 0  # a position the whole scan tries a match at (its matches are the same from there)
    for line_start, line_end in lines:
        if line_end < resume:
            continue
        start = max(_free_line_start(text, line_start, resume), resume)
        taken, found = _values_from(text, start, line_end, out, taken)
        resume = len(text) if found is None else found
    return out


def _values_from(text: str, pos: int, line_end: int, out: list[str], taken: int) -> tuple[int, int | None]:
    """Add the secret values of the matches from `pos` that start by `line_end` to `out`; the new
    `taken`, and where the first match past `line_end` starts (None: there is none). The scan goes
    on after a long value found, not through it: a match inside it is part of it, and a long
    value is not stepped through by the regex."""
    member = re.compile(_MEMBER)
    while True:
        for m in member.finditer(text, pos):
            if m.start() > line_end:
                return taken, m.start()
            if m.start() >= taken:
                taken = _add_secret_value(out, text, m, taken)
                if taken - m.end() > _LONG_VALUE:
                    pos = taken
                    break
        else:
            return taken, None


# A value longer than this is skipped by a new scan from its end (`_values_from`); a shorter one
# costs the scan less than starting again.
_LONG_VALUE = 1024

# A scan started on one line costs about what the whole scan spends on this many characters:
# text with more secret words than one per this many is scanned whole.
_LINE_COST = 64


def _add_secret_value(out: list[str], text: str, m: re.Match[str], taken: int) -> int:
    """Add the value of member `m` to `out` when its name is secret-named, without its quotes
    (escaped or not); the end of that value (`taken` when there is none)."""
    if not is_secret_name(m.group("name")):
        return taken
    found = _member_value(text, m)
    if found is None:
        return taken
    start, end, quote = found
    value = text[start:end]
    if quote:
        value = value[len(quote):]
        if value.endswith(quote):
            value = value[: -len(quote)]
    if len(value.strip()) >= MIN_SCRUB_LENGTH:
        out.append(value)
    return end


# The fixed words a secret name holds (`_SECRET_NAME`); `api` and `private` start the key forms.
_SECRET_WORDS = ("token", "password", "secret", "api", "private", "authorization", "cookie")
# What an ASCII text must hold, lower-cased, for `redact_text` with no known values to change it: a
# secret word (the member rule, `may_hold_secret_name`) or `://` (the URL rule, `_url_spans_in_text`).
# For a caller that sifts many texts at once (`core/gateway/shown.py`); a non-ASCII text (Unicode
# case folding: a Kelvin sign is a `k`) must take the full path.
TEXT_MARKS = (*_SECRET_WORDS, "://")


def may_hold_secret_name(text: str) -> bool:
    """False only when no part of `text` can be a secret name (`_SECRET_NAME` finds nothing in
    it). For ASCII text, where IGNORECASE is `str.lower`, a few substring tests, far cheaper than
    the case-insensitive search on every log line."""
    if not text.isascii():  # Unicode case folding (a Kelvin sign is a `k`): the pattern decides
        return True
    lower = text.lower()
    return any(word in lower for word in _SECRET_WORDS)


def _secret_lines(text: str, most: int) -> list[tuple[int, int]] | None:
    """(start, end) of each line holding a secret word, in order (end: its newline or the end);
    None when there are more than `most` secret words."""
    hits: list[int] = []
    if text.isascii():  # str.lower keeps every offset of ASCII text, and IGNORECASE is ASCII's
        low = text.lower()
        for word in _SECRET_WORDS:
            at = low.find(word)
            while at != -1:
                if _SECRET_NAME.match(low, at):
                    hits.append(at)
                    if len(hits) > most:
                        return None
                at = low.find(word, at + 1)
        hits.sort()
    else:  # Unicode case folding (a Kelvin sign is a `k`): the pattern's own search
        for m in _SECRET_NAME.finditer(text):
            hits.append(m.start())
            if len(hits) > most:
                return None
    lines: list[tuple[int, int]] = []
    for at in hits:
        if lines and at <= lines[-1][1]:
            continue
        end = text.find("\n", at)
        lines.append((text.rfind("\n", 0, at) + 1, len(text) if end == -1 else end))
    return lines


def _free_line_start(text: str, start: int, floor: int) -> int:
    """The start of the line at `start`, or of an earlier one (not before `floor`), that no
    `_MEMBER` match runs across. A match crosses a line break only in the blanks between its
    name and its colon, so a line whose first non-blank character is not `:` starts free; blank
    lines are passed over in one step."""
    while start > floor:
        end = text.find("\n", start)
        first = re.compile(_NON_BLANK).search(text, start, len(text) if end == -1 else end)
        if first is not None and text[first.start()] != ":":
            return start
        kept = len(text[floor:start].rstrip())  # up to the last non-blank character before this line
        if not kept:
            return floor
        start = text.rfind("\n", 0, floor + kept) + 1
    return floor


_NON_BLANK = r"\S"


def redact_text(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` (config text, a diff, a message) with secret-named members' values, every known
    secret value and the secret parts of every URL (`scrub`) replaced by "<redacted>". Call it on
    the text that is shown, not on a whole file."""
    if ":" in text and may_hold_secret_name(text):  # else no member's name is a secret one
        text = hide_member_values(text)
    return scrub(text, secrets)


def hide_member_values(text: str) -> str:
    """`text` with the value of every secret-named member hidden (the member rule). A quoted value
    keeps its own quotes (`"<redacted>"`, `\\"<redacted>\\"` in JSON inside a string), so JSON
    stays JSON; an unquoted one becomes `<redacted>`. The search goes on inside the values of
    other members (a raw log line holds its message as one)."""
    spans = member_spans(text)
    if not spans:
        return text
    out: list[str] = []
    kept = 0
    for start, end in spans:  # in order, apart: each value is read once, after the last
        out += (text[kept:start], REDACTED)
        kept = end
    out.append(text[kept:])
    return "".join(out)


def member_spans(text: str) -> list[tuple[int, int]]:
    """Where the member rule hides a value in `text`: each secret-named member's value inside its
    own quotes (empty for `""`: `<redacted>` goes between them), in order and apart; a value
    that is `<redacted>` already is left out. `hide_member_values` replaces them; `Masker.text`
    joins them with the spans of the gateway's patterns on the same text."""
    spans: list[tuple[int, int]] = []
    pos = 0
    # The quoted values of other members the search is inside, innermost last: (end, quote length).
    # A quote where the innermost one closes ends that string (`{"0": "token: "}`), no value opens.
    inside: list[tuple[int, int]] = []
    member = re.compile(_MEMBER)
    while (m := member.search(text, pos)) is not None:
        pos = m.end()
        while inside and inside[-1][0] <= m.start():
            inside.pop()
        secret = is_secret_name(m.group("name"))
        if not secret and text[pos : pos + 1] not in _OPENS_STRING:
            continue  # the unquoted value of another member: no string to search inside
        # a value is read no further than the string it is in (it is cut where that closes anyway)
        found = _member_value(text, m, inside[-1][0] if inside and inside[-1][1] else None)
        if found is not None and inside and inside[-1][1] and found[2] and found[0] + len(found[2]) == inside[-1][0]:
            found = None  # its opening quote is the one that closes the string it is in
        if found is None:
            continue
        start, end, quote = found
        if inside and inside[-1][1] and end > inside[-1][0] - inside[-1][1]:
            end = max(start, inside[-1][0] - inside[-1][1])  # a value ends with the string it is in
            if end == start:
                continue
        if not secret:
            # a string the search goes on inside; one that does not close here (cut by the string
            # it is in, or by the line: `{\"error\":\"missing token: ` at a message's end) bounds
            # nothing, and the string around it still does (its closing quote opens no value)
            if quote and end - start >= 2 * len(quote) and text.endswith(quote, start, end):
                inside.append((end, len(quote)))
            continue
        # what is hidden is inside the value's own quotes (a closing one is kept too)
        inner_end = end - len(quote) if quote and end - start > len(quote) and text.endswith(quote, start, end) else end
        inner = (start + len(quote), inner_end)
        if text[inner[0] : inner[1]] != REDACTED:
            spans.append(inner)
        pos = max(end, pos)
    return spans


class OrderedSecrets(list[str]):
    """Secret values longest first (`order_for_scrub`), with what `scrub` reads a text by when
    there are many: the secrets of `_GRAM` characters or more as a set, their lengths under each
    first `_GRAM` characters (keys of one kind share a prefix: `sk-proj-`), and a pattern for runs
    made only of characters those secrets hold, so a text is read once whatever their number."""

    __slots__ = ("_lookup",)
    _lookup: tuple[dict[str, list[int]], frozenset[str], re.Pattern[str], list[str]]

    def lookup(self) -> tuple[dict[str, list[int]], frozenset[str], re.Pattern[str], list[str]]:
        try:
            return self._lookup
        except AttributeError:
            lengths: dict[str, set[int]] = {}
            chars: set[str] = set()
            long_ones = [value for value in self if len(value) >= _GRAM]
            for value in long_ones:
                lengths.setdefault(value[:_GRAM], set()).add(len(value))
                chars.update(value)
            short = [value for value in self if 0 < len(value) < _GRAM]
            runs = re.compile("[" + "".join(map(re.escape, sorted(chars))) + f"]{{{_GRAM},}}")
            by_gram = {gram: sorted(found, reverse=True) for gram, found in lengths.items()}
            self._lookup = (by_gram, frozenset(long_ones), runs, short)
            return self._lookup


# A text is searched once per secret (`in`, at C speed) while there are few of them; past this
# many, once in all through the index (docs/performance.md, "Scrubbing many secrets").
_SEARCHED_ONE_BY_ONE = 256
_GRAM = 6


def order_for_scrub(secrets: Iterable[str]) -> OrderedSecrets:
    """Longest first, so a secret that contains another is replaced whole; each with its form
    inside a JSON string too when that differs (`{\\"private_key\\": …}` of a service account
    written as a string: config text, a diff, a log line hold it so)."""
    forms = set(secrets)
    for value in list(forms):
        if '"' in value or "\\" in value or not value.isascii() or not value.isprintable():
            import json

            forms.add(json.dumps(value, ensure_ascii=False)[1:-1])
            forms.add(json.dumps(value)[1:-1])  # `\u2026`: the form of a strict-ASCII writer
    return OrderedSecrets(sorted(forms, key=len, reverse=True))


def scrub_strings(value: Any, secrets: OrderedSecrets) -> Any:
    """A copy of JSON data `value` with every known secret value hidden in its strings (`scrub`):
    a token pasted under a key that names nothing is still the token."""
    if isinstance(value, str):
        return scrub(value, secrets)
    if isinstance(value, dict):
        return {k: scrub_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub_strings(v, secrets) for v in value]
    return value


def scrub(text: str, secrets: Iterable[str]) -> str:
    """Replace every occurrence of a known secret value in `text` (pass `order_for_scrub` output
    when calling it many times), and the secret parts of every URL in it (`redact_urls`: a URL
    from a file or a gateway is no known value)."""
    if not isinstance(secrets, Sequence):
        secrets = list(secrets)
    if len(secrets) <= _SEARCHED_ONE_BY_ONE:
        for value in secrets:
            if value and value in text:
                text = text.replace(value, REDACTED)
        return redact_urls(text)
    by_gram, known, runs, short = (secrets if isinstance(secrets, OrderedSecrets) else
                                   OrderedSecrets(secrets)).lookup()
    pieces: list[str] = []
    done = 0
    for run in runs.finditer(text):
        at, end = run.span()
        while at <= end - _GRAM:
            for length in by_gram.get(text[at : at + _GRAM], ()):  # longest first
                if text[at : at + length] in known:
                    pieces += (text[done:at], REDACTED)
                    at = done = at + length
                    break
            else:
                at += 1
    pieces.append(text[done:])
    text = "".join(pieces)
    for value in short:
        if value in text:
            text = text.replace(value, REDACTED)
    return redact_urls(text)


# -- URLs ---------------------------------------------------------------------------------------
#
# A URL can carry a secret under a key that names none (`gateway.remote.url`, a provider's
# `baseUrl`, an array of webhooks): the password of its user info and the values of its
# secret-named query (or fragment) parameters. The gateway hides the same parts in what it shows
# (openclaw 2026.4.12, `redactSensitiveUrl`: user info and the query names token, key, api_key,
# apikey, secret, access_token, password, pass, auth, client_secret, refresh_token). vora's rule is
# a superset: a parameter is secret when its name is secret-named by the key rule above, or when one
# of its words (split at `-`, `_`, `.` and lower-to-upper case changes) is one of these.
_URL_SECRET_WORDS = frozenset({"key", "pass", "passwd", "pwd", "auth", "sig", "signature"})
_URL_SECRET_STEMS = ("key", "pass", "pwd", "auth", "sig")  # every word above holds one
_PARAM_WORD = r"[A-Z]?[a-z]++|[A-Z]++(?![a-z])|[0-9]++"
_SCHEME_START = r"\s*+[A-Za-z][A-Za-z0-9+.-]*+://"
# A URL inside free text ends at a blank or a quote (a quote escaped with `\` is part of it: the
# text may be JSON). Possessive: each character is read once.
_URL_IN_TEXT = r"""://(?:[^\s"'`\\]|\\.)*+"""


def is_secret_param(name: str) -> bool:
    """Whether a URL query (or fragment) parameter called `name` (percent-encoded or not) holds a
    secret."""
    if "%" in name:
        from urllib.parse import unquote

        name = unquote(name)
    if is_secret_name(name):
        return True
    low = name.lower()  # no word of the set in it: no need to split it (a long name costs a find each)
    if not any(stem in low for stem in _URL_SECRET_STEMS):
        return False
    return any(word.lower() in _URL_SECRET_WORDS for word in re.findall(_PARAM_WORD, name))


def _url_secret_spans(url: str) -> list[tuple[int, int]]:
    """(start, end) of each secret part of the one URL `url`: the password of its user info, the
    values of its secret-named query and fragment parameters. Empty for no URL."""
    start = url.find("://")
    if start < 0:
        return []
    start += 3
    spans: list[tuple[int, int]] = []
    end = _authority_end(url, start)
    at = _userinfo_end(url, start, end)
    colon = url.find(":", start, at) if at >= 0 else -1
    if colon >= 0:
        spans.append((colon + 1, at))
        end = _authority_end(url, at)
    query = url.find("?", end)
    fragment = url.find("#", end if query < 0 else query)
    if query >= 0:
        spans += _param_spans(url, query + 1, fragment if fragment >= 0 else len(url))
    if fragment >= 0:  # `#access_token=…` (an OAuth redirect) holds a secret as a query does
        spans += _param_spans(url, fragment + 1, len(url))
    return spans


def _param_spans(url: str, start: int, stop: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    while start <= stop:
        amp = url.find("&", start, stop)
        pair_end = stop if amp < 0 else amp
        eq = url.find("=", start, pair_end)
        if eq >= 0 and is_secret_param(url[start:eq]):
            spans.append((eq + 1, pair_end))
        start = pair_end + 1
    return spans


def _url_spans_in_text(text: str) -> list[tuple[int, int]]:
    """(start, end) of each secret part of each URL in `text`. Text that is one URL (a config
    value: `wss://…`) is read whole, so a password holding a blank is found too; in other text a
    URL runs from its `://` to a blank or a quote."""
    if "://" not in text:
        return []
    if re.match(_SCHEME_START, text) and text.count("://") == 1:
        return _url_secret_spans(text)
    spans: list[tuple[int, int]] = []
    for found in re.finditer(_URL_IN_TEXT, text):
        url = found.group(0)
        if "@" in url or "?" in url or "#" in url:  # else nothing in it can be secret
            at = found.start()
            spans += [(at + s, at + e) for s, e in _url_secret_spans(url)]
    return spans


def redact_urls(text: str) -> str:
    """`text` (a config value, a message, a line) with the secret parts of every URL in it shown
    as "<redacted>": the password of the user info (a user name alone stays) and the values of
    secret-named query and fragment parameters (`?token=`). The rest is kept as typed."""
    spans = _url_spans_in_text(text)
    return _replace_spans(text, spans) if spans else text


def _authority_end(url: str, start: int) -> int:
    found = re.compile(_AUTHORITY_END).search(url, start)
    return len(url) if found is None else found.start()


_AUTHORITY_END = r"[/?#]"


def _userinfo_end(url: str, start: int, end: int) -> int:
    """The `@` that ends the user info of `url` (authority `url[start:end]`), or -1.

    A password with an unencoded `#`, `/` or `?` (`ws://admin:pa#ss@host`) ends the authority
    early, but the error naming the URL must still hide it: when the authority holds no `@` and
    its port is not a number, a later `@` ends the user info (hiding too much is the safe side).
    """
    at = url.rfind("@", start, end)
    if at >= 0:
        return at
    colon = url.find(":", start, end)
    later = url.rfind("@", end)
    if later < 0 or colon < 0 or url.startswith("[", start) or url[colon + 1 : end].isdigit():
        return -1
    return later


# A string literal on one line (possibly unterminated), or a bare word. Possessive throughout:
# a long run is consumed once, never re-tried.
_STRING_LITERAL = r"""("[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"?|'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'?)"""
_LITERAL = r"(?P<s>" + _STRING_LITERAL + r")|(?P<w>[\w$+.-]++)"
_KEY_AFTER = r"[ \t]*+:"
_PLAIN_WORDS = frozenset({"true", "false", "null"})


def hide_literal_values(line: str, start: int, end: int, *, keep_at: int | None = None,
                        words_from: int = 0) -> str:
    """`line[start:end]` of a config that does not parse, each string value (and each bare value
    from `words_from` on) replaced by "<redacted>"; keys and punctuation stay, so the shape shows.

    Without a parse no one can tell which values sit below a secret-named key. The literal at
    `keep_at` (the one the error quotes anyway) is kept. Literals are found on `line[:end]`, so
    one that starts before the window is still recognised."""
    out: list[str] = []
    pos = start
    # Only a string can reach into the window from before it: find those with a search that skips
    # everything else in C, then read the window itself token by token.
    lex_from = 0
    string = re.compile(_STRING_LITERAL)
    while lex_from < start:
        found = string.search(line, lex_from, end)
        if found is None or found.start() >= start:
            lex_from = start
        elif found.end() > start:
            lex_from = found.start()
            break
        else:
            lex_from = found.end()
    key_after = re.compile(_KEY_AFTER)
    for m in re.compile(_LITERAL).finditer(line, lex_from, end):
        s, e = m.span()
        if e <= start:
            continue
        text = m.group(0)
        if s == keep_at or key_after.match(line, e) is not None:
            continue
        if m.group("s") is not None:
            if len(text.strip("\"'")) < MIN_SCRUB_LENGTH:
                continue
        elif s < words_from or text in _PLAIN_WORDS or len(text) < MIN_SCRUB_LENGTH:
            continue
        out.append(line[pos:max(s, start)])
        out.append(REDACTED)
        pos = min(e, end)
    out.append(line[pos:end])
    return "".join(out)
