"""The bodies of the hot commands, without typer or click (docs/architecture.md, "The fast dispatch").

Each hot command is a thin Typer wrapper in `cli/commands/` (its options, its help) that calls
its body here with the run's `AppState` and plain values; the fast dispatch (`cli/dispatch.py`)
calls the same body for a well-formed command line without importing typer at all. Nothing
here may import typer, click or rich at module level (`tests/cli/test_fast_dispatch.py`).
"""
