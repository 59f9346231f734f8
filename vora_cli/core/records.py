"""Records: vora's data classes, made as `dataclasses` makes them, without its cost at start-up; what it
refuses, it refuses by name (docs/architecture.md, "Data classes").

Why one module: a record class and the methods it shares read the same private attributes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import attrgetter
from reprlib import recursive_repr
from types import MemberDescriptorType

TYPE_CHECKING = False
if not TYPE_CHECKING:
    # typing's two decorators only tell type checkers something; at run time the last
    # definition of an overloaded function wins anyway, and the everyday commands never import
    # typing (docs/architecture.md, "`typing` at start-up").
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

    __slots__ = ("compare", "default", "default_factory", "hash", "name", "repr", "unsupported")

    def __init__(self, default: Any, default_factory: Any, repr: bool, compare: bool,
                 hash: bool | None, unsupported: tuple[str, ...] = ()) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare
        self.hash = hash
        self.unsupported = unsupported

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
          compare: bool = True, hash: bool | None = None, **unsupported: Any) -> Any:
    """A field with options, as `dataclasses.field` (default, default_factory, repr, compare, hash).
    Its other options (`init`, `kw_only`, `metadata`) are refused when the class is made, where the
    error can name the field."""
    return Field(default, default_factory, repr, compare, hash, tuple(unsupported))


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
def dataclass(cls: Any = None, /, *, frozen: bool = False, slots: bool = False, **unsupported: Any) -> Any:
    """Make `cls` a record: `@dataclass`, `@dataclass(frozen=True)`, `@dataclass(frozen=True, slots=True)`."""
    def wrap(cls: Any) -> Any:
        if unsupported:
            options = ", ".join(f"{name}=" for name in unsupported)
            raise TypeError(f"{cls.__qualname__}: @dataclass({options}) is not supported by vora's records")
        return _process(cls, frozen, slots)
    return wrap if cls is None else wrap(cls)


# -- building a record class -----------------------------------------------------------------------

def _process(cls: Any, frozen: bool, slots: bool) -> Any:
    own = cls.__dict__
    # As text (`from __future__ import annotations`) or as objects; where Python evaluates them only
    # when asked (3.14 without the future import), asking evaluates them.
    annotations = own.get("__annotations__")
    if annotations is None:
        annotations = cls.__annotations__
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
    typing, std = sys.modules.get("typing"), sys.modules.get("dataclasses")
    for name, annotation in annotations.items():
        kind = _annotation_kind(cls, name, annotation, typing, std)
        default = getattr(cls, name, MISSING)  # as dataclasses: a base's class attribute counts
        if kind == "ClassVar":
            if isinstance(default, Field):
                if default.default_factory is not MISSING:
                    raise TypeError(f"field {name} cannot have a default factory")
                if default.default is MISSING:
                    delattr(cls, name)
                else:
                    setattr(cls, name, default.default)
            continue
        if kind:
            raise TypeError(f"{cls.__qualname__}.{name}: {kind} ({annotation!r}) is not supported by "
                            "vora's records")
        if isinstance(default, MemberDescriptorType):  # a slot the class declares itself: no default
            default = MISSING
        f = default if isinstance(default, Field) else Field(default, MISSING, True, True, None)
        if f.unsupported:
            options = ", ".join(f"{option}=" for option in f.unsupported)
            raise TypeError(f"{cls.__qualname__}.{name}: field({options}) is not supported by vora's records")
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
    if "__init__" not in cls.__dict__:
        cls.__init__ = _make_init(cls, all_fields, frozen)
        cls.__signature__ = _SIGNATURE
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


# The names whose objects `dataclasses` treats apart: a ClassVar is not a field; the others records
# does not offer.
_SPECIAL = ("ClassVar", "InitVar", "KW_ONLY")
# The leading `module.name` of an annotation written as text, as `dataclasses` reads it
_LEADING_NAME = r"^(?:\s*(\w+)\s*\.)?\s*(\w+)"


def _annotation_kind(cls: Any, field_name: str, annotation: Any, typing: Any, std: Any) -> str:
    """"ClassVar", "InitVar" or "KW_ONLY" when `dataclasses` would take `annotation` (an object or
    text) for one, else "" (a field). Text is resolved as `dataclasses` does: its leading name
    looked up in the class's module (`ClassVarianceReport` is a field). Text that names one but
    does not resolve to it (imported only `if TYPE_CHECKING:`) is refused: records does not guess."""
    if isinstance(annotation, str):
        if typing is None and std is None and not (
                "ClassVar" in annotation or "InitVar" in annotation or "KW_ONLY" in annotation):
            return ""  # nothing resolves to them before typing or dataclasses is imported
        import re

        match = re.match(_LEADING_NAME, annotation)
        if match is None:
            return ""
        module_name, name = match.groups()
        namespace = getattr(sys.modules.get(cls.__module__), "__dict__", {})
        if module_name is not None:
            module = namespace.get(module_name)
            namespace = module.__dict__ if module is not None and module in (typing, std) else {}
        kind = _special_kind(namespace.get(name), typing, std)
        if not kind and name in _SPECIAL and module_name in (None, "typing", "dataclasses"):
            raise TypeError(f"{cls.__qualname__}.{field_name}: the annotation {annotation!r} names {name}, "
                            f"which {cls.__module__} does not import at run time (only for type checkers?): "
                            "records cannot tell whether it is a field")
        return kind
    return _special_kind(annotation, typing, std)


def _special_kind(value: Any, typing: Any, std: Any) -> str:
    if typing is not None and (value is typing.ClassVar or (type(value) is typing._GenericAlias
                                                            and value.__origin__ is typing.ClassVar)):
        return "ClassVar"
    if std is not None:
        if value is std.InitVar or type(value) is std.InitVar:
            return "InitVar"
        if value is std.KW_ONLY or type(value) is std.KW_ONLY:
            return "KW_ONLY"
    return ""


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


# -- __init__ ---------------------------------------------------------------------------------------

def _make_init(cls: Any, all_fields: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
    """`cls.__init__`: takes the fields' values as `dataclasses`' `__init__(self, <field>, ...)` would
    and sets them (a call with every value in order, positionally, needs no binding)."""
    names = tuple(f.name for f in all_fields)
    count = len(names)
    # A slot anywhere in the class's bases is read before the instance's dict: set fields through
    # __setattr__ then, as dataclasses does for a frozen class; else straight into the dict.
    into_dict = frozen and count > 0 and not any(base.__dict__.get("__slots__") for base in cls.__mro__)
    assign = object.__setattr__ if frozen else setattr
    post_init = hasattr(cls, "__post_init__")

    def __init__(self: Any, /, *args: Any, **kwargs: Any) -> None:
        values = _bind(cls, all_fields, args, kwargs) if kwargs or len(args) != count else args
        if into_dict:
            self.__dict__.update(zip(names, values, strict=True))
        else:
            for name, value in zip(names, values, strict=True):
                assign(self, name, value)
        if post_init:
            self.__post_init__()

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _bind(cls: Any, all_fields: tuple[Field, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[Any]:
    """The fields' values for `cls(*args, **kwargs)`, in order, defaults and factories filled in."""
    values = list(args)
    if len(values) > len(all_fields):
        raise _wrong_call(cls, all_fields, args, kwargs)
    used = 0
    factories = False
    for f in all_fields[len(values):]:
        value = kwargs.get(f.name, _UNSET)
        if value is _UNSET:
            value = f.default
            if value is MISSING:
                if f.default_factory is MISSING:
                    raise _wrong_call(cls, all_fields, args, kwargs)
                factories = True
        else:
            used += 1
        values.append(value)
    if used != len(kwargs):
        raise _wrong_call(cls, all_fields, args, kwargs)
    if factories:  # called once the call is known good, in field order, as dataclasses' __init__ does
        for i, f in enumerate(all_fields):
            if values[i] is MISSING:
                values[i] = f.default_factory()
    return values


