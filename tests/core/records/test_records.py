"""`vora_cli.core.records.dataclass` behaves as `dataclasses.dataclass` for every form vora uses.

Each case defines the same class body twice, once with each decorator, and compares what a caller
can see: the `__init__` signature and its errors, defaults and factories, `==`, `hash`, `repr`,
frozen assignment, `__post_init__`, `__match_args__`, `replace`, `fields`, inheritance and slots;
with annotations as text (`from __future__ import annotations`) and as objects. What is a field
is what `dataclasses` resolves the annotation to; what records does not offer is refused.
"""

from __future__ import annotations

import dataclasses
import inspect
import pickle
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core import records

BODIES = {
    "plain": "x: int\ny: str\n",
    "defaults": "x: int\ny: str = 'a'\nz: tuple = ()\nn: object = None\n",
    "factories": "x: int = 0\nitems: list = field(default_factory=list)\nd: dict = field(default_factory=dict)\n",
    "options": ("a: int\nb: str = field(default='', repr=False)\nc: int = field(default=0, compare=False)\n"
                "d: int = field(default=1, compare=False, hash=False)\ne: int = field(default=2, hash=False)\n"),
    "empty": "",
    "one": "only: str\n",
    "named-hash": "hash: str\nindex: int = 0\n",
    "post-init": ("x: int\ny: int = 0\n"
                  "def __post_init__(self):\n    object.__setattr__(self, 'y', self.x * 2) if self.__dataclass_like__ "
                  "else None\n__dataclass_like__ = True\n"),
    "methods": "x: int\ndef __str__(self):\n    return f'<{self.x}>'\n@property\ndef double(self):\n    return self.x * 2\n",
}

VARIANTS = {"mutable": {}, "frozen": {"frozen": True}, "slots": {"frozen": True, "slots": True}}
FUTURE = "from __future__ import annotations\nfrom typing import ClassVar\n"
# Annotations as text (the future import) or as objects: records reads either, as dataclasses does.
HEADS = {"text": FUTURE, "objects": "from typing import ClassVar\n"}


_MODULES = iter(range(1_000_000))


def _module(source: str, **names: Any) -> types.ModuleType:
    """`source` run as a module of its own (in `sys.modules`, as `dataclasses` looks a class's
    module up there to resolve a text annotation), with `names` bound in it first."""
    module = types.ModuleType(f"records_case_{next(_MODULES)}")
    vars(module).update(names)
    sys.modules[module.__name__] = module
    exec(compile(source, module.__name__, "exec", dont_inherit=True), vars(module))
    return module


def _make(decorator: Any, body: str, options: dict[str, Any], name: str = "C", *, head: str = FUTURE) -> Any:
    indented = "".join(f"    {line}\n" for line in (f'"""{name}."""\n' + body).splitlines())
    source = f"@dataclass({', '.join(f'{k}={v!r}' for k, v in options.items())})\nclass {name}:\n{indented}"
    field = dataclasses.field if decorator is dataclasses.dataclass else records.field
    return getattr(_module(head + source, dataclass=decorator, field=field), name)


def _pair(body: str, options: dict[str, Any], *, head: str = FUTURE) -> tuple[Any, Any]:
    return _make(dataclasses.dataclass, body, options, head=head), _make(records.dataclass, body, options, head=head)


