"""npm's version ranges, read exactly as npm's `semver` package (7.x) reads them: `satisfies`.

In time linear in the range's length; the rules, and why no PyPI port: docs/plugins.md, "Compat",
and docs/dependencies.md.
"""

from __future__ import annotations

import re
from functools import cache

from vora_cli.core.text import JS_WHITESPACE, js_trim

MAX_LENGTH = 256  # semver's longest version
MAX_SAFE_INTEGER = 2**53 - 1

# JavaScript's `\s`, not Python's: Python's less U+001C-U+001F and U+0085, plus U+FEFF. Written as a
# negated class: a class listing the characters above U+00FF would cost `re` a 64K-entry table.
_S = r"(?:[^\S\x1c-\x1f\x85]|\ufeff)"
_LDN = "[a-zA-Z0-9-]"
_W = rf"(?:[v=]|{_S})"  # what semver's `[v=\s]*` before a version takes
# [0-9], never `\d`: Python's matches every Unicode digit ("1.2.1٣"), JavaScript's only ASCII ones
_NUM = r"0|[1-9][0-9]{0,256}"
_NUM_LOOSE = r"[0-9]{1,256}"
_NONNUM = rf"[0-9]{{0,256}}[a-zA-Z-]{_LDN}{{0,250}}"
_MAIN = rf"({_NUM})\.({_NUM})\.({_NUM})"
_MAIN_LOOSE = rf"({_NUM_LOOSE})\.({_NUM_LOOSE})\.({_NUM_LOOSE})"
_PRE_ID = rf"(?:{_NONNUM}|{_NUM})"
_PRE_ID_LOOSE = rf"(?:{_NONNUM}|{_NUM_LOOSE})"
_PRE = rf"(?:-({_PRE_ID}(?:\.{_PRE_ID})*))"
_PRE_LOOSE = rf"(?:-?({_PRE_ID_LOOSE}(?:\.{_PRE_ID_LOOSE})*))"
_BUILD = rf"(?:\+({_LDN}{{1,250}}(?:\.{_LDN}{{1,250}})*))"
_FULL_PLAIN = rf"v?{_MAIN}{_PRE}?{_BUILD}?"
_LOOSE_PLAIN = rf"{_W}*{_MAIN_LOOSE}{_PRE_LOOSE}?{_BUILD}?"
_GTLT = r"((?:<|>)?=?)"
_XID = rf"{_NUM}|x|X|\*"
_XID_LOOSE = rf"{_NUM_LOOSE}|x|X|\*"
_X_PLAIN = rf"{_W}*({_XID})(?:\.({_XID})(?:\.({_XID})(?:{_PRE})?{_BUILD}?)?)?"
_X_PLAIN_LOOSE = rf"{_W}*({_XID_LOOSE})(?:\.({_XID_LOOSE})(?:\.({_XID_LOOSE})(?:{_PRE_LOOSE})?{_BUILD}?)?)?"


@cache
def _re(name: str, loose: bool = False) -> re.Pattern[str]:
    """semver's patterns, compiled on first use (only a plugin that declares a range needs them)."""
    x_plain = _X_PLAIN_LOOSE if loose else _X_PLAIN
    sources = {
        "version": rf"^{_LOOSE_PLAIN}\Z" if loose else rf"^{_FULL_PLAIN}\Z",
        "build": _BUILD,
        "hyphen": rf"^{_S}{{0,1}}({x_plain}){_S}-{_S}({x_plain}){_S}{{0,1}}\Z",
        "comparator_trim": rf"({_S}{{0,1}}){_GTLT}{_S}{{0,1}}({_LOOSE_PLAIN}|{_X_PLAIN})",
        # the same, not tried in the middle of a run of `[v=\s]` (see `_trim_comparators`)
        "comparator_trim_skip": rf"(?:(?<!{_W})|(?!{_W}{_W}))({_S}{{0,1}}){_GTLT}{_S}{{0,1}}({_LOOSE_PLAIN}|{_X_PLAIN})",
        "tilde_trim": rf"({_S}{{0,1}})(?:~>?){_S}",
        "caret_trim": rf"({_S}{{0,1}})(?:\^){_S}",
        "tilde": rf"^(?:~>?){x_plain}\Z",
        "caret": rf"^(?:\^){x_plain}\Z",
        "xrange": rf"^{_GTLT}{_S}{{0,1}}{x_plain}\Z",
        "star": rf"(<|>)?=?{_S}{{0,1}}\*",
        "gte0": rf"^{_S}{{0,1}}>={_S}{{0,1}}0\.0\.0{_S}{{0,1}}\Z",
        "gte0pre": rf"^{_S}{{0,1}}>={_S}{{0,1}}0\.0\.0-0{_S}{{0,1}}\Z",
        "comparator": (rf"^{_GTLT}{_S}{{0,1}}({_LOOSE_PLAIN})\Z|^\Z" if loose
                       else rf"^{_GTLT}{_S}{{0,1}}({_FULL_PLAIN})\Z|^\Z"),
    }
    return re.compile(sources[name])


