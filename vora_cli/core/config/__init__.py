"""vora.json: path syntax, known keys, redaction, loading, the edit planner, writing, and the `vora config` operations."""