def _outcome(call: Any, *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """What `call(*args, **kwargs)` gives: ("ok", value) or (error kind, message)."""
    try:
        return "ok", call(*args, **kwargs)
    except Exception as error:
        return type(error).__name__, str(error).replace("C.__init__()", "__init__()")


def _refused(outcome: tuple[str, Any]) -> str:
    return "ok" if outcome[0] == "ok" else "refused"


def _parameters(cls: Any) -> list[tuple[str, Any, Any]]:
    """Names, kinds and defaults of `cls(...)` (annotations aside: the compiled `__init__` has none)."""
    return [(p.name, p.kind, repr(p.default)) for p in inspect.signature(cls).parameters.values()]


ARGUMENTS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}), ((1,), {}), ((1, "b"), {}), ((1, "b", (2,)), {}), ((), {"x": 1, "y": "b"}),
    ((1,), {"x": 2}), ((1,), {"nope": 1}), ((1, "b", (), None, 5), {}), ((), {"a": 1}), ((), {"only": "o"}),
    ((), {"hash": "h"}), (("h", 3), {}), ((7,), {"items": [1]}),
    # Python's order of complaints: a keyword first, then too many positionals, then what is missing
    ((1, "b", (), None, 5, 6), {"nope": 1}), ((1, "b", (), None, 5), {"x": 1}), ((1,), {"self": 2}),
    ((), {"y": "b"}), ((), {"z": (), "n": 1}), ((1, 2, 3, 4, 5, 6, 7, 8), {}), ((), {"items": [], "x": 1}),
    ((1, 2), {"a": 1, "b": 2}), ((), {"d": 1, "e": 2}),
]


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("body", BODIES)
def test_the_same_class_as_dataclasses_makes(body: str, variant: str, head: str) -> None:
    theirs, ours = _pair(BODIES[body], VARIANTS[variant], head=HEADS[head])
    assert [f.name for f in records.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert ours.__match_args__ == theirs.__match_args__
    for args, kwargs in ARGUMENTS:
        mine, expected = _outcome(ours, *args, **kwargs), _outcome(theirs, *args, **kwargs)
        assert mine[0] == expected[0], (args, kwargs)
        if mine[0] != "ok":
            assert mine[1] == expected[1]
            continue
        a, b = mine[1], expected[1]
        assert _parameters(ours) == _parameters(theirs)  # the real __init__ exists from the first call
        assert repr(a).replace("C(", "X(") == repr(b).replace("C(", "X(")
        assert str(a) == str(b)
        if variant != "slots":
            assert vars(a) == vars(b)
        assert a == ours(*args, **kwargs) and b == theirs(*args, **kwargs)
        assert a != b  # another class is never equal
        assert (ours.__hash__ is None) == (theirs.__hash__ is None)
        if theirs.__hash__ is not None:
            assert _outcome(hash, a) == _outcome(hash, b)
            assert _outcome(hash, a) == _outcome(hash, ours(*args, **kwargs))
        for name in ("x", "hash", "only", "a", "zz"):
            # Refused alike; for a frozen slots class Python 3.11's own `__setattr__` raises TypeError
            # on a name that is not a field (it checks against the class before slots were added).
            assert _refused(_outcome(setattr, a, name, 9)) == _refused(_outcome(setattr, b, name, 9))
            assert _refused(_outcome(delattr, a, name)) == _refused(_outcome(delattr, b, name))


def test_eq_compares_only_compared_fields_and_hash_only_hashed_ones() -> None:
    theirs, ours = _pair(BODIES["options"], {"frozen": True})
    for cls, module in ((theirs, dataclasses), (ours, records)):
        one, other = cls(1, c=1, d=1, e=1), cls(1, c=2, d=2, e=1)
        assert one == other
        assert module.replace(one, a=2) != one
        assert module.replace(one, a=1) == one
    assert hash(ours(1, e=5)) == hash(ours(1, e=6)) == hash(theirs(1, e=7))


# -- what is a field: the annotation as dataclasses resolves it, not its spelling --------------------

IMPORTS = ("import typing\nfrom typing import ClassVar\nfrom typing import ClassVar as CV\n"
           "class ClassVarianceReport:\n    pass\n")
ACCEPTED = {
    "bare ClassVar": "x: int\nK: ClassVar = 1\n",
    "ClassVar[int]": "x: int\nK: ClassVar[int] = 1\n",
    "bare typing.ClassVar": "x: int\nK: typing.ClassVar = 1\n",
    "typing.ClassVar[...], mutable default": "x: int\nK: typing.ClassVar[dict[str, int]] = {}\n",
    "an alias of ClassVar": "x: int\nK: CV[int] = 1\n",
    "ClassVar with field(default=...)": "x: int\nK: ClassVar[int] = field(default=3)\n",
    "ClassVar without a default": "x: int\nK: ClassVar[int]\n",
    "a ClassVar's default before a required field": "K: ClassVar[int] = 1\nx: int\n",
    "a type whose name starts with ClassVar": "x: int\nK: ClassVarianceReport = None\n",
    "a type whose name starts with InitVar or KW_ONLY": "x: int\nK: InitVarious = None\nL: KW_ONLY_SET = None\n",
}


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("case", ACCEPTED)
def test_a_field_is_what_dataclasses_takes_for_one(case: str, head: str) -> None:
    source = IMPORTS + "InitVarious = KW_ONLY_SET = int\n"
    theirs, ours = (_make(decorator, ACCEPTED[case], {"frozen": True}, head=HEADS[head] + source)
                    for decorator in (dataclasses.dataclass, records.dataclass))
    assert [f.name for f in records.fields(ours)] == [f.name for f in dataclasses.fields(theirs)]
    assert _parameters(ours) == _parameters(theirs)
    for name in ("K", "L"):
        assert _outcome(getattr, ours, name) == _outcome(getattr, theirs, name)
    assert repr(ours(1)) == repr(theirs(1))


REFUSED = {  # (what the module imports, the class body, the field the error names)
    "InitVar": ("from dataclasses import InitVar\n", "x: int\nseed: InitVar[int] = 0\n", "seed"),
    "dataclasses.InitVar": ("import dataclasses\n", "x: int\nseed: dataclasses.InitVar[int] = 0\n", "seed"),
    "KW_ONLY": ("from dataclasses import KW_ONLY\n", "x: int\n_: KW_ONLY\ny: int = 0\n", "_"),
    "field(init=False)": ("", "x: int\ny: int = field(default=0, init=False)\n", "y"),
    "field(kw_only=True)": ("", "x: int\ny: int = field(default=0, kw_only=True)\n", "y"),
    "field(metadata=...)": ("", "x: int\ny: int = field(default=0, metadata={'unit': 's'})\n", "y"),
}


@pytest.mark.parametrize("head", HEADS)
@pytest.mark.parametrize("case", REFUSED)
def test_what_records_does_not_offer_is_refused_naming_the_field(case: str, head: str) -> None:
    imports, body, name = REFUSED[case]
    assert _make(dataclasses.dataclass, body, {}, head=HEADS[head] + imports)  # the standard library takes it
    with pytest.raises(TypeError, match=rf"^C\.{name}: .* not supported by vora's records$"):
        _make(records.dataclass, body, {}, head=HEADS[head] + imports)


@pytest.mark.parametrize("option", ["order", "kw_only", "unsafe_hash", "eq", "init", "repr", "match_args"])
def test_a_dataclass_option_records_does_not_offer_is_refused_naming_the_class(option: str) -> None:
    assert _make(dataclasses.dataclass, "x: int\n", {option: option != "eq"})
    with pytest.raises(TypeError, match=rf"^C: @dataclass\({option}=\) is not supported by vora's records$"):
        _make(records.dataclass, "x: int\n", {option: option != "eq"})


def test_a_classvar_imported_only_for_type_checkers_is_refused() -> None:
    """Python never binds the name, so `dataclasses` makes a field of it, silently; records says so."""
    only_typed = "from __future__ import annotations\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n" \
                 "    from typing import ClassVar\n"
    theirs = _make(dataclasses.dataclass, "x: int\nK: ClassVar[int] = 1\n", {}, head=only_typed)
    assert [f.name for f in dataclasses.fields(theirs)] == ["x", "K"]
    with pytest.raises(TypeError, match=r"^C\.K: the annotation 'ClassVar\[int\]' names ClassVar, which "
                                        r"records_case_\d+ does not import at run time"):
        _make(records.dataclass, "x: int\nK: ClassVar[int] = 1\n", {}, head=only_typed)


def test_annotations_are_resolved_without_typing_or_dataclasses_loaded(tmp_path: Path) -> None:
    """On the everyday commands neither module is imported: nothing can be a ClassVar then, and a
    class is made without importing them."""
    probe = ("from __future__ import annotations\nimport sys\nfrom vora_cli.core.records import dataclass, fields\n"
             "assert 'typing' not in sys.modules and 'dataclasses' not in sys.modules\n"
             "class ClassVarianceReport: pass\n"
             "@dataclass(frozen=True)\nclass C:\n    x: int\n    report: ClassVarianceReport = None\n"
             "print([f.name for f in fields(C)], 'typing' in sys.modules, 'dataclasses' in sys.modules)\n"
             "try:\n    dataclass(type('D', (), {'__annotations__': {'K': 'ClassVar[int]'}, 'K': 1}))\n"
             "except TypeError as error:\n    print(str(error).split(':')[0])\n")
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert shown.stdout.splitlines() == ["['x', 'report'] False False", "D.K"], shown.stderr


def test_replace_keeps_the_other_fields_and_refuses_unknown_ones() -> None:
    theirs, ours = _pair(BODIES["defaults"], {"frozen": True})
    assert repr(records.replace(ours(1, "q"), z=(3,))) == repr(dataclasses.replace(theirs(1, "q"), z=(3,)))
    with pytest.raises(TypeError):
        records.replace(ours(1), nope=2)
    with pytest.raises(TypeError):
        records.fields(object())


def test_a_frozen_record_refuses_assignment_with_an_attribute_error() -> None:
    _theirs, ours = _pair(BODIES["plain"], {"frozen": True})
    value = ours(1, "y")
    with pytest.raises(records.FrozenInstanceError, match="cannot assign to field 'x'"):
        value.x = 2
    with pytest.raises(AttributeError):
        del value.y


def test_subclasses_inherit_fields_in_order() -> None:
    for decorator, module in ((dataclasses.dataclass, dataclasses), (records.dataclass, records)):
        base = _make(decorator, "x: int\ny: int = 1\n", {"frozen": True}, "Base")
        namespace: dict[str, Any] = {"dataclass": decorator, "Base": base}
        exec('@dataclass(frozen=True)\nclass Sub(Base):\n    """Sub."""\n    z: int = 2\n    y: int = 5\n',
             namespace)
        sub = namespace["Sub"]
        assert [f.name for f in module.fields(sub)] == ["x", "y", "z"]
        assert repr(sub(0)) == "Sub(x=0, y=5, z=2)"
        assert sub(0) != base(0, 5)


def test_a_plain_subclass_of_a_record_builds_the_records_init() -> None:
    base = _make(records.dataclass, "x: int\n", {"frozen": True}, "Base")

    class Plain(base):  # type: ignore[misc, valid-type]
        pass

    assert Plain(3).x == 3
    assert base(4).x == 4


def test_mistakes_dataclasses_refuses_are_refused() -> None:
    with pytest.raises(TypeError, match="non-default argument 'y' follows default argument"):
        _make(records.dataclass, "x: int = 0\ny: int\n", {})
    with pytest.raises(ValueError, match="mutable default"):
        _make(records.dataclass, "x: list = []\n", {})
    with pytest.raises(ValueError, match="both default and default_factory"):
        records.field(default=1, default_factory=list)
    with pytest.raises(TypeError, match="__setattr__"):
        _make(records.dataclass, "x: int\ndef __setattr__(self, n, v):\n    pass\n", {"frozen": True})


def test_repr_of_a_cycle_does_not_recurse() -> None:
    _theirs, ours = _pair("items: list = field(default_factory=list)\n", {})
    value = ours()
    value.items.append(value)
    assert repr(value) == "C(items=[...])"


@records.dataclass(frozen=True)
class Picked:
    """A record at module level, so that pickle can find it."""
    x: int
    y: str = "a"


def test_records_pickle() -> None:
    assert Picked.__init__.__qualname__ == "Picked.__init__"
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(Picked(2), protocol=protocol)) == Picked(2, "a")