Identifier = int | str
Version = tuple[int, int, int, tuple[Identifier, ...]]


def parse_version(text: str, loose: bool = False) -> Version | None:
    """`text` as semver reads a version (`v1.2.3`, `1.2.3-beta.1+sha`), or None."""
    if len(text) > MAX_LENGTH:
        return None
    match = _re("version", loose).match(js_trim(text))
    if match is None:
        return None
    major, minor, patch = (int(match.group(i)) for i in (1, 2, 3))
    if max(major, minor, patch) > MAX_SAFE_INTEGER:
        return None
    pre = match.group(4)
    ids: tuple[Identifier, ...] = ()
    if pre:
        ids = tuple(int(p) if p.isdigit() and int(p) < MAX_SAFE_INTEGER else p for p in pre.split("."))
    return major, minor, patch, ids


def _compare_ids(a: Identifier, b: Identifier) -> int:
    a_num, b_num = isinstance(a, int) or a.isdigit(), isinstance(b, int) or b.isdigit()
    if a_num and b_num:
        a, b = int(a), int(b)
    elif a_num != b_num:
        return -1 if a_num else 1
    return 0 if a == b else -1 if a < b else 1  # type: ignore[operator]


def compare(a: Version, b: Version) -> int:
    """semver's `compare`: main parts, then a prerelease below its release, then id by id."""
    if a[:3] != b[:3]:
        return -1 if a[:3] < b[:3] else 1
    pa, pb = a[3], b[3]
    if not pa or not pb:
        return (not pa) - (not pb)
    for x, y in zip(pa, pb, strict=False):
        if x != y:
            return _compare_ids(x, y)
    return (len(pa) > len(pb)) - (len(pa) < len(pb))


def _text(version: Version) -> str:
    main = f"{version[0]}.{version[1]}.{version[2]}"
    return main + ("-" + ".".join(str(p) for p in version[3]) if version[3] else "")


class _Comparator:
    __slots__ = ("operator", "value", "version")

    def __init__(self, text: str, loose: bool) -> None:
        text = " ".join(_words(text))
        match = _re("comparator", loose).match(text)
        if match is None:
            raise ValueError(f"Invalid comparator: {text}")
        operator = match.group(1) or ""
        self.operator = "" if operator == "=" else operator
        self.version = parse_version(match.group(2), loose) if match.group(2) else None
        if match.group(2) and self.version is None:
            raise ValueError(f"Invalid version: {match.group(2)}")
        self.value = "" if self.version is None else self.operator + _text(self.version)

    def test(self, version: Version) -> bool:
        if self.version is None:
            return True
        order = compare(version, self.version)
        return {"": order == 0, ">": order > 0, ">=": order >= 0, "<": order < 0, "<=": order <= 0}[self.operator]


def _is_x(part: str | None) -> bool:
    return not part or part.lower() == "x" or part == "*"


def _plus(part: str) -> int:
    return int(part) + 1


def _caret(match: re.Match[str], z: str) -> str:
    major, minor, patch, pre = match.group(1, 2, 3, 4)
    if _is_x(major):
        return ""
    if _is_x(minor):
        return f">={major}.0.0{z} <{_plus(major)}.0.0-0"
    if _is_x(patch):
        upper = f"{major}.{_plus(minor)}.0-0" if major == "0" else f"{_plus(major)}.0.0-0"
        return f">={major}.{minor}.0{z} <{upper}"
    low = f">={major}.{minor}.{patch}" + (f"-{pre}" if pre else "")
    if major == "0":
        upper = f"{major}.{minor}.{_plus(patch)}-0" if minor == "0" else f"{major}.{_plus(minor)}.0-0"
    else:
        upper = f"{_plus(major)}.0.0-0"
    return f"{low} <{upper}"


