"""What the `vora sessions` commands share: sizes as every view prints them (`core/wording.py`)."""

from __future__ import annotations

from vora_cli.core.wording import size_text

__all__ = ["size_text"]
