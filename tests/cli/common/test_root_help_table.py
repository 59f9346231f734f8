"""`vora --help` lists the lazy groups from `GROUP_HELP` (app.py): it must say what each group says."""

from __future__ import annotations

import pytest

from vora_cli.cli import app as root


def test_the_table_names_every_lazy_group_and_nothing_else() -> None:
    assert set(root.GROUP_HELP) == set(root.LAZY_GROUPS)


@pytest.mark.parametrize("name", root.LAZY_GROUPS)
def test_the_table_gives_each_group_s_own_short_help_at_every_width(name: str) -> None:
    real = root._build_group(name)
    stand_in = root.click.Command(name, help=root.GROUP_HELP[name])
    assert (real.short_help, real.deprecated, real.hidden) == (None, False, False)
    for limit in range(1, 400):
        assert stand_in.get_short_help_str(limit) == real.get_short_help_str(limit), limit


@pytest.mark.parametrize("columns", ["50", "80", "200"])
def test_root_help_is_what_click_prints_from_the_built_groups(vora, monkeypatch, columns: str) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    monkeypatch.setattr(root, "_BUILT", {})  # nothing built yet, as at a real start
    listed = vora("--help").stdout
    for name in root.LAZY_GROUPS:
        root._build_group(name)  # now built: the help lists the real groups
    built = vora("--help").stdout
    assert listed == built
    assert "sessions" in listed and "settings" in listed
