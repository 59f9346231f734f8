"""`python -m vora_cli.cli.docgen [--check] [--root DIR]`: the one entry point that hands the app to the generators."""

from __future__ import annotations

import sys

from vora_cli.cli.app import root_command
from vora_cli.cli.docgen.gen import main
from vora_cli.cli.docgen.tree import command_tree

if __name__ == "__main__":
    sys.exit(main(command_tree(root_command())))
