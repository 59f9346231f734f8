"""Generators that read the command tree: shell completion scripts, the CLI reference, the man page and the
dispatch table. They take the tree as an argument and never import the app (which uses them).
"""
