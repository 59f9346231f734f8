"""`core/lazy_re.py`: a pattern compiled on first use answers as the compiled one does, and every
lazy pattern vora defines compiles (an error in one would otherwise wait for its first use)."""

from __future__ import annotations

import ast
import copy
import importlib
import pickle
import re
import sys

import pytest

from tests.conftest import REPO
from vora_cli.core.lazy_re import _Lazy, lazy

CASES = [
    (r"(?P<word>[A-Za-z]++)(\d*)", 0, ["abc123 def", "", "42 x", "ÄÖ ü"]),
    (r"^\s*+#.*$", re.MULTILINE, ["a\n  # b\nc", "#", "x"]),
    (r"token|password", re.IGNORECASE, ["my TOKEN and PassWord", "none"]),
]


@pytest.mark.parametrize(("source", "flags", "texts"), CASES)
def test_every_method_answers_as_the_compiled_pattern(source: str, flags: int, texts: list[str]) -> None:
    compiled = re.compile(source, flags)
    pattern = lazy(source, flags)
    for text in texts:
        for pos in (0, 1, len(text)):
            for name in ("match", "search", "fullmatch"):
                got, want = getattr(pattern, name)(text, pos), getattr(compiled, name)(text, pos)
                assert (got and (got.span(), got.groups())) == (want and (want.span(), want.groups()))
        assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
        assert pattern.findall(text) == compiled.findall(text)
        assert pattern.sub("<\\g<0>>", text) == compiled.sub("<\\g<0>>", text)
        assert pattern.subn(lambda m: m.group(0).upper(), text) == compiled.subn(lambda m: m.group(0).upper(), text)
        assert pattern.split(text) == compiled.split(text)
    assert (pattern.pattern, pattern.flags, pattern.groups, pattern.groupindex) == (
        compiled.pattern, compiled.flags, compiled.groups, compiled.groupindex)


def test_bytes_patterns_too() -> None:
    pattern = lazy(rb"[ \t\n\r]*")
    assert pattern.match(b"  \n x", 0).end() == 4  # type: ignore[union-attr]
    with pytest.raises(TypeError):
        pattern.match("text")  # type: ignore[arg-type]  # as the compiled one refuses


def test_nothing_is_compiled_until_a_method_is_asked_for() -> None:
    source = r"lazy-re-test-(\d+)-unique"  # a pattern no other test compiles
    re.purge()
    pattern = lazy(source)
    assert "match" not in vars(pattern)
    assert (type(source), source, 0) not in re._cache  # type: ignore[attr-defined]
    assert pattern.match("lazy-re-test-7-unique").group(1) == "7"  # type: ignore[union-attr]
    assert "match" in vars(pattern)  # kept: the next call is a plain attribute read
    assert "search" not in vars(pattern)


def test_a_bad_pattern_fails_at_first_use_with_res_own_error() -> None:
    pattern = lazy(r"(unclosed")
    with pytest.raises(re.error):
        pattern.search("x")


def test_private_and_dunder_names_are_not_forwarded() -> None:
    pattern = lazy(r"a+")
    for name in ("_private", "__deepcopy__", "__setstate__", ""):
        with pytest.raises(AttributeError):
            getattr(pattern, name)
    assert copy.copy(pattern).match("aa").end() == 2  # type: ignore[union-attr]
    assert pickle.loads(pickle.dumps(pattern)).match("aaa").end() == 3
    assert repr(pattern) == "lazy('a+')"


def _vora_modules() -> list[str]:
    root = REPO / "vora_cli"
    names = []
    for path in sorted(root.rglob("*.py")):
        parts = ["vora_cli", *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__":
            names.append(".".join(parts))
    return names


def test_every_lazy_pattern_vora_defines_compiles() -> None:
    found: set[int] = set()  # by identity: a module that imports another's pattern holds the same one
    for name in _vora_modules():
        try:
            module = sys.modules.get(name) or importlib.import_module(name)
        except ImportError:  # an optional library this machine lacks
            continue
        for attribute, value in list(vars(module).items()):
            if isinstance(value, _Lazy):
                found.add(id(value))
                assert isinstance(re.compile(*value._source), re.Pattern), f"{name}.{attribute}"
    # every `lazy(...)` at a module's top level, counted in the source: none escaped the check above
    defined = 0
    for path in (REPO / "vora_cli").rglob("*.py"):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = getattr(node, "value", None)
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "lazy":
                defined += 1
    assert len(found) == defined > 0