def test_every_vora_class_is_a_record_and_no_command_imports_dataclasses(tmp_path: Path) -> None:
    """The point of the module: a hot command does not load `dataclasses` (and its `inspect`)."""
    package = Path(records.__file__).resolve().parents[1]
    offenders = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
                 if ("import dataclasses" in p.read_text() or "from dataclasses import" in p.read_text())
                 and p.name != "records.py"]  # records.py: for mypy only (`if TYPE_CHECKING`)
    assert offenders == []
    example = Path(__file__).resolve().parents[3] / "examples" / "vora"
    probe = ("import sys; from vora_cli.cli.dispatch import dispatch\n"
             "code = dispatch(['--state-dir', sys.argv[1], 'doctor'])\n"
             "print('dataclasses' in sys.modules, 'inspect' in sys.modules, code is not None)")
    shown = subprocess.run([sys.executable, "-c", probe, str(example)], capture_output=True, text=True,
                           env={"HOME": str(tmp_path), "VORA_HOME": str(tmp_path), "NO_COLOR": "1",
                                "PATH": "/usr/bin:/bin"}, timeout=120)
    assert shown.stdout.splitlines()[-1] == "False False True", shown.stderr


@records.dataclass(frozen=True, slots=True)
class Slotted:
    """A frozen slots record at module level (pickle finds it), like sessions' `Segment`."""
    index: int
    hash: str = ""


