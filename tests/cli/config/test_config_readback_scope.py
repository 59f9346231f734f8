"""The read-back check looks at what the change touched: an old error elsewhere never blocks a
write, a new error in what the change touched always does (issue 12 point 4; issue 11 speed)."""

from __future__ import annotations

from pathlib import Path

BASE = '// keep me\n{\n  gateway: { port: "eighty" },  // wrong already: the operator fixes it later\n  agents: { defaults: {} },\n}\n'


def test_an_old_error_elsewhere_does_not_block_a_write(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    patch = state_dir / "ok.json5"
    patch.write_text("{ agents: { defaults: { bootstrapMaxChars: 5000 } } }")
    run = vora("config", "patch", str(patch))
    assert run.exit_code == 0, run.stderr
    assert "bootstrapMaxChars: 5000" in config.read_text() and 'port: "eighty"' in config.read_text()


def test_a_new_error_in_the_touched_member_is_refused(vora, state_dir: Path) -> None:
    config = state_dir / "vora.json"
    config.write_text(BASE)
    for name, text in (("bad.json5", '{ agents: { defaults: { bootstrapMaxChars: "many" } } }'),
                       ("bad2.json5", "{ agents: { defaults: { bootstrapTotalMaxChars: [] } } }")):
        patch = state_dir / name
        patch.write_text(text)
        run = vora("config", "patch", str(patch))
        assert run.exit_code == 1, run.stdout
        assert "agents.defaults.bootstrap" in run.stderr
        assert config.read_text() == BASE