def _tilde(match: re.Match[str], z: str) -> str:
    major, minor, patch, pre = match.group(1, 2, 3, 4)
    if _is_x(major):
        return ""
    if _is_x(minor):
        return f">={major}.0.0{z} <{_plus(major)}.0.0-0"
    if _is_x(patch):
        return f">={major}.{minor}.0{z} <{major}.{_plus(minor)}.0-0"
    low = f">={major}.{minor}.{patch}" + (f"-{pre}" if pre else "")
    return f"{low} <{major}.{_plus(minor)}.0-0"


def _xrange(match: re.Match[str], include_prerelease: bool) -> str:
    whole = match.group(0)
    gtlt, major, minor, patch = match.group(1, 2, 3, 4)
    if (_is_x(major) and not _is_x(minor)) or (_is_x(minor) and patch and not _is_x(patch)):
        return whole  # `x.1`: no x-range; left for the comparator to refuse
    x_major = _is_x(major)
    x_minor = x_major or _is_x(minor)
    any_x = x_minor or _is_x(patch)
    if gtlt == "=" and any_x:
        gtlt = ""
    pre = "-0" if include_prerelease else ""
    if x_major:
        return "<0.0.0-0" if gtlt in (">", "<") else "*"
    if gtlt and any_x:
        m: str | int = 0 if x_minor else minor
        p: str | int = 0
        big: str | int = major
        if gtlt == ">":
            gtlt = ">="
            if x_minor:
                big, m = _plus(major), 0
            else:
                m = _plus(minor)
        elif gtlt == "<=":
            gtlt = "<"
            if x_minor:
                big = _plus(major)
            else:
                m = _plus(minor)
        if gtlt == "<":
            pre = "-0"
        return f"{gtlt}{big}.{m}.{p}{pre}"
    if x_minor:
        return f">={major}.0.0{pre} <{_plus(major)}.0.0-0"
    if any_x:
        return f">={major}.{minor}.0{pre} <{major}.{_plus(minor)}.0-0"
    return whole


def _hyphen(match: re.Match[str], include_prerelease: bool) -> str:
    z = "-0" if include_prerelease else ""
    low, l_major, l_minor, l_patch, l_pre = match.group(1, 2, 3, 4, 5)
    high, h_major, h_minor, h_patch, h_pre = match.group(7, 8, 9, 10, 11)
    if _is_x(l_major):
        low = ""
    elif _is_x(l_minor):
        low = f">={l_major}.0.0{z}"
    elif _is_x(l_patch):
        low = f">={l_major}.{l_minor}.0{z}"
    else:
        low = f">={low}" if l_pre else f">={low}{z}"
    if _is_x(h_major):
        high = ""
    elif _is_x(h_minor):
        high = f"<{_plus(h_major)}.0.0-0"
    elif _is_x(h_patch):
        high = f"<{h_major}.{_plus(h_minor)}.0-0"
    elif h_pre:
        high = f"<={h_major}.{h_minor}.{h_patch}-{h_pre}"
    elif include_prerelease:
        high = f"<{h_major}.{h_minor}.{_plus(h_patch)}-0"
    else:
        high = f"<={high}"
    return f"{low} {high}".strip(JS_WHITESPACE)


def _words(text: str) -> list[str]:
    """`text.trim().split(/\\s+/)`, with JavaScript's whitespace."""
    return re.split(f"{_S}+", js_trim(text))


def _comparator_text(comp: str, loose: bool, include_prerelease: bool) -> str:
    """One space-separated part of a range, desugared into plain comparators (semver's parseComparator)."""
    z = "-0" if include_prerelease else ""
    comp = _re("build").sub("", comp, count=1)
    comp = " ".join(_re("caret", loose).sub(lambda m: _caret(m, z), c, count=1) for c in _words(comp))
    comp = " ".join(_re("tilde", loose).sub(lambda m: _tilde(m, z), c, count=1) for c in _words(comp))
    comp = " ".join(_re("xrange", loose).sub(lambda m: _xrange(m, include_prerelease), c.strip(JS_WHITESPACE), count=1)
                    for c in re.split(f"{_S}+", comp))
    return _re("star").sub("", comp.strip(JS_WHITESPACE), count=1)


