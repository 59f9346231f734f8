"""How vora words counts, sizes and guesses for a person: one voice in every command
(docs/terminal.md, "One voice"). A leaf of the ground layer: it imports nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

_UNITS = ("KiB", "MiB", "GiB", "TiB")


def size_text(count: int | None, *, unknown: str = "missing") -> str:
    """`count` bytes as a person reads them: `812 B`, `9.0 KiB`, `3.1 MiB` (1,024-based);
    `unknown` when there is no count."""
    if count is None:
        return unknown
    if count < 1024:
        return f"{count} B"
    value = float(count)
    for unit in _UNITS:
        value /= 1024
        if value < 1024 or unit == _UNITS[-1]:
            # 1023.95 KiB shows as 1.0 MiB, not "1024.0 KiB"
            if round(value, 1) >= 1024 and unit != _UNITS[-1]:
                continue
            return f"{value:.1f} {unit}"
    return f"{count} B"  # pragma: no cover - the loop returns at its last unit


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """`1 file`, `2 files`, `1 production dependency`, `3 production dependencies` (thousands
    with commas). `plural_form` for a word English does not make with -s/-ies/-es."""
    if count == 1:
        word = singular
    elif plural_form is not None:
        word = plural_form
    elif singular.endswith("y") and singular[-2:-1] not in ("a", "e", "i", "o", "u"):
        word = singular[:-1] + "ies"
    elif singular.endswith(("s", "x", "sh", "ch")):
        word = singular + "es"
    else:
        word = singular + "s"
    return f"{count:,} {word}"


def edit_distance(a: str, b: str, limit: int) -> int:
    """The optimal-string-alignment distance of `a` and `b` (an insertion, a deletion, a change
    or two neighbours swapped each count 1), or `limit + 1` once it is certainly over `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        if min(current) > limit:
            return limit + 1
        previous2, previous = previous, current
    return min(previous[-1], limit + 1)


def typo_limit(word: str) -> int:
    """How many edits a typo of `word` may hold: one per three characters, at least one from two
    characters on (`gt` for `get`, `lst` for `list`), none below (`a` is not a typo of `b`)."""
    bare = word.lstrip("-")
    return 0 if len(bare) < 2 else max(1, len(bare) // 3)


def closest(word: str, candidates: Iterable[str], *, limit: int | None = None) -> str | None:
    """The candidate `word` most likely mistypes, or None when none is near enough (`limit` edits,
    default `typo_limit` of the shorter of the two: `editorial` is no typo of `editor`; letter case
    and leading dashes ignored). Ties go to the first."""
    wanted = word.lstrip("-").lower()
    best: str | None = None
    best_distance = len(wanted) + 1
    for candidate in candidates:
        if candidate == word:
            continue
        other = candidate.lstrip("-").lower()
        allowed = typo_limit(min(wanted, other, key=len)) if limit is None else limit
        found = edit_distance(wanted, other, allowed)
        if found <= allowed and found < best_distance:
            best, best_distance = candidate, found
    return best


def round_up(value: float) -> int:
    """The first round number at or above `value`: two significant digits (`27,667` -> `28,000`,
    `165,000` -> `170,000`, `934` -> `940`)."""
    import math

    if value <= 0:
        return 0
    step = 10 ** max(math.floor(math.log10(value)) - 1, 0)
    return int(math.ceil(value / step) * step)
