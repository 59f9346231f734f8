"""vora.json: path syntax, known keys, loading, the edit planner, writing (with its diff), and the `vora config` operations."""