def _trim_comparators(text: str) -> str:
    """semver's `range.replace(COMPARATORTRIM, '$1$2$3')` (`> 1.2.3` is `>1.2.3`), in linear time.

    The pattern's version opens with `[v=\\s]*`, so a search tried at each position of a long run
    of those characters is quadratic. A try from inside such a run reaches the same first
    character after it as the try one position earlier, so it fails when that one failed and is
    skipped; the position a search resumes at after a match is always tried."""
    whole, skipping = _re("comparator_trim"), _re("comparator_trim_skip")
    out: list[str] = []
    last = 0
    while last < len(text):
        match = whole.match(text, last) or skipping.search(text, last + 1)
        if match is None:
            break
        out += (text[last:match.start()], match.group(1), match.group(2), match.group(3))
        last = match.end()  # never empty: a version is at least one character
    out.append(text[last:])
    return "".join(out)


def _comparator_set(text: str, loose: bool, include_prerelease: bool) -> list[_Comparator]:
    """One `||` alternative as its comparators (semver's parseRange); raises ValueError on a bad one."""
    text = _re("build").sub("", text)
    text = _re("hyphen", loose).sub(lambda m: _hyphen(m, include_prerelease), text, count=1)
    text = _trim_comparators(text)
    text = _re("tilde_trim").sub(lambda m: m.group(1) + "~", text)
    text = _re("caret_trim").sub(lambda m: m.group(1) + "^", text)
    parts = " ".join(_comparator_text(c, loose, include_prerelease) for c in text.split(" "))
    gte0 = _re("gte0pre" if include_prerelease else "gte0")
    comps = [gte0.sub("", c.strip(JS_WHITESPACE), count=1) for c in re.split(f"{_S}+", parts)]
    if loose:
        comps = [c for c in comps if _re("comparator", True).match(c)]
    found: dict[str, _Comparator] = {}
    # every comparator is built first, as semver builds them: an invalid one after a null set still
    # makes the whole range invalid
    for comp in [_Comparator(c, loose) for c in comps]:
        if comp.value == "<0.0.0-0":
            return [comp]
        found.setdefault(comp.value, comp)
    if len(found) > 1:
        found.pop("", None)
    return list(found.values())


def _test_set(comparators: list[_Comparator], version: Version, include_prerelease: bool) -> bool:
    if not all(c.test(version) for c in comparators):
        return False
    if version[3] and not include_prerelease:
        # A prerelease passes only through a comparator naming a prerelease of the same version.
        return any(c.version is not None and c.version[3] and c.version[:3] == version[:3] for c in comparators)
    return True


@cache
def parse_range(text: str, loose: bool = False, include_prerelease: bool = False) -> list[list[_Comparator]] | None:
    """The range as semver's `Range` holds it (alternatives of comparators), or None when semver
    would refuse it (`Invalid SemVer Range`, `Invalid comparator`)."""
    raw = re.sub(f"{_S}+", " ", js_trim(text))
    try:
        sets = [s for s in (_comparator_set(js_trim(r), loose, include_prerelease) for r in raw.split("||")) if s]
    except ValueError:
        return None
    if not sets:
        return None
    if len(sets) > 1:
        first = sets[0]
        sets = [s for s in sets if s[0].value != "<0.0.0-0"] or [first]
        if len(sets) > 1:
            sets = next(([s] for s in sets if len(s) == 1 and s[0].value == ""), sets)
    return sets


def satisfies(version: str, range_text: str, *, loose: bool = False, include_prerelease: bool = False) -> bool:
    """semver's `satisfies(version, range, {loose, includePrerelease})`: False for a range or a
    version it cannot read, as semver answers."""
    sets = parse_range(range_text, loose, include_prerelease)
    if sets is None or not version:
        return False
    parsed = parse_version(version, loose)
    if parsed is None:
        return False
    return any(_test_set(s, parsed, include_prerelease) for s in sets)


def valid_range(range_text: str) -> bool:
    """Whether semver reads `range_text` as a range at all (its `validRange` is not null)."""
    return parse_range(range_text) is not None
