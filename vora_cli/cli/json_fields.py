"""The fields of each command's `--json` document, recorded from real runs on the example install.

Generated: `VORA_RECORD_JSON_FIELDS=1 python -m pytest tests/cli/test_json_convention.py -k fields`
rewrites it; that test fails when a document's fields and this record differ. Read by `--query`'s
hint (`cli/query.py`), the CLI reference and the completion scripts (`cli/docgen`). A field is a
JMESPath expression: `ok`, `summary.warn`, `checks[].id`.
"""

from __future__ import annotations

FIELDS: dict[str, tuple[str, ...]] = {}
