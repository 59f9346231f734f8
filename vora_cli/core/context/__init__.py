"""What the gateway injects from the workspace bootstrap files, computed offline (spec ``context.md``;
docs/context.md). This package re-exports nothing: import a name from the module that holds it.
"""
