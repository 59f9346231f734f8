"""`check_reads_back` validates only the top-level members a change touched (issue 11 speed) and
still refuses every new error inside them (issue 12 point 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from vora_cli.core.config.loading import load_config
from vora_cli.core.config.readback import check_reads_back
from vora_cli.core.errors import VoraError
from vora_cli.core.json5.document import Json5Document
from vora_cli.core.paths import resolve_paths

OLD = '{\n  gateway: { port: "eighty" },\n  agents: { defaults: { bootstrapMaxChars: 10 } },\n}\n'


def _check(tmp_path: Path, new_text: str) -> None:
    state = tmp_path / "state"
    state.mkdir()
    (state / "vora.json").write_text(OLD)
    paths = resolve_paths(state_dir=str(state), env={"HOME": str(tmp_path)})
    loaded = load_config(paths)
    check_reads_back(paths, loaded, {paths.config_path: (new_text.encode(), Json5Document.parse(new_text))})


def test_an_untouched_old_error_passes(tmp_path: Path) -> None:
    _check(tmp_path, OLD.replace("bootstrapMaxChars: 10", "bootstrapMaxChars: 20"))


@pytest.mark.parametrize("new", [
    OLD.replace("bootstrapMaxChars: 10", 'bootstrapMaxChars: "ten"'),
    OLD.replace("bootstrapMaxChars: 10", "bootstrapMaxChars: 10, bootstrapTotalMaxChars: []"),
    OLD.replace('port: "eighty"', 'port: "eighty", bind: 5'),
], ids=["changed-member", "added-member", "member-next-to-an-old-error"])
def test_a_new_error_in_a_touched_member_is_refused(tmp_path: Path, new: str) -> None:
    with pytest.raises(VoraError) as caught:
        _check(tmp_path, new)
    assert caught.value.code == "invalid" and "nothing was written" in caught.value.message
