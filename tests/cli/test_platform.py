"""vora is POSIX-only (docs/dependencies.md, "Platforms"): elsewhere it says so in one sentence."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from vora_cli.core.errors import VoraError
from vora_cli.core.writer import POSIX_ONLY, write_file

REPO = Path(__file__).resolve().parents[2]


def test_writes_without_fcntl_fail_with_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fcntl", None)  # `import fcntl` raises ImportError, as on Windows
    root = tmp_path / "w"
    root.mkdir()
    for target in (root / "new.json", root / "sub" / "other.toml"):
        with pytest.raises(VoraError) as caught:
            write_file(target, b"{}", expected=None, lock_timeout=10)
        assert caught.value.code == "refused" and caught.value.message == POSIX_ONLY
        assert "WSL" in (caught.value.hint or "")
        assert not target.exists()
    assert list(root.iterdir()) == []  # not even a lock file


@pytest.mark.parametrize("args", [["config", "file"], ["--help"], ["doctor", "--json"]])
def test_vora_on_windows_says_posix_only(args: list[str]) -> None:
    # The stdlib modules vora's message needs are imported first: faking win32 before that would
    # make the stdlib itself reach for Windows-only modules (shutil -> _winapi on 3.12+).
    code = "import sys, tempfile, hashlib; from vora_cli.__main__ import main; " \
           "sys.platform = 'win32'; sys.argv = ['vora', *sys.argv[1:]]; main()"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                            timeout=60, check=False)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines()[0] == f"error: {POSIX_ONLY}"
    assert "Traceback" not in result.stderr
