"""Every command is linear in the size of the config (issue 35, point 3): `config validate` with
thousands of `plugins.entries` problems, `doctor`, `security audit` and backup planning on
thousands of `agents.list` entries, plugin entries and bindings. Counted, never timed: each runs on a
real-shaped config of n and of 4n members (tests/support/config_support.real_shaped_config), and the
calls it makes (tests/support/work_count.py) may grow four-fold, not sixteen-fold. Before the fix,
`config validate` found each problem's line by reading the file again from the top, and backup
planning tested each path against a list of them all. The speed at the 2 MiB limit is
bench/scale_bench.py's (docs/performance.md).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from config_support import real_shaped_config
from work_count import counting_calls

from vora_cli.core.json5.parser import LineIndex, Parser

COMMANDS = [
    ("config", "validate"),
    ("doctor", "--json"),
    ("security", "audit", "--json"),
    ("backup", "create", "--dry-run", "--no-workspace", "--json"),
    ("config", "get", "plugins.entries", "--json"),
]
SMALL = 150


def _state(root: Path, n: int) -> Path:
    state = root / f"state-{n}"
    state.mkdir(mode=0o700)
    # secrets in every provider too: doctor and the audit hide each known one in every text they show
    (state / "vora.json").write_text(real_shaped_config(agents=n, entries=n, bindings=n * 2 // 3, providers=n))
    os.chmod(state / "vora.json", 0o600)
    return state


@pytest.mark.slow  # five commands at three sizes under a profile hook
@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_work_grows_with_the_config_not_with_its_square(vora, tmp_path: Path, args: tuple[str, ...]) -> None:
    counts = {}
    states = {n: _state(tmp_path, n) for n in (SMALL, 4 * SMALL)}
    warm = vora("--state-dir", str(states[SMALL]), *args)  # pays for the imports, uncounted
    assert warm.exit_code == 0, warm.stdout[-400:] + warm.stderr
    for n in (SMALL, 4 * SMALL):
        with counting_calls() as count:
            run = vora("--state-dir", str(states[n]), *args)
        assert run.exit_code == 0, run.stdout[-400:] + run.stderr
        counts[n] = count[0]
    assert counts[4 * SMALL] < 4.5 * counts[SMALL], counts


def test_lines_of_many_positions_cost_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "".join(f'  "p{i:05d}": {{ enabled: true }},\n' for i in range(4000))
    counted: list[int] = []
    real_count = str.count

    class Text(str):
        def count(self, sub: str, *args: int) -> int:  # type: ignore[override]
            counted.append((args[1] if len(args) > 1 else len(self)) - (args[0] if args else 0))
            return real_count(self, sub, *args)

    index = LineIndex(Text(text))
    for line in range(4000, 0, -1):  # from the end: each count would read the text up to it
        assert index.line_col(text.index(f'"p{line - 1:05d}"')) == (line, 3)
    assert sum(counted) <= 2 * len(text)


def test_looking_up_every_member_reads_each_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "{ " + ", ".join(f'"k{i}": {{ a: {i} }}' for i in range(3000)) + " }"
    parser = Parser(text, "t")
    parser.parse()
    root = parser.root().node
    assert root is not None
    scanned = [0]
    real_scan = Parser.scan

    def counting_scan(self: Parser, node: object) -> object:
        for member in real_scan(self, node):  # type: ignore[arg-type]
            scanned[0] += 1
            yield member

    monkeypatch.setattr(Parser, "scan", counting_scan)
    for i in range(3000):
        member = root.first(f"k{i}")
        assert member is not None and text[member.kstart:member.kend] == f'"k{i}"'
    assert root.first("missing") is None
    assert root.index_of("k2999") == 2999
    assert scanned[0] == 3000
