"""The bench's scale data, at a small size, prints byte for byte what vora printed before the
streaming reader, the streamed rows and segments and the layout scan (issue 24: "output must stay
identical"). The expected outputs in tests/data/sessions_scale/ were printed by vora at commit
915e8f5 (the base of that work), then regenerated once on purpose for issue 23's JSON convention
and id-first tables: the new files equal the old ones with `updatedAt` as ISO text beside
`updatedAtMs`, `compactions[].timestamp` as `compactedAt` (null, and `-` in text, for the
unreadable "t"), checkpoints' `createdAt`/`createdAtMs`, and the list's KEY column first, and
in nothing else; and once more for issue 38's one voice (the transcript's size in KiB, 1,024-based,
where it was KB; `21 sessions`, where it was `21 session(s)`). Regenerate them with another checkout only on purpose:

    python tests/cli/sessions/test_scale.py /path/to/checkout
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "tests" / "data" / "sessions_scale"
sys.path.insert(0, str(REPO / "bench"))

import scale  # noqa: E402

NOW = str(scale.NOW)
CASES = {
    "list.txt": ["sessions", "list"],
    "list.json": ["sessions", "list", "--json"],
    "list-active.json": ["sessions", "list", "--active", "90", "--json"],
    "show.txt": ["sessions", "show", "agent:main:big"],
    "show.json": ["sessions", "show", "agent:main:big", "--json"],
    "show-no-preview.json": ["sessions", "show", "big", "--no-preview", "--json"],
    "context-list.txt": ["context", "list", "--session", "agent:main:telegram:direct:u77"],
    "context-json-by-id.txt": ["context", "json", "--session", "main-s000042"],
    "context-detail-request-key.txt": ["context", "detail", "--session", "telegram:group:-10010"],
}


def build(root: Path) -> Path:
    """120 sessions, and a 600 KB transcript shaped like the 200 MB one (3 compactions, a
    branch, big tool results, secrets to redact)."""
    state = scale.state_with_agents(root / "state", ["main"])
    scale.session_store(state, 120)
    scale.big_transcript(state, 600_000, compaction_every=100, huge_every=45, huge_bytes=3000, branch_at=300,
                         kept=20)
    return state


def normalized(text: str, state: Path) -> str:
    return text.replace(str(state), "<STATE>")


@pytest.mark.parametrize("name", sorted(CASES))
def test_scale_data_prints_what_it_printed_before(name: str, tmp_path: Path, vora: Callable[..., object]) -> None:
    state = build(tmp_path)
    result = vora("--state-dir", str(state), *CASES[name], env={"VORA_NOW_MS": NOW})
    assert result.exit_code == 0, result.stderr  # type: ignore[attr-defined]
    expected = (DATA / name).read_text(encoding="utf-8")
    assert normalized(result.stdout, state) == expected  # type: ignore[attr-defined]


def _generate(checkout: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        state = build(Path(tmp))
        env = {k: v for k, v in os.environ.items() if not k.startswith("VORA_")}
        env.update(PYTHONPATH=str(checkout), HOME=tmp, VORA_HOME=tmp, NO_COLOR="1", COLUMNS="120", VORA_NOW_MS=NOW)
        DATA.mkdir(parents=True, exist_ok=True)
        for name, args in CASES.items():
            done = subprocess.run([sys.executable, "-m", "vora_cli", "--state-dir", str(state), *args], env=env,
                                  capture_output=True, text=True, check=True)
            (DATA / name).write_text(normalized(done.stdout, state), encoding="utf-8")



@pytest.mark.parametrize("name", ["show.txt", "show.json"])
def test_segments_spooled_to_a_temporary_file_print_the_same(name: str, tmp_path: Path, vora: Callable[..., object],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the spool's memory the held-back segments go to an anonymous temporary file."""
    from vora_cli.cli.streaming import Spool

    monkeypatch.setattr(Spool, "MEMORY_BYTES", 1000)
    state = build(tmp_path)
    result = vora("--state-dir", str(state), *CASES[name], env={"VORA_NOW_MS": NOW})
    assert normalized(result.stdout, state) == (DATA / name).read_text(encoding="utf-8")  # type: ignore[attr-defined]
    assert list((tmp_path / "tmp").iterdir()) == []  # the temporary file had no name and is gone


if __name__ == "__main__":
    _generate(Path(sys.argv[1]).resolve())
