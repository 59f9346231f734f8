"""Records: vora's data classes, as `dataclasses` makes them, for a fraction of the start-up cost.

`from vora_cli.core.records import dataclass, field, replace` in place of the same names from
`dataclasses`: `@dataclass` and `@dataclass(frozen=True)` make the same `__init__` signature, `__eq__`, `__hash__`, `__repr__`, frozen assignment, `__post_init__`,
`__match_args__`, defaults and `field(default_factory=...)`, `replace()` and `fields()`. Type
checkers treat it as a dataclass (`dataclass_transform`).

Why not `dataclasses` itself (issue 24, measured on `vora doctor`, which defines 61 classes and
uses 40 of them): importing `dataclasses` pulls in `inspect` (with `ast`, `dis`, `tokenize`) and
`copy`, about 20 ms on a command that would otherwise never load them, and each class costs
0.7-1.2 ms because `dataclasses` writes six methods as source and compiles each (`exec`). Here
`__eq__`, `__hash__`, `__repr__` and the frozen `__setattr__`/`__delattr__` are shared functions
reading the class's field list, and `__init__`, the one method that must have the class's own
signature, is compiled on the class's first instantiation: a class a command never instantiates
costs only its `class` statement.

Not supported, because vora does not use them: `init=False` or `kw_only` fields, `order`,
`unsafe_hash` (not parameters here), and `InitVar` / `KW_ONLY` annotations (refused).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from types import CodeType, FunctionType

TYPE_CHECKING = False
if not TYPE_CHECKING:
    # typing's two decorators only tell type checkers something; at run time the last
    # definition of an overloaded function wins anyway. Not importing typing saves every command
    # its import (with contextlib, 25 million instructions of `vora doctor`; issue 24).
    def overload(func):
        return func

    def dataclass_transform(**_kwargs):
        return lambda func: func
else:
    from typing import Any, TypeVar, dataclass_transform, overload

    _T = TypeVar("_T")
    _C = TypeVar("_C", bound=type)


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assigning to a field of a frozen record (what `dataclasses.FrozenInstanceError` is)."""


class Field:
    """One field of a record: its name, default or default factory, and whether it is shown by
    `repr`, compared by `==` and hashed."""

    __slots__ = ("compare", "default", "default_factory", "hash", "name", "repr")

    def __init__(self, default: Any, default_factory: Any, repr: bool, compare: bool,
                 hash: bool | None) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.hash = hash

    def __repr__(self) -> str:
        return (f"Field(name={self.name!r}, default={self.default!r}, "
                f"default_factory={self.default_factory!r}, repr={self.repr}, compare={self.compare}, "
                f"hash={self.hash})")


@overload
def field(*, default: _T, repr: bool = True, compare: bool = True, hash: bool | None = None) -> _T: ...


@overload
def field(*, default_factory: Callable[[], _T], repr: bool = True, compare: bool = True,
          hash: bool | None = None) -> _T: ...


@overload
def field(*, repr: bool = True, compare: bool = True, hash: bool | None = None) -> Any: ...


def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True,
          compare: bool = True, hash: bool | None = None) -> Any:
    """A field with options, as `dataclasses.field` (default, default_factory, repr, compare, hash)."""
    return Field(default, default_factory, repr, compare, hash)


def fields(record_or_class: Any) -> tuple[Field, ...]:
    """The record's fields, in order (as `dataclasses.fields`)."""
    try:
        found: tuple[Field, ...] = record_or_class.__record_fields__
    except AttributeError:
        raise TypeError("must be called with a record type or instance") from None
    return found


if TYPE_CHECKING:  # mypy checks `dataclasses.replace(...)` calls against the record's fields
    from dataclasses import replace as replace
else:
    def replace(obj, /, **changes):
        """A copy of the record `obj` with `changes` (as `dataclasses.replace`)."""
        for f in fields(obj):
            if f.name not in changes:
                changes[f.name] = getattr(obj, f.name)
        return obj.__class__(**changes)


@overload
def dataclass(cls: _C, /) -> _C: ...


@overload
def dataclass(*, frozen: bool = False, slots: bool = False) -> Callable[[_C], _C]: ...


