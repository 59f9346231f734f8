"""The `__complete` fast entry (`vora_cli/complete.py`: no CLI framework, an `Install` straight from
argv) in-process: which command lines are completion calls, and the session keys it answers. The
same through a real process and real shells is in `tests/cli/completion/test_complete.py` and
`tests/cli/completion/test_values.py`."""

from __future__ import annotations

from pathlib import Path

from completion_support import SESSION_KEYS, write_session_stores
from install_support import make_install

from vora_cli.complete import candidates, split_global_options


def test_an_ordinary_command_line_is_not_a_completion_call() -> None:
    assert split_global_options(["config", "get", "__complete"]) is None
    assert split_global_options(["--json", "__complete", "plugins"]) is None
    assert split_global_options(["--dev", "__complete", "plugins", "x"]) == ({"dev": True}, ["plugins", "x"])
    assert split_global_options(["--config", "c.json", "__complete"]) == ({"config": "c.json"}, [])


def test_the_fast_entry_answers_session_keys(state_dir: Path) -> None:
    write_session_stores(state_dir)
    paths = make_install(state_dir).paths
    assert candidates("sessions", "", paths) == sorted(SESSION_KEYS)  # whole keys, every agent's store
    assert candidates("sessions", "agent:main:t", paths) == [SESSION_KEYS[1]]
    assert candidates("sessions", "m", paths) == ["main"]  # the default agent's, as `sessions show` takes it
    assert candidates("sessions", "", make_install(state_dir / "nowhere").paths) == []
