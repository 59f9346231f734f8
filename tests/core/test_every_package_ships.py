"""Every folder of Python code in `vora_cli/` is a package the build finds, so the wheel ships it.

The build lists packages with setuptools' `find_packages` and pyproject's `include`: a folder
without `__init__.py` is a namespace package that imports fine from a checkout (and from the
sdist) but is silently left out of the wheel, so the installed `vora sessions` would fail.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parents[2]


def _built_packages() -> set[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    find = config["tool"]["setuptools"]["packages"]["find"]
    return set(find_packages(where=str(REPO), include=find["include"]))


def _code_folders() -> set[str]:
    root = REPO / "vora_cli"
    folders = {p.parent for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    return {".".join(f.relative_to(REPO).parts) for f in folders}


def test_every_code_folder_is_a_built_package() -> None:
    missing = sorted(_code_folders() - _built_packages())
    assert missing == []


def test_the_packages_of_each_concept_are_built() -> None:
    built = _built_packages()
    for concept in ("backup", "config", "context", "devices", "doctor", "gateway", "json5", "plugins", "security", "sessions", "settings"):
        assert f"vora_cli.core.{concept}" in built
    for group in ("vora_cli.cli.commands", "vora_cli.cli.docgen", "vora_cli.cli.commands.plugins",
                  "vora_cli.cli.commands.backup"):
        assert group in built
