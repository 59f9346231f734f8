"""The bench harness runs on a tiny case, and every budget a bench names is in the one table.

No timing is asserted: the figures belong to the benches, not to the tests."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import harness  # noqa: E402


def test_every_budget_a_bench_names_is_in_the_table_once() -> None:
    text = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9-]+)` \|", text, re.MULTILINE)
    assert len(rows) == len(set(rows)), "a budget is stated twice"
    table = harness.budgets()
    assert set(table) == set(rows)
    named = set()
    scripts = [*sorted((REPO / "bench").glob("*_bench.py")), REPO / "bench" / "startup.py"]
    assert len(scripts) == 15
    for script in scripts:
        named |= set(re.findall(r'budget="([a-z0-9-]+)"', script.read_text(encoding="utf-8")))
    assert named <= set(table), named - set(table)
    assert set(table) <= named, f"budgets no bench measures: {set(table) - named}"
    for budget in table.values():  # a relative or slope budget names a case of a bench
        for reference in (budget.relative, budget.slope):
            if reference is not None:
                assert reference[1] in table


def test_budget_rows_parse_into_their_limits() -> None:
    table = harness.budgets()
    assert table["sessions-list-100k"] == harness.Budget("sessions-list-100k", None, 5.0, 300.0)
    assert table["config-set-1mb"].floor == 2.0
    assert table["devices-1k"].floor == 2.0 and table["gateway-status"].floor == 3.0
    assert table["devices-1k"].relative is None
    assert table["config-get-2mb"].text() == ""
    assert table["doctor"].verdict(90.0, 100.0, 61.0) == "MISSED (> 60 MiB)"
    assert table["doctor"].verdict(90.0, 100.0, 20.0) == "met"
    slope = table["config-validate-2mb"]
    assert slope.slope == (1.05, "config-get-2mb") and slope.relative is None and slope.floor is None
    assert slope.text() == "<= 1.05x the slope of config-get-2mb"
    assert slope.verdict(500.0, 100.0, 20.0, slope_ratio=1.04) == "met"
    assert slope.verdict(500.0, 100.0, 20.0, slope_ratio=1.06) == "MISSED (> 1.05x the slope of config-get-2mb)"
    assert slope.verdict(500.0, 100.0, 20.0) == "MISSED (the slope of config-get-2mb not measured)"


def _sample(wall_ms: float) -> harness.Sample:
    return harness.Sample(wall_ms, wall_ms, 10.0, 0, "d")


def test_a_slope_is_judged_on_instruction_counts_when_all_four_were_counted(tmp_path: Path) -> None:
    here = harness.Checkout("this", REPO, Path(sys.prefix), "test-env")
    with harness.Bench("slopes", runs=1, sides=[here], venvs=tmp_path / "venvs") as bench:
        get_small = bench.case("get small", ["--version"], counted=True)
        get_big = bench.case("get big", ["--version"], budget="config-get-2mb", smaller=get_small, counted=True)
        check_small = bench.case("check small", ["--version"], counted=True)
        check_big = bench.case("check big", ["--version"], budget="config-validate-2mb", smaller=check_small,
                               counted=True)
        for case, wall, count in ((get_small, 100.0, 1_000_000_000), (get_big, 200.0, 2_000_000_000),
                                  (check_small, 110.0, 1_050_000_000), (check_big, 250.0, 2_080_000_000)):
            case.samples["this"] = [_sample(wall)]
            case.counts["this"] = count
        assert bench._slope(check_big, "this") == (
            1.03, "1.030x, +1,030.0M vs +1,000.0M instructions from the smaller input; ", True)
        # one count missing: the wall medians' ratio is shown, and not judged (it is noise here)
        del check_small.counts["this"]
        assert bench._slope(check_big, "this") == (1.4, "1.400x, +140.0 vs +100.0 ms, wall medians from the "
                                                         "smaller input; ", False)
        # cases nobody asked to count: a slope of times, judged as such
        for case in (get_small, get_big, check_small, check_big):
            case.counted = False
            case.counts.clear()
        assert bench._slope(check_big, "this")[::2] == (1.4, True)
        get_small.samples.clear()  # the reference's growth unknown: "not measured", a miss
        assert bench._slope(check_big, "this") == (None, "", True)


def test_a_budget_relative_to_another_case_parses(tmp_path: Path) -> None:
    doc = tmp_path / "performance.md"
    doc.write_text("| id | what | wall | memory | bench |\n| --- | --- | --- | --- | --- |\n"
                   "| `lister` | a list | ≤ 2× `config-file` | | x |\n| `config-file` | file | ≤ 1.0× floor | | x |\n")
    table = harness.budgets(doc)
    assert table["lister"].relative == (2.0, "config-file") and table["lister"].floor is None
    assert table["lister"].text() == "<= 2x config-file"


def test_bench_only_keeps_what_the_chosen_budgets_compare_with(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """`BENCH_ONLY="2 MB"` must not leave the slope row to say "not measured": its smaller input,
    its reference and the reference's smaller input are measured too; a relative budget's
    reference likewise; what no chosen budget needs stays out, and the bench's order is kept."""
    monkeypatch.setenv("BENCH_ONLY", "2 MB|devices")
    here = harness.Checkout("this", REPO, Path(sys.prefix), "test-env")
    with harness.Bench("only", runs=1, sides=[here], venvs=tmp_path / "venvs") as bench:
        unrelated = bench.case("config get (example)", ["--version"])
        get_small = bench.case("get 1 MB", ["--version"])
        check_small = bench.case("check 1 MB", ["--version"])
        bench.case("get 2 MB", ["--version"], budget="config-get-2mb", smaller=get_small)
        bench.case("check 2 MB", ["--version"], budget="config-validate-2mb", smaller=check_small)
        bench.table["lister"] = harness.Budget("lister", None, None, None, (2.0, "config-file"))
        bench.case("devices list", ["--version"], budget="lister")
        bench.case("config file", ["--version"], budget="config-file")  # the lister's reference
        assert [c.label for c in bench.cases] == ["get 2 MB", "check 2 MB", "devices list"]
        bench._with_what_budgets_need()
        assert [c.label for c in bench.cases] == ["get 1 MB", "check 1 MB", "get 2 MB", "check 2 MB",
                                                  "devices list", "config file"]
        assert not any(c is unrelated for c in bench.cases)


def test_callgrinds_total_is_read_from_its_summary() -> None:
    err = b"==77== Events    : Ir\n==77== Collected : 172437661\n==77==\n==77== I   refs:      172,437,661\n"
    assert [int(n) for n in harness._COLLECTED.findall(err)] == [172437661]


def test_the_harness_runs_a_tiny_case_on_this_environment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Against this test environment's own `vora` (no install: tests never need the network)."""
    here = harness.Checkout("this", REPO, Path(sys.prefix), "test-env")
    with harness.Bench("tiny", runs=2, sides=[here], venvs=tmp_path / "venvs") as bench:
        bench.case("vora --version", ["--version"], budget="version")
        bench.case("a python program", ["-c", "print('hi')"], program="python", show=True)
        bench.run()
    out = capsys.readouterr().out
    assert "== bench tiny: 2 interleaved rounds; this = " in out
    assert "load average at start" in out
    assert "floor (minimal Typer app): median" in out
    assert re.search(r"vora --version +this .* MiB +\[version <= 1x floor: (met|MISSED .*)\]", out)
    assert re.search(r"a python program +this .* MiB\n +this +hi\n", out)
    assert "budgets judged: 1; this missed " in out
