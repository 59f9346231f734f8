"""examples/README.md's recipes work as written (issue 23): each `sh` block runs in bash, with a
`vora` on PATH, on a copy of `examples/` (so the checkout is never written), and does what its
comments say; the files it points at exist."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from completion_support import REPO, vora_on_path

README = REPO / "examples" / "README.md"


def blocks() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", README.read_text(), re.DOTALL)


def _run(block: str, root: Path) -> subprocess.CompletedProcess[str]:
    env = vora_on_path(root / "bin")
    env = {k: v for k, v in env.items() if not k.startswith("VORA_")}
    (root / "tmp").mkdir(exist_ok=True)
    env.update({"VORA_HOME": str(root / "home"), "HOME": str(root / "home"), "TMPDIR": str(root / "tmp"),
                "NO_COLOR": "1", "COLUMNS": "200"})
    return subprocess.run(["bash", "-euo", "pipefail", "-c", block], cwd=root, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    (tmp_path / "home").mkdir(exist_ok=True)
    return tmp_path


def test_the_readme_has_its_three_recipes() -> None:
    found = blocks()
    assert len(found) == 3
    assert "VORA_NOW_MS" in found[0] and "demo-request" in found[1] and "sessions show" in found[2]
    # the copy takes the plugin the example links, so the relative load path still resolves
    assert re.search(r"cp -r examples/vora examples/plugins ", found[1])


@pytest.mark.slow
def test_every_recipe_runs_as_written(root: Path) -> None:
    pinned, devices, sessions = (_run(block, root) for block in blocks())
    for run in (pinned, devices, sessions):
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
        assert "error:" not in run.stderr, run.stderr
    # pinned to the example's night, it reads as recent
    assert re.search(r"^agent:main:main +main +main +1h ago", pinned.stdout, re.M), pinned.stdout
    assert "created 1h ago, used 0s ago" in pinned.stdout
    # the copy: two requests staged and approved, the linked plugin still found by doctor
    (demo,) = (root / "tmp").iterdir()
    assert sorted(p.name for p in demo.iterdir()) == ["plugins", "vora"]
    assert "scope upgrade + metadata change" in devices.stdout and "Approved request" in devices.stdout
    assert "✓ slot-context-engine: contextEngine: my-engine (linked" in devices.stdout
    assert "✓ plugin-manifests: 1 plugin found" in devices.stdout
    assert "agent:main:telegram:group:-1001234567890" in sessions.stdout
    # nothing was written into the example itself
    assert not (root / "examples" / "vora" / "devices" / "pending.json").read_text().strip("{} \n")


def test_the_files_it_points_at_exist() -> None:
    text = README.read_text()
    for link in re.findall(r"\]\((\.\./[^)#]+|[^):#]+\.(?:py|md|json))\)", text):
        assert (README.parent / link).exists(), link
    for named in re.findall(r"`((?:tests|docs|examples)/[\w./-]+)`", text):
        assert (REPO / named).exists(), named
    assert "tests/support/sessions_support.py" in text


@pytest.mark.slow
def test_a_copy_of_the_state_dir_alone_loses_its_plugin(root: Path) -> None:
    """Why the recipe copies both folders: the link is relative to the config file's folder."""
    run = _run('alone=$(mktemp -d) && cp -r examples/vora "$alone"/ && vora --state-dir "$alone/vora" doctor', root)
    assert run.returncode == 1
    assert "✗ slot-context-engine: contextEngine: my-engine cannot be loaded: dangling link" in run.stdout
