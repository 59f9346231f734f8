"""The scan finds each entry's parent as a dict of every id would (the last entry with that id
before it), whether it searches the id array (a few branches) or builds the dict (many)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vora_cli.core.sessions.transcript import NO_PARENT, leaf_path, scan_transcript

ids = st.one_of(st.integers(0, 40).map(lambda n: f"{n:08x}"), st.sampled_from(["ABCDEF12", "x", "0000000G", ""]))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(plan=st.lists(st.tuples(ids, st.one_of(st.none(), st.just("previous"), ids)), min_size=1, max_size=60))
def test_parents_are_the_last_entry_with_that_id(tmp_path: Path, plan: list[tuple[str, str | None]]) -> None:
    lines = [json.dumps({"type": "session", "version": 3, "id": "s", "timestamp": "t", "cwd": "/"})]
    previous: str | None = None
    for entry_id, parent in plan:
        parent_id = previous if parent == "previous" else parent
        lines.append(json.dumps({"type": "message", "id": entry_id, "parentId": parent_id,
                                 "message": {"role": "user", "content": "hi"}}))
        previous = entry_id or None
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(lines) + "\n")
    scan = scan_transcript(path)

    seen: dict[str, int] = {}
    expected = []
    for i, line in enumerate(lines[1:]):
        obj = json.loads(line)
        own = obj["id"] or f"line-{i + 2}"
        parent_id = obj["parentId"]
        expected.append(seen.get(parent_id, NO_PARENT) if isinstance(parent_id, str) else NO_PARENT)
        seen[own] = i
    assert list(scan.parents) == expected
    assert [scan.ids[i] for i in range(scan.entries)] == [p[0] or f"line-{i + 2}" for i, p in enumerate(plan)]
    assert leaf_path(scan) is leaf_path(scan)  # walked once
