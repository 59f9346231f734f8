"""What the check engine's commands (`vora doctor`, `vora security audit`) share: their output
formats and id lists. Typer-free: `vora doctor` runs without Typer (`cli/declare.py`)."""

from __future__ import annotations

from vora_cli.core.errors import VoraError

FORMATS = ("text", "json", "github", "junit", "sarif")


def id_list(values: list[str] | None) -> list[str]:
    """Repeated options and comma lists, flattened: `--only a,b --only c`."""
    out: list[str] = []
    for value in values or []:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


def choose_format(format: str | None, json: bool) -> str:
    if format is not None and format not in FORMATS:
        raise VoraError("usage", f"invalid --format {format!r}", f"use one of: {', '.join(FORMATS)}")
    if json and format not in (None, "json"):
        raise VoraError("usage", f"--json and --format {format} ask for two outputs",
                        f"use one: --format {format}, or --json")
    return "json" if json else format or "text"
