"""Backups of a Vora install (`vora backup`, docs/backup.md): create, verify, restore, list."""

from __future__ import annotations

from pathlib import Path


def journal_dir() -> Path:
    """Where restores keep their journals: vora's own data dir, beside its backups."""
    from vora_cli.core.userdirs import data_dir

    return data_dir() / "restores"


def pending_journals() -> list[Path]:
    """The journals of restores that did not finish (running or dead), oldest name first: what
    `vora doctor` looks at on every run, without loading the restore's code."""
    try:
        return sorted(p for p in journal_dir().iterdir() if p.name.endswith(".json"))
    except OSError:
        return []
