"""The generated `vora_cli/core/record_inits.py` (scripts/gen_record_inits.py): current, and the
same code `core/records.py` would compile for each class, so taking it changes nothing but the
start-up time (4.7 ms of `vora doctor` went to compiling 40 `__init__`s)."""

from __future__ import annotations

import importlib.util
import inspect
import sys
from pathlib import Path
from typing import Any

import pytest

from vora_cli.core import records
from vora_cli.core.record_inits import CODES

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "gen_record_inits.py"


def _generator() -> Any:
    spec = importlib.util.spec_from_file_location("gen_record_inits", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_record_inits"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow  # imports every vora module
def test_the_generated_module_is_current_and_holds_every_record_class() -> None:
    generator = _generator()
    assert generator.OUT.read_text(encoding="utf-8") == generator.render(), \
        "run: python scripts/gen_record_inits.py"
    classes = generator.record_classes()
    assert len(classes) > 100
    assert all(records._init_source(cls) in CODES for cls in classes)


def _compiled(source: str) -> Any:
    scope: dict[str, Any] = {}
    exec(compile(source, "<record>", "exec", dont_inherit=True), scope)
    return scope["__init__"].__code__


def test_each_kept_code_is_the_code_a_compile_of_its_source_makes() -> None:
    for source, code in CODES.items():
        fresh = _compiled(source)
        for attribute in ("co_code", "co_varnames", "co_names", "co_consts", "co_argcount", "co_flags"):
            assert getattr(code, attribute) == getattr(fresh, attribute), (attribute, source)


def test_a_vora_class_gets_the_kept_code_with_its_own_defaults_and_names(monkeypatch: pytest.MonkeyPatch) -> None:
    from vora_cli.core.doctor.model import CheckResult

    # As a run with the module's bytecode cached takes it (a source checkout under
    # PYTHONDONTWRITEBYTECODE compiles instead; this test runs the other path either way).
    monkeypatch.setitem(records._PRECOMPILED, "codes", CODES)
    init = records._compile_init(CheckResult)
    assert init.__code__ is CODES[records._init_source(CheckResult)]
    assert init.__qualname__ == "CheckResult.__init__"
    plain = _compiled(records._init_source(CheckResult))
    assert init.__code__.co_varnames == plain.co_varnames
    made = CheckResult("config-file", "pass", "fine")
    assert (made.id, made.status, made.message, made.details) == ("config-file", "pass", "fine", ())
    assert [p.name for p in inspect.signature(CheckResult).parameters.values()][:3] == ["id", "status", "message"]
    with pytest.raises(TypeError, match=r"CheckResult.__init__\(\) missing 1 required positional argument: 'message'"):
        CheckResult("config-file", "pass")


def test_a_class_the_module_does_not_know_is_compiled() -> None:
    @records.dataclass(frozen=True)
    class Unknown:
        only_in_this_test_1: int
        only_in_this_test_2: str = "x"

    assert records._init_source(Unknown) not in CODES
    assert Unknown(1).only_in_this_test_2 == "x"
    assert Unknown.__init__.__code__.co_filename == "<record test_a_class_the_module_does_not_know_is_compiled.<locals>.Unknown>"
