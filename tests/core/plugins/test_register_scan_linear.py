"""`registerContextEngine(...)` is found in a plugin's entry file in linear time (issue 12, point 8)."""

from __future__ import annotations

from vora_cli.core.plugins.slots import registered_engine_ids


def test_ids_are_found() -> None:
    text = 'api.registerContextEngine("a", f); api.registerContextEngine( `b` , g); registerContextEngine(\'c\')'
    assert registered_engine_ids(text) == ("a", "b", "c")


def test_hostile_entry_files_finish() -> None:
    blob = "x" * (2 * 1024 * 1024)
    assert registered_engine_ids('registerContextEngine("' + blob + "'") == ()
    assert registered_engine_ids(('registerContextEngine("' + "y" * 50 + "'") * 40_000) == ()
    assert registered_engine_ids("registerContextEngine(" + " " * 2_000_000) == ()
