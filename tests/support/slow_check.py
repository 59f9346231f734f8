"""The `slow` marker, held by measurement (docs/testing.md, "Markers and strictness").

Each test's call phase is measured in CPU seconds of the test process and of the processes it
started and waited for (`time.process_time()` plus `RUSAGE_CHILDREN`): a loaded machine stretches
wall time, hardly CPU time. An unmarked test over UNMARKED_BAR_CPU fails, naming itself; the bar
sits well above the ~1.5 s at which a test is marked, so it never flakes and still catches a test
that became slow, or a new one nobody measured.

VORA_TEST_SLOW_CHECK=0 turns the check off (profiling, a debugger, a very slow machine);
VORA_TEST_SLOW_CHECK=report also lists, at the end, the tests whose mark the run disagrees with
(unmarked ones over MARK_AT, marked ones under it, by wall and CPU time) to re-measure by.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Generator
from typing import Any

import pytest

UNMARKED_BAR_CPU = 3.0
MARK_AT = 1.5
ENV = "VORA_TEST_SLOW_CHECK"

_spent = pytest.StashKey[tuple[float, float]]()
_measured: list[tuple[str, bool, float, float]] = []  # (node id, marked, wall, cpu), on the controller


_mode_key = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    # read once: the tests' isolation removes every VORA_* variable while they run
    config.stash[_mode_key] = os.environ.get(ENV, "1").strip().lower()


def _mode(config: pytest.Config) -> str:
    return config.stash.get(_mode_key, "1")


def _cpu() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, Any, Any]:
    wall, cpu = time.perf_counter(), _cpu()
    try:
        return (yield)
    finally:
        item.stash[_spent] = (time.perf_counter() - wall, _cpu() - cpu)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report: pytest.TestReport = yield
    if call.when != "call" or _spent not in item.stash or _mode(item.config) == "0":
        return report
    wall, cpu = item.stash[_spent]
    marked = item.get_closest_marker("slow") is not None
    report.user_properties.append(("slow_check", (marked, wall, cpu)))  # for the controller's list
    if report.passed and not marked and cpu > UNMARKED_BAR_CPU:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} took {cpu:.1f} s of CPU (its process and the ones it started) without "
            f"@pytest.mark.slow, over the {UNMARKED_BAR_CPU:g} s bar for an unmarked test: mark it slow "
            f"(docs/testing.md) or make it cheaper; {ENV}=0 turns this check off")
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    for name, value in report.user_properties:
        if name == "slow_check" and report.when == "call":
            marked, wall, cpu = value
            _measured.append((report.nodeid, marked, wall, cpu))


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _mode(config) != "report" or not _measured:
        return
    unmarked = [m for m in _measured if not m[1] and max(m[2], m[3]) >= MARK_AT]
    marked = [m for m in _measured if m[1] and max(m[2], m[3]) < MARK_AT]
    terminalreporter.section("slow marks to check")
    for title, rows in ((f"unmarked, over {MARK_AT:g} s", unmarked), (f"marked slow, under {MARK_AT:g} s", marked)):
        terminalreporter.write_line(f"{title}: {len(rows)}")
        for nodeid, _marked, wall, cpu in sorted(rows, key=lambda m: -max(m[2], m[3])):
            terminalreporter.write_line(f"  {wall:6.2f} s wall {cpu:6.2f} s cpu  {nodeid}")
