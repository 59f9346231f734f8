"""Property tests for the open-ended inputs of the plugins code: ids and archive entry names."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from plugins_support import add_tar_bytes, make_plugin

from vora_cli.core.errors import VoraError
from vora_cli.core.plugins.archive import extract_archive
from vora_cli.core.plugins.ids import folder_name_for_id, id_problem

REPO = Path(__file__).resolve().parents[3]
names = st.text(alphabet=st.sampled_from(list("ab./\\@-_ Z9\x00")), min_size=0, max_size=12)


@given(names)
def test_valid_ids_give_a_single_safe_folder_name(plugin_id: str) -> None:
    if id_problem(plugin_id) is None:
        folder = folder_name_for_id(plugin_id)
        assert "/" not in folder and "\\" not in folder and folder not in ("", ".", "..")


@given(st.text(alphabet="abc-", min_size=1, max_size=6), st.text(alphabet="abc-", min_size=1, max_size=6))
def test_scoped_folder_names_differ_when_ids_differ(a: str, b: str) -> None:
    if a != b:
        assert folder_name_for_id(f"@s/{a}") != folder_name_for_id(f"@s/{b}")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("ab./\\")), min_size=1, max_size=10), min_size=1, max_size=4))
def test_extraction_never_writes_outside_the_destination(tmp_path_factory, entry_names: list[str]) -> None:
    root = tmp_path_factory.mktemp("prop")
    archive = root / "a.tar"
    with tarfile.open(archive, "w") as tf:
        for name in entry_names:
            add_tar_bytes(tf, name)
    dest = root / "box" / "dest"
    dest.mkdir(parents=True)
    try:
        extract_archive(archive, dest)
    except VoraError:
        pass
    outside = {p for p in root.rglob("*") if dest not in p.parents and p != dest}
    assert outside == {archive, root / "box"}


def test_install_link_does_not_import_archive_or_npm_machinery(tmp_path: Path, home: Path) -> None:
    plugin = make_plugin(tmp_path / "my-engine")
    code = (
        "import sys\nfrom vora_cli.cli.app import app\n"
        f"app(['plugins', 'install', '-l', {str(plugin)!r}], prog_name='vora', standalone_mode=False)\n"
        "heavy = {'tarfile', 'zipfile', 'vora_cli.core.plugins.archive', 'vora_cli.core.plugins.npm'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
