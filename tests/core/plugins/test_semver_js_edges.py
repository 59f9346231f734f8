"""Two classes where vora's range reading parted from npm's semver: a null-set comparator (`<0.0.0-0`) before an
invalid one (semver builds every comparator of a set first, so the whole range is invalid), and digits that are
not ASCII (JavaScript's `\\d` matches only 0-9). The answers are semver 7.8.6's (the upstream package's own copy:
`validRange(r) !== null`, `satisfies(v, r)`)."""

from __future__ import annotations

import pytest

from vora_cli.core.plugins import semver

CASES = [  # version, range, semver's (valid range, satisfies)
    ("1.2.3", "<x 1.2.3.4", (False, False)),
    ("1.2.3+b", "^ 10 <* X.0.X|| 1", (False, False)),
    ("0.0.1", "0 ||> X = v9007199254740992.10.2026", (False, False)),
    ("1.2.3", "<0.0.0-0 1.2.3.4", (False, False)),
    ("1.2.3", "<0.0.0-0 || 1.2.3", (True, True)),
    ("1.2.3", "1.2.3 || <0.0.0-0 x.y.z.w", (False, False)),
    ("1.2.1\u0663", "*", (True, False)),
    ("\u0661.2.3", "*", (True, False)),
    ("1.2.3", ">=1.1\u0663.0", (False, False)),
    ("1.2.3", "^1.\u0662.0", (False, False)),
]


@pytest.mark.parametrize(("version", "text", "answer"), CASES)
def test_semvers_answer(version: str, text: str, answer: tuple[bool, bool]) -> None:
    assert (semver.parse_range(text) is not None, semver.satisfies(version, text)) == answer
