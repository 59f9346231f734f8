"""Record every task result of a playbook run as one JSON line, with each host's config text after
it: the playbook test counts changes per task and checks that comments survive every task.

Enabled by the test only (ANSIBLE_CALLBACKS_ENABLED=vora_record); VORA_RECORD names the file,
VORA_RECORD_CONFIGS maps each host to its config file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "vora_record"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self) -> None:
        super().__init__()
        self.path = os.environ["VORA_RECORD"]
        self.configs = json.loads(os.environ["VORA_RECORD_CONFIGS"])

    def _record(self, result, status: str) -> None:
        host, task = result.host.get_name(), result.task
        data = dict(result.result)
        config = self.configs.get(host)
        entry = {
            "host": host,
            "task": task.get_name(),
            "action": task.action,
            "status": status,
            "changed": bool(data.get("changed")),
            "result": data,
            "config": Path(config).read_text(encoding="utf-8") if config and os.path.exists(config) else None,
        }
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry, default=str) + "\n")

    def v2_runner_on_ok(self, result) -> None:
        self._record(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors: bool = False) -> None:
        self._record(result, "failed")

    def v2_runner_on_skipped(self, result) -> None:
        self._record(result, "skipped")

    def v2_runner_on_unreachable(self, result) -> None:
        self._record(result, "unreachable")
