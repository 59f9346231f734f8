"""Packaging: the metadata says what vora is, and the sdist carries everything its own tests need."""

from __future__ import annotations

import email.parser
import fcntl
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def test_metadata_license_urls_classifiers() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"  # SPDX expression, not the deprecated table form
    assert project["license-files"] == ["LICENSE"]
    assert (REPO / "LICENSE").read_text().startswith("MIT License")
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    classifiers = set(project["classifiers"])
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert {"Operating System :: POSIX :: Linux", "Operating System :: MacOS"} <= classifiers
    assert not any("Windows" in c or "OS Independent" in c for c in classifiers)
    assert project["keywords"] and project["authors"]
    runtime = " ".join(project["dependencies"])
    assert "platformdirs" in runtime and "tomli-w" in runtime


def test_the_version_lives_in_one_place() -> None:
    """`vora_cli.__version__` is the one version: pyproject.toml reads it, the installed metadata
    says the same, the changelog has its section and the man page names it."""
    import importlib.metadata

    from vora_cli import __version__

    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "version" not in pyproject["project"] and pyproject["project"]["dynamic"] == ["version"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "vora_cli.__version__"}
    assert importlib.metadata.version("vora-cli") == __version__  # this checkout's install
    assert re.search(rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d\d-\d\d$",
                     (REPO / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert f'"vora {__version__}"' in (REPO / "man" / "vora.1").read_text()
    assert not re.search(r"0\.1\.0", (REPO / "vora_cli" / "cli" / "app.py").read_text())


def test_the_man_page_is_installed_where_man_finds_it() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert pyproject["tool"]["setuptools"]["data-files"] == {"share/man/man1": ["man/vora.1"]}
    assert "graft man" in (REPO / "MANIFEST.in").read_text().splitlines()


def test_the_changelog_keeps_a_changelog() -> None:
    """Keep a Changelog 1.1.0: an Unreleased section on top, versions newest first, the known
    kinds of change only, and every renamed JSON field of this turn said (issue 23)."""
    text = (REPO / "CHANGELOG.md").read_text()
    assert text.startswith("# Changelog\n") and "https://keepachangelog.com/en/1.1.0/" in text
    versions = re.findall(r"^## \[([^\]]+)\]", text, re.MULTILINE)
    assert versions[0] == "Unreleased" and len(versions) == len(set(versions))
    kinds = set(re.findall(r"^### (.+)$", text, re.MULTILINE))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    for renamed in ("`before`/`after`", "`updatedAt`", "`pending[].ts`", "`problems[].gatewayPath`",
                    "`lines[].time`", "`compactions[].timestamp`", "`changes[].path`", "`findings[].path`"):
        assert renamed in text, renamed


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the sdist from this checkout (`python -m build --sdist`) and unpack it, once per run.

    setuptools stages the sdist in the checkout (vora_cli-0.1.0/, vora_cli.egg-info/), so one build
    at a time across xdist workers, locked in the session's shared base temp dir; the first worker
    builds it there and the others use that one (the tests only read it)."""
    # under xdist each worker's base temp dir sits in the session's own; serially, the parent of the
    # base temp dir holds every earlier session's too, so the build stays in this session's
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    out = shared / "sdist"
    with open(shared / "sdist-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "unpacked").exists():
            out.mkdir(exist_ok=True)
            subprocess.run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", str(out), str(REPO)],
                           check=True, capture_output=True, text=True, timeout=300)
            (archive,) = out.glob("vora_cli-*.tar.gz")
            with tarfile.open(archive) as tar:
                tar.extractall(out / "unpacking", filter="data")
            (out / "unpacking").rename(out / "unpacked")
    (root,) = (p for p in (out / "unpacked").iterdir() if p.is_dir())
    return root


@pytest.mark.slow
def test_the_wheel_carries_every_data_file_of_the_package(tmp_path: Path) -> None:
    """A non-editable install (pipx, uv tool, the benches) has only what the wheel carries: every file
    of `vora_cli` that is not Python (the gateway's recorded data) is in it, built as from a fresh
    clone (no egg-info of an earlier build, whose file list setuptools would reuse)."""
    source = tmp_path / "source"
    for name in ("pyproject.toml", "README.md", "LICENSE", "MANIFEST.in"):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "vora_cli", source / "vora_cli", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "man", source / "man")
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(tmp_path), str(source)],
                   check=True, capture_output=True, text=True, timeout=300)
    (wheel,) = tmp_path.glob("vora_cli-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        carried = {name for name in archive.namelist() if name.startswith("vora_cli/")}
    data = {p.relative_to(REPO).as_posix() for p in (REPO / "vora_cli").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts}
    assert data and not data - carried, sorted(data - carried)


@pytest.mark.slow  # its own call is instant; the sdist build it needs (the fixture) is not
def test_sdist_metadata(sdist: Path) -> None:
    from vora_cli import __version__

    info = email.parser.Parser().parsestr((sdist / "PKG-INFO").read_text())
    assert info["Version"] == __version__  # read from vora_cli/__init__.py, the one place
    assert (sdist / "man" / "vora.1").is_file() and (sdist / "CHANGELOG.md").is_file()
    assert info["License-Expression"] == "MIT"
    assert info.get_all("License-File") == ["LICENSE"]
    assert (sdist / "LICENSE").is_file()


def _pytest_in(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VORA_", "PYTEST_"))}
    # -n 0: one process collects and runs; the pyproject's -n auto would start a worker per core,
    # each collecting the whole suite again, to prove nothing more about what the sdist carries
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", *args],
                          cwd=root, env=env, capture_output=True, text=True, timeout=600, check=False)


@pytest.mark.slow
def test_sdist_collects_its_whole_suite(sdist: Path) -> None:
    # collecting imports every test module, conftest and support file from the sdist: a file it lacks
    # is an import error either way. Without assertion rewriting and hypothesis's plugin (which parses
    # every imported module for constants), the import is most of what is left of the work.
    result = _pytest_in(sdist, "-q", "--collect-only", "--assert=plain", "-p", "no:hypothesispytest")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "error" not in result.stdout.splitlines()[-1].lower()
    ours = len(list((REPO / "tests").rglob("test_*.py")))
    assert len(list((sdist / "tests").rglob("test_*.py"))) == ours


@pytest.mark.slow
def test_sdist_runs_tests_that_read_examples_docs_and_completions(sdist: Path) -> None:
    probe = subprocess.run([sys.executable, "-c", "import vora_cli; print(vora_cli.__file__)"], cwd=sdist,
                           env={**os.environ, "PYTHONPATH": str(sdist)}, capture_output=True, text=True, check=True)
    assert Path(probe.stdout.strip()).is_relative_to(sdist)  # the sdist's own code is under test
    result = _pytest_in(sdist, "-q", "-x", "tests/test_readme.py", "tests/cli/common/test_docgen.py",
                        "tests/test_packaging.py::test_metadata_license_urls_classifiers",
                        "tests/cli/context/test_context.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "error" not in result.stdout.splitlines()[-1].lower()


def test_readme_shows_the_user_install_apart_from_the_contributor_one() -> None:
    readme = (REPO / "README.md").read_text()
    users = readme.split("## Install (users)", 1)[1].split("\n## ", 1)[0]
    assert "pipx install ." in users and "uv tool install ." in users
    assert "pip install -e" not in users  # the editable install is the contributors' quick start
    assert readme.index("## Install (users)") < readme.index("## Quick start")


def test_ci_runs_the_suite_under_the_other_pythons() -> None:
    ci = (REPO / ".ci" / "run").read_text()
    assert "python3.$minor" in ci and "pyenv" in ci.lower()
    assert "no other Python >= 3.11 found; skipped" in ci


def test_every_library_the_package_imports_is_a_declared_dependency() -> None:
    """A merge once dropped a runtime dependency from pyproject.toml while the code still imported
    it: every top-level import of a module outside the standard library and the package itself
    must come from a distribution named in `dependencies`."""
    import ast
    import importlib.metadata

    declared = {re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0].lower().replace("_", "-")
                for spec in tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]}
    providers = importlib.metadata.packages_distributions()
    imported: dict[str, str] = {}
    for source in sorted((REPO / "vora_cli").rglob("*.py")):
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            for name in names:
                top = name.split(".")[0]
                # a leading underscore: the interpreter's own modules (`_sha2` is 3.12's, absent from 3.11's list)
                if top not in sys.stdlib_module_names and not top.startswith("_") and top != "vora_cli":
                    imported.setdefault(top, str(source.relative_to(REPO)))
    undeclared = {top: where for top, where in imported.items()
                  if not {d.lower().replace("_", "-") for d in providers.get(top, [top])} & declared}
    # imported under `if TYPE_CHECKING:` only (never at run time): the type checker's own stubs
    undeclared.pop("typing_extensions", None)
    assert not undeclared, f"imported but not in pyproject's dependencies: {undeclared}"
