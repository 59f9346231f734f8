"""The gateway's session stores and transcripts, read offline (spec sessions.md; docs/sessions.md)."""
