"""The cases of `tests/data/upstream/validate_cases.json`, laid out on disk the one way both sides use.

`scripts/gen_upstream_verdicts.py` lays a case out for the gateway and asks it; the test
`tests/core/config/test_gateway_verdicts.py` lays it out for vora and compares. A case holds:

- `config` (and `includes`): the text of `vora.json` (and of the files it includes); `<state>`
  stands for the state dir;
- `extensions`: plugins from `tests/data/plugins/` (an npm tarball or a fixture folder) put in
  `<state>/extensions/<id>`; `places`: the same put at a path of one's own (`{"lp/bounds":
  "fixtures/bounds-plugin"}`, relative to the state dir, or `~/…` in the home);
- `files` (path → text), `dirs` (empty folders), `symlinks` (path → target as written) and
  `modes` (path → octal, applied last): anything else a case needs on disk, at the same kind of path;
- `env`, `compare` (`issues`, `valid`, or `issues-parser-aside`: a manifest's parse error is
  described by each side's own JSON5 parser, so messages are compared up to the parser's words),
  `ordered` (the gateway's order of its issues is compared too).

Paths in the answers are written with `<state>` and `<home>` for the scratch folders.
"""

from __future__ import annotations

import json
import os
import shutil
import tarfile
import tempfile
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[1] / "data"
PARSER_WORDS = "failed to parse plugin manifest: "


def _at(relative: str, state: Path, home: Path) -> Path:
    return home / relative[2:] if relative.startswith("~/") else state / relative


def _copy_plugin(spec: str, target: Path | None, extensions: Path) -> None:
    source = DATA / "plugins" / spec
    with tempfile.TemporaryDirectory() as tmp:
        if source.suffix == ".tgz":
            with tarfile.open(source) as archive:
                archive.extractall(tmp, filter="data")
            source = Path(tmp) / "package"
        if target is None:
            target = extensions / json.loads((source / "openclaw.plugin.json").read_text())["id"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, target)


def lay_out(case: dict[str, Any], state: Path, home: Path) -> None:
    """Write the case's state dir (and what it puts in the home): config, plugins, files, modes."""
    state.mkdir(parents=True, exist_ok=True)
    home.mkdir(parents=True, exist_ok=True)
    (state / "vora.json").write_text(case["config"].replace("<state>", str(state)), encoding="utf-8")
    for name, text in case.get("includes", {}).items():
        (state / name).write_text(text, encoding="utf-8")
    for spec in case.get("extensions", []):
        (state / "extensions").mkdir(exist_ok=True)
        _copy_plugin(spec, None, state / "extensions")
    for relative, spec in case.get("places", {}).items():
        _copy_plugin(spec, _at(relative, state, home), state / "extensions")
    for relative in case.get("dirs", []):
        _at(relative, state, home).mkdir(parents=True, exist_ok=True)
    for relative, text in case.get("files", {}).items():
        path = _at(relative, state, home)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for relative, target in case.get("symlinks", {}).items():
        path = _at(relative, state, home)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target.replace("<state>", str(state)))
    for relative, mode in case.get("modes", {}).items():
        os.chmod(_at(relative, state, home), int(mode, 8))


def shown(text: str, state: Path, home: Path) -> str:
    """`text` with the scratch folders written as `<home>` and `<state>`, the longer first (the
    recorder's home is named after its state dir, the test's state dir lies in its home)."""
    for folder, name in sorted(((str(home), "<home>"), (str(state), "<state>")), key=lambda pair: -len(pair[0])):
        text = text.replace(folder, name)
    return text


def compared(message: str, case: dict[str, Any]) -> str:
    """A message as the case compares it: up to the parser's words when they are each side's own."""
    if case.get("compare") == "issues-parser-aside" and PARSER_WORDS in message:
        return message[:message.index(PARSER_WORDS) + len(PARSER_WORDS)] + "…"
    return message
