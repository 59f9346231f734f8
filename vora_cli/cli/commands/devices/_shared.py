"""What the `vora devices` commands share: the clock text and the "what was written" lines, whose
one home is the hot module (`cli/hot/devices.py`: `devices list` and `approve` run without Typer)."""

from __future__ import annotations

from vora_cli.cli.hot.devices import ago as ago  # the devices commands' one clock text
from vora_cli.cli.hot.devices import report_written as report_written
from vora_cli.cli.hot.devices import require_one_selector as require_one_selector
