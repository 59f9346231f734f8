"""Issue 23, "Terminals": `vora doctor --list-checks` names every check id with its group and what
it verifies, runs nothing, and agrees with what --only/--skip take and what --fix can mend."""

from __future__ import annotations

import re
from pathlib import Path

from vora_cli.core.doctor.fixes import FIXABLE, ONLY_WHEN_NAMED
from vora_cli.core.doctor_names import AREA_OF, LIVE_CHECK_IDS, SELECTABLE_IDS, VERIFIES


def test_json_lists_every_selectable_id_once_with_its_group(vora, tmp_path: Path) -> None:
    result = vora("--state-dir", str(tmp_path / "nowhere"), "doctor", "--list-checks", "--json")
    assert result.exit_code == 0
    checks = result.json()["checks"]
    assert sorted(c["id"] for c in checks) == sorted(SELECTABLE_IDS)
    for check in checks:
        assert check["area"] == AREA_OF[check["id"]] and check["verifies"] == VERIFIES[check["id"]]
        assert check["runs"] == ("live" if check["id"] in LIVE_CHECK_IDS else
                                 "log" if check["id"] == "last-gateway-start" else "offline")
        assert check["fix"] == ("named" if check["id"] in ONLY_WHEN_NAMED else
                                "auto" if check["id"] in FIXABLE else None)
    areas = [c["area"] for c in checks]
    assert areas == sorted(areas, key=areas.index)  # each group once, together
    assert not (tmp_path / "nowhere").exists()  # ran nothing, created nothing


def test_text_groups_them_and_fits_80_columns(vora, monkeypatch) -> None:
    monkeypatch.setattr("vora_cli.cli.output.stream_is_terminal", lambda stream: True)
    out = vora("doctor", "--list-checks", env={"COLUMNS": "80"}).stdout
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert lines[0] == "Config"
    listed = [m.group(1) for line in lines if (m := re.match(r"  ([a-z][a-z-]+)  ", line))]
    assert sorted(listed) == sorted(SELECTABLE_IDS)
    text = " ".join(out.split())
    assert "state-dir the state dir is a folder that group and others cannot write to [--fix]" in text
    assert "plugin-settings settings kept in plugins.entries belong to a plugin that is there [--fix ID]" in text
    assert "gateway-reachable a gateway answers at the URL and completes the handshake (with --live)" in text
    assert f"\n{len(SELECTABLE_IDS)} checks. Select with --only" in out