def test_a_frozen_slots_record_copies_and_pickles() -> None:
    import copy

    value = Slotted(3, "h")
    assert copy.copy(value) == value and copy.deepcopy(value) == value
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(value, protocol=protocol)) == value


@pytest.mark.parametrize("name", ["self", "_values", "_FACTORY", "_default_0", "_factory_1", "object"])
def test_a_field_may_have_any_name_the_init_uses_internally(name: str) -> None:
    for decorator in (dataclasses.dataclass, records.dataclass):
        cls = _make(decorator, f"{name}: int\nother: list = field(default_factory=list)\n", {"frozen": True})
        made = cls(5)
        assert getattr(made, name) == 5 and made.other == []
        assert made == cls(5) and repr(made) == f"C({name}=5, other=[])"


def test_fields_of_a_slots_base_are_set_in_its_slots() -> None:
    for decorator in (dataclasses.dataclass, records.dataclass):
        base = _make(decorator, "a: int\n", {"frozen": True, "slots": True}, "Base")
        namespace: dict[str, Any] = {"dataclass": decorator, "Base": base}
        exec('@dataclass(frozen=True)\nclass Sub(Base):\n    """Sub."""\n    b: int = 2\n', namespace)
        made = namespace["Sub"](1)
        assert (made.a, made.b) == (1, 2)


