"""Regenerate the completion scripts and the CLI reference from the app: `python -m vora_cli.cli.docgen`.

`--check` writes nothing and exits 1 when a committed file (the completions, `docs/cli-reference.md`,
`man/vora.1`, `cli/dispatch_table.py`) differs from what the app generates now.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vora_cli.cli.docgen.tree import CommandSpec
from vora_cli.cli.output import write_stderr, write_stdout

REPO = Path(__file__).resolve().parents[3]
GENERATOR = "python -m vora_cli.cli.docgen"

OUTPUTS = {
    "completions/vora.bash": "bash",
    "completions/_vora": "zsh",
    "completions/vora.fish": "fish",
    "docs/cli-reference.md": "reference",
    "man/vora.1": "man",
    "vora_cli/cli/dispatch_table.py": "dispatch",
}


def generate(tree: CommandSpec) -> dict[str, str]:
    """Relative path -> the text the app generates now."""
    from vora_cli import __version__
    from vora_cli.cli.docgen.manpage import render_manpage
    from vora_cli.cli.docgen.reference import render_reference
    from vora_cli.cli.docgen.shell_scripts import render

    def one(kind: str) -> str:
        if kind == "reference":
            return render_reference(tree)
        if kind == "man":
            return render_manpage(tree, __version__)
        if kind == "dispatch":
            from vora_cli.cli.docgen.dispatch_table import render_dispatch_table

            if tree.dispatch is None:
                raise ValueError("the root's options are not ones the fast dispatch can parse (cli/docgen/dispatch_table.py)")
            return render_dispatch_table(tree.dispatch, {c.path.removeprefix("vora "): c.dispatch
                                                         for c in tree.walk() if c.dispatch and c is not tree})
        return render(kind, tree)

    return {rel: one(kind) for rel, kind in OUTPUTS.items()}


def stale_files(tree: CommandSpec, root: Path = REPO) -> list[str]:
    """The generated files that are missing or differ from what the app generates now."""
    stale = []
    for rel, text in generate(tree).items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(rel)
    return stale


def write_all(tree: CommandSpec, root: Path = REPO) -> list[str]:
    """Write every generated file that changed; returns their paths. Atomic writes through the one
    writer, without its lock: a lock file beside each repository file would litter the checkout."""
    from vora_cli.core.reading import read_bytes
    from vora_cli.core.writer import replace_atomically

    written = []
    for rel, text in generate(tree).items():
        data = text.encode("utf-8")
        if read_bytes(root / rel) != data:
            (root / rel).parent.mkdir(parents=True, exist_ok=True)  # a repository folder (0755), not a state dir
            replace_atomically(root / rel, data, new_mode=0o644)  # a repository file, not a state file
            written.append(rel)
    return written


def main(tree: CommandSpec, argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=GENERATOR, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when a file is out of date")
    parser.add_argument("--root", type=Path, default=REPO, help="the repository root (default: this checkout)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(tree, args.root)
        for rel in stale:
            write_stderr(f"out of date: {rel} (run: {GENERATOR})\n")
        return 1 if stale else 0
    written = write_all(tree, args.root)
    for rel in written:
        write_stdout(f"Wrote {rel}\n")
    if not written:
        write_stdout("Up to date\n")
    return 0
