"""Plugin ids the gateway removed (google-gemini-cli-auth, google-antigravity-auth) are a warning wherever the
config names them, never an error: the gateway's `config validate --json` (openclaw 2026.4.12) says valid on
each config below but the last, whose id (another case) is not one it removed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import Run

REMOVED = "(stale config entry ignored; remove it from plugins config)"
# config -> (the gateway's verdict, vora's problems: severity, key, message)
CASES = {
    '{plugins:{deny:["google-gemini-cli-auth"]}}':
        (True, [("warn", "plugins.deny", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{allow:["google-antigravity-auth","lobster"]}}':
        (True, [("warn", "plugins.allow", f"plugin removed: google-antigravity-auth {REMOVED}")]),
    '{plugins:{entries:{"google-gemini-cli-auth":{enabled:true}}}}':
        (True, [("warn", "plugins.entries.google-gemini-cli-auth", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{slots:{memory:"google-gemini-cli-auth"}}}':
        (True, [("warn", "plugins.slots.memory", f"plugin removed: google-gemini-cli-auth {REMOVED}")]),
    '{plugins:{deny:["Google-Gemini-CLI-Auth"]}}':
        (False, [("error", "plugins.deny", "plugin not found: Google-Gemini-CLI-Auth")]),
}


@pytest.mark.parametrize("config", sorted(CASES))
def test_a_removed_plugin_is_a_warning(config: str, state_dir: Path, vora: Callable[..., Run]) -> None:
    (state_dir / "vora.json").write_text(config + "\n")
    report = vora("config", "validate", "--json").json()
    valid, problems = CASES[config]
    assert report["valid"] is valid
    assert [(p["severity"], p["key"], p["message"]) for p in report["problems"]] == problems
