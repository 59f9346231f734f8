"""Talking to a running gateway over its WebSocket protocol (spec gateway.md).

`target` finds the URL and the credential (naming the source of each), `client` speaks the
protocol, `device` holds this host's identity and device token, `logfile` reads the gateway's
log, `status` builds `vora gateway status`. `websockets` and `cryptography` are imported only
inside the functions that connect or sign, so no other command pays for them.
"""