def test_a_default_is_inherited_from_a_base_class_attribute() -> None:
    class Mixin:
        x = 7

    for decorator in (dataclasses.dataclass, records.dataclass):
        namespace: dict[str, Any] = {"dataclass": decorator, "Mixin": Mixin}
        exec('@dataclass(frozen=True)\nclass C(Mixin):\n    """C."""\n    x: int\n', namespace)
        assert namespace["C"]().x == 7


def test_the_stdlib_s_refusals_are_kept() -> None:
    mutable = _make(records.dataclass, "x: int = 0\n", {}, "Mutable")
    for decorator in (dataclasses.dataclass, records.dataclass):
        namespace: dict[str, Any] = {"dataclass": decorator, "field": records.field, "shared": mutable()}
        with pytest.raises(ValueError, match="mutable default"):
            exec('@dataclass(frozen=True)\nclass C:\n    """C."""\n    x: object = shared\n', namespace)
    frozen_base = _make(records.dataclass, "x: int\n", {"frozen": True}, "FrozenBase")
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        records.dataclass(type("Loose", (frozen_base,), {"__annotations__": {"y": "int"}, "y": 0}))


def test_a_class_s_own_match_args_and_hash_are_kept() -> None:
    for decorator in (dataclasses.dataclass, records.dataclass):
        cls = _make(decorator, "x: int\ny: int = 0\n__match_args__ = ('y',)\n"
                               "def __hash__(self):\n    return 42\n", {"frozen": True})
        assert cls.__match_args__ == ("y",) and hash(cls(1)) == 42



def test_the_signature_is_the_one_dataclasses_shows_and_an_own_init_wins() -> None:
    for head in HEADS.values():
        theirs, ours = _pair("x: int\ny: str = 'a'\nitems: list = field(default_factory=list)\n", {}, head=head)
        assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    for decorator in (dataclasses.dataclass, records.dataclass):
        base = _make(decorator, "x: int\n", {"frozen": True}, "Base")
        own = _module("class Own(Base):\n    def __init__(self, label):\n        super().__init__(len(label))\n",
                      Base=base).Own
        assert str(inspect.signature(own)) == "(label)"
        assert own("abc").x == 3  # the base's __init__ binds the base's fields, whatever the instance's class


def test_a_slot_the_class_declares_itself_is_a_field_without_a_default() -> None:
    for head in HEADS.values():
        theirs, ours = _pair("__slots__ = ('x', 'y')\nx: int\ny: int\n", {}, head=head)
        assert _outcome(ours) == _outcome(theirs)
        assert (ours(1, 2).x, ours(1, 2).y) == (theirs(1, 2).x, theirs(1, 2).y) == (1, 2)


def test_annotations_python_evaluates_only_when_asked_are_asked_for() -> None:
    """Records needs no `from __future__ import annotations`: it reads annotations as text or as
    objects (every test above runs both), and where Python keeps them out of the class's `__dict__`
    until asked (3.14 without the future import; a metaclass stands in for it here), it asks."""
    class Lazy(type):
        @property
        def __annotations__(cls) -> dict[str, Any]:  # type: ignore[override]
            return {"x": int, "y": str}

    made = records.dataclass(Lazy("Made", (), {"y": "a", "__module__": __name__}))
    assert "__annotations__" not in vars(made)
    assert [f.name for f in records.fields(made)] == ["x", "y"]
    assert repr(made(1)) == "Made(x=1, y='a')"
