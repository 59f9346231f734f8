"""Talking to a running gateway over its WebSocket protocol (spec gateway.md; docs/gateway.md).
`websockets` and `cryptography` are imported only inside the functions that connect or sign.
"""
