"""Backups of a Vora install (`vora backup`, docs/backup.md): create, verify, restore, list.

Archives are the gateway's own format (layout.py, manifest.py) plus per-file hashes; every
operation streams (no file is ever held whole in memory) and returns a frozen result.
"""
