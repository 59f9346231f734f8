"""The run's `Install` (core/install.py): built from plain values, nothing read before it is
needed, the config read at most once, the clock and the settings taken from it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from install_support import NOW_MS, count_config_parses, make_install

from vora_cli.core.errors import VoraError
from vora_cli.core.install import Install
from vora_cli.core.settings.resolve import Settings


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    return count_config_parses(monkeypatch)


def _state(tmp_path: Path, config: str) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(config)
    return state


def test_building_one_reads_nothing(tmp_path: Path, parses: list[Path]) -> None:
    broken = tmp_path / "settings.toml"
    broken.write_text("profile = [1\n")
    install = Install(state_dir=str(tmp_path / "nowhere"), profile="work", env={"HOME": str(tmp_path)},
                      settings=Settings({"HOME": str(tmp_path)}, path=broken))
    assert install.paths.state_dir == tmp_path / "nowhere"  # the paths: the flags settled them
    assert parses == []  # no config read for the paths (`vora config file`)
    with pytest.raises(VoraError):
        install.settings.check()


def test_the_config_is_read_once_for_every_fact_derived_from_it(tmp_path: Path, parses: list[Path]) -> None:
    state = _state(tmp_path, '{ agents: { list: [{ id: "Ops Team", workspace: "./ops" }] } }\n')
    install = make_install(state)
    assert install.require_config() is install.config is install.editable_config
    assert install.agents.ids == ["ops-team"]
    assert install.workspaces[0][1].path == state / "ops"  # type: ignore[union-attr]
    assert install.plugins.plugins == ()
    assert install.session_stores[0][0].agent_id == "ops-team"
    assert parses == [state / "vora.json"]


def test_why_there_is_no_config_is_kept_and_raised_where_it_is_needed(tmp_path: Path, parses: list[Path]) -> None:
    state = _state(tmp_path, "{ broken: ")
    install = make_install(state)
    assert install.config is None and install.config_error is not None
    assert install.config_error.code == "parse_error"
    assert install.effective == {}  # the doctor's view: checks that need the config skip
    with pytest.raises(VoraError) as caught:
        install.require_config()
    assert caught.value is install.config_error
    assert parses == [state / "vora.json"]  # the failed read is not retried


def test_fresh_reads_the_config_again_and_keeps_the_rest(tmp_path: Path) -> None:
    state = _state(tmp_path, "{ gateway: { port: 1 } }\n")
    install = make_install(state, now_ms=5, settings={"lock_timeout": 2.5})
    assert install.effective["gateway"]["port"] == 1
    (state / "vora.json").write_text("{ gateway: { port: 2 } }\n")
    again = install.fresh()
    assert again.effective["gateway"]["port"] == 2 and install.effective["gateway"]["port"] == 1
    assert (again.paths, again.now_ms, again.settings, again.lock_timeout) == (install.paths, 5, install.settings, 2.5)


def test_the_clock_is_pinned_by_vora_now_ms_or_by_the_builder(tmp_path: Path) -> None:
    assert make_install(tmp_path, env={"VORA_NOW_MS": "42"}, now_ms=None).now_ms == 42
    assert make_install(tmp_path).now_ms == NOW_MS
    with pytest.raises(VoraError) as caught:
        _ = make_install(tmp_path, env={"VORA_NOW_MS": "soon"}, now_ms=None).now_ms
    assert caught.value.code == "usage"


def test_the_lock_wait_is_the_operator_s(tmp_path: Path) -> None:
    assert make_install(tmp_path).lock_timeout == 10.0
    assert make_install(tmp_path, settings={"lock_timeout": 0.5}).lock_timeout == 0.5
    assert make_install(tmp_path, settings={"lock_timeout": 0.5}, env={"VORA_LOCK_TIMEOUT": "3"}).lock_timeout == 3.0


def test_it_needs_no_cli_framework(tmp_path: Path) -> None:
    """Issue 24 builds it straight from argv: typer, click and rich stay out."""
    script = ("import sys\nfrom vora_cli.core.install import Install\n"
              f"i = Install(state_dir={str(tmp_path)!r})\ni.paths, i.lock_timeout, i.effective, i.agents\n"
              "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich'))))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""
