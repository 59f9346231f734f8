"""The old path of the generator: `python -m vora_cli.cli.gen` runs `python -m vora_cli.cli.docgen`.

Kept for scripts and notes written before the generators moved to `vora_cli/cli/docgen/`.
"""

from __future__ import annotations

if __name__ == "__main__":
    import runpy

    runpy.run_module("vora_cli.cli.docgen", run_name="__main__", alter_sys=True)
