"""Generators that read the command tree: shell completion scripts and the CLI reference.

They receive the tree (`tree.command_tree(root_command)`) as an argument and never import
`vora_cli.cli.app`, so the app may use them (`vora completion`) without an import circle.
`python -m vora_cli.cli.docgen` (`__main__.py`) is the one place that hands them the app.
"""