_UNSET: Any = _Missing()


def _wrong_call(cls: Any, all_fields: tuple[Field, ...], args: tuple[Any, ...], kwargs: dict[str, Any]) -> TypeError:
    """The TypeError Python raises for `cls(*args, **kwargs)` against `__init__(self, <field>, ...)`,
    found in Python's order: the keywords, then the count of positional values, then what is missing."""
    function = f"{cls.__qualname__}.__init__()"
    names = [f.name for f in all_fields]
    bound = set(names[:len(args)])
    for name in kwargs:
        if name in bound or name == ("__dataclass_self__" if "self" in names else "self"):
            return TypeError(f"{function} got multiple values for argument '{name}'")
        if name not in names:
            return TypeError(f"{function} got an unexpected keyword argument '{name}'")
    if len(args) > len(names):
        optional = sum(1 for f in all_fields if f.default is not MISSING or f.default_factory is not MISSING)
        takes = (f"from {len(names) + 1 - optional} to {len(names) + 1} positional arguments" if optional
                 else f"{len(names) + 1} positional argument{'s' if names else ''}")
        return TypeError(f"{function} takes {takes} but {len(args) + 1} were given")
    missing = [repr(f.name) for f in all_fields[len(args):]
               if f.name not in kwargs and f.default is MISSING and f.default_factory is MISSING]
    listed = missing[0] if len(missing) == 1 else (
        f"{missing[0]} and {missing[1]}" if len(missing) == 2 else f"{', '.join(missing[:-1])}, and {missing[-1]}")
    return TypeError(f"{function} missing {len(missing)} required positional argument"
                     f"{'s' if len(missing) > 1 else ''}: {listed}")


class _Factory:
    """A parameter whose default comes from a factory, as `inspect.signature` shows it for dataclasses."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<factory>"


class _Signature:
    """`inspect.signature(RecordClass)`: the parameters of its `__init__`, as for a dataclass. Built
    when asked (only `inspect` asks), since `inspect` is not imported on the everyday commands."""

    def __get__(self, instance: Any, owner: Any) -> Any:
        maker = next(klass for klass in owner.__mro__ if "__init__" in klass.__dict__)
        if maker.__dict__.get("__signature__") is not self:  # an `__init__` of its own: inspect reads that
            raise AttributeError("__signature__")
        all_fields = maker.__record_fields__
        import inspect

        annotations: dict[str, Any] = {}
        for klass in owner.__mro__[::-1]:
            annotations.update(inspect.get_annotations(klass))
        parameters = [inspect.Parameter(
            f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
            default=_Factory() if f.default_factory is not MISSING else (
                inspect.Parameter.empty if f.default is MISSING else f.default),
            annotation=annotations.get(f.name, inspect.Parameter.empty)) for f in all_fields]
        return inspect.Signature(parameters, return_annotation=None)


_SIGNATURE = _Signature()