@dataclass_transform(field_specifiers=(field, Field))
def dataclass(cls: Any = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    """Make `cls` a record: `@dataclass`, `@dataclass(frozen=True)`, `@dataclass(frozen=True, slots=True)`."""
    def wrap(cls: Any) -> Any:
        return _process(cls, frozen, slots)
    return wrap if cls is None else wrap(cls)


# -- building a record class -----------------------------------------------------------------------

_UNSUPPORTED = ("InitVar", "dataclasses.InitVar", "KW_ONLY", "dataclasses.KW_ONLY")


def _process(cls: Any, frozen: bool, slots: bool) -> Any:
    own = cls.__dict__
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        inherited = base.__dict__.get("__record_fields__")
        if inherited is None:
            continue
        if base.__dict__["__record_frozen__"] != frozen:
            raise TypeError("cannot inherit non-frozen dataclass from a frozen one" if base.__record_frozen__
                            else "cannot inherit frozen dataclass from a non-frozen one")
        for f in inherited:
            found[f.name] = f
    for name, annotation in own.get("__annotations__", {}).items():
        if _is_classvar(annotation):
            continue
        if isinstance(annotation, str) and annotation.startswith(_UNSUPPORTED):
            raise TypeError(f"{annotation} (field {name}) is not supported by vora's records")
        default = getattr(cls, name, MISSING)  # as dataclasses: a base's class attribute counts
        f = default if isinstance(default, Field) else Field(default, MISSING, True, True, None)
        f.name = name
        if f.default is not MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: "
                             "use default_factory")
        if isinstance(default, Field):
            if f.default is MISSING:
                if name in own:
                    delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        found[name] = f
    all_fields = tuple(found.values())
    seen_default = False
    for f in all_fields:
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
    if slots:
        cls = _with_slots(cls, all_fields, frozen)
    names = tuple(f.name for f in all_fields)
    cls.__record_fields__ = all_fields
    cls.__record_frozen__ = frozen
    cls.__record_names__ = frozenset(names)
    cls.__record_compare__ = _getter(tuple(f.name for f in all_fields if f.compare))
    cls.__record_shown__ = tuple(f.name for f in all_fields if f.repr)
    _set_new(cls, "__match_args__", names)
    _set_new(cls, "__init__", _first_init(cls))
    _set_new(cls, "__repr__", _repr)
    _set_new(cls, "__eq__", _eq)
    explicit_hash = "__hash__" in own and not (own["__hash__"] is None and "__eq__" in own)
    if not explicit_hash:
        if frozen:
            cls.__record_hashed__ = _getter(tuple(f.name for f in all_fields
                                                  if (f.compare if f.hash is None else f.hash)))
            cls.__hash__ = _hash
        else:
            cls.__hash__ = None  # mutable and compared by value: unhashable, as in dataclasses
    if frozen:
        for name, method in (("__setattr__", _frozen_setattr), ("__delattr__", _frozen_delattr)):
            if name in own:
                raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
            setattr(cls, name, method)
    return cls


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        return annotation.startswith(("ClassVar", "typing.ClassVar"))
    return getattr(annotation, "__origin__", None) is getattr(sys.modules.get("typing"), "ClassVar", ())


def _set_new(cls: Any, name: str, value: Any) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, value)


def _getter(names: tuple[str, ...]) -> staticmethod[[Any], tuple[Any, ...]]:
    """The values of `names` as a tuple (`==` and `hash` of a record are those of this tuple)."""
    if len(names) > 1:
        return staticmethod(attrgetter(*names))
    if names:
        single = attrgetter(names[0])
        return staticmethod(lambda obj: (single(obj),))
    return staticmethod(lambda obj: ())


def _with_slots(cls: Any, all_fields: tuple[Field, ...], frozen: bool) -> Any:
    """A new class with `__slots__` for the fields (a class's slots are fixed when it is made)."""
    body = dict(cls.__dict__)
    names = tuple(f.name for f in all_fields)
    for name in names:
        body.pop(name, None)
    body.pop("__dict__", None)
    body.pop("__weakref__", None)
    body["__slots__"] = names
    if frozen:  # copy and pickle set slots through __setattr__, which a frozen record refuses
        body.setdefault("__getstate__", _slots_getstate)
        body.setdefault("__setstate__", _slots_setstate)
    qualname = getattr(cls, "__qualname__", None)
    made = type(cls)(cls.__name__, cls.__bases__, body)
    if qualname is not None:
        made.__qualname__ = qualname
    return made


def _slots_getstate(self: Any) -> list[Any]:
    return [getattr(self, f.name) for f in self.__record_fields__]


def _slots_setstate(self: Any, state: list[Any]) -> None:
    for f, value in zip(self.__record_fields__, state, strict=True):
        object.__setattr__(self, f.name, value)


# -- the shared methods ----------------------------------------------------------------------------

def _eq(self: Any, other: Any) -> Any:
    if other.__class__ is self.__class__:
        key = self.__record_compare__
        return key(self) == key(other)
    return NotImplemented


def _hash(self: Any) -> int:
    return hash(self.__record_hashed__(self))


@recursive_repr()
def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__record_shown__)
    return f"{self.__class__.__qualname__}({shown})"


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    cls = type(self)
    if "__record_fields__" in cls.__dict__ or name in cls.__record_names__:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")
    object.__setattr__(self, name, value)


def _frozen_delattr(self: Any, name: str) -> None:
    cls = type(self)
    if "__record_fields__" in cls.__dict__ or name in cls.__record_names__:
        raise FrozenInstanceError(f"cannot delete field {name!r}")
    object.__delattr__(self, name)


# -- __init__, compiled on first use ---------------------------------------------------------------

def _first_init(cls: Any) -> Callable[..., None]:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init = _compile_init(cls)
        cls.__init__ = init
        init(self, *args, **kwargs)
    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


class _Factory:
    """Marks a parameter whose default comes from a factory (as dataclasses' sentinel does)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _compile_init(cls: Any) -> Callable[..., None]:
    """`cls.__init__` as `dataclasses` would write it: one parameter per field, in order. Its own
    names are `__record_*__`, so that no field name (`self`, `_values`) can meet them. Its code
    comes from `record_inits` (generated, bytecode cached like any module) when the class is as it
    was generated from; else it is compiled here (~0.1 ms a class)."""
    source, namespace, defaults = _init_parts(cls)
    code = _precompiled().get(source)
    if code is None:
        scope: dict[str, Any] = {}
        exec(compile(source, f"<record {cls.__qualname__}>", "exec", dont_inherit=True), scope)
        code = scope["__init__"].__code__
    init: Callable[..., None] = FunctionType(code, namespace, "__init__", defaults or None)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _init_source(cls: Any) -> str:
    """The source of `cls.__init__`'s code (its defaults apart), as `record_inits` keeps it."""
    return _init_parts(cls)[0]


def _precompiled() -> dict[str, CodeType]:
    """`record_inits.CODES`, when its bytecode is cached or can be: compiling the whole module
    (~35 ms) costs more than compiling the few classes a run makes (`PYTHONDONTWRITEBYTECODE` in a
    source checkout)."""
    codes = _PRECOMPILED.get("codes")
    if codes is None:
        codes = {}
        here = __file__.rpartition("/")[0]
        cached = f"{here}/__pycache__/record_inits.{sys.implementation.cache_tag}.pyc"
        if not sys.flags.dont_write_bytecode or os.path.exists(cached):
            try:
                from vora_cli.core.record_inits import CODES as codes
            except ImportError:  # a checkout without the generated module
                codes = {}
        _PRECOMPILED["codes"] = codes
    return codes



_PRECOMPILED: dict[str, dict[str, CodeType]] = {}


def _init_parts(cls: Any) -> tuple[str, dict[str, Any], tuple[Any, ...]]:
    """The source of `__init__` (parameters without their defaults: those are `defaults`, bound
    when the function is made) and the names its code reads."""
    all_fields: tuple[Field, ...] = cls.__record_fields__
    frozen = cls.__record_frozen__
    # A slot anywhere in the class's bases is read before the instance's dict: set fields through
    # __setattr__ then, as dataclasses does for a frozen class; else straight into the dict.
    slotted = any(base.__dict__.get("__slots__") for base in cls.__mro__)
    namespace: dict[str, Any] = {"__record_factory__": _FACTORY, "__record_setattr__": object.__setattr__}
    params = ["__record_self__"]
    defaults: list[Any] = []
    lines = []
    for i, f in enumerate(all_fields):
        params.append(f.name)
        if f.default_factory is not MISSING:
            namespace[f"__record_factory_{i}__"] = f.default_factory
            defaults.append(_FACTORY)
            lines.append(f"    if {f.name} is __record_factory__:\n        {f.name} = __record_factory_{i}__()")
        elif f.default is not MISSING:
            defaults.append(f.default)
        if frozen and slotted:
            lines.append(f"    __record_setattr__(__record_self__, {f.name!r}, {f.name})")
        elif frozen:  # straight into the instance's dict: what object.__setattr__ does, one call less
            lines.append(f"    __record_values__[{f.name!r}] = {f.name}")
        else:
            lines.append(f"    __record_self__.{f.name} = {f.name}")
    if frozen and not slotted and all_fields:
        lines.insert(0, "    __record_values__ = __record_self__.__dict__")
    if hasattr(cls, "__post_init__"):
        lines.append("    __record_self__.__post_init__()")
    if not lines:
        lines.append("    pass")
    return f"def __init__({', '.join(params)}):\n" + "\n".join(lines) + "\n", namespace, tuple(defaults)
