"""The gateway's pairing store and this host's device identity (spec devices.md; docs/devices.md).

The store modules import only the standard library (`vora devices list` is an everyday command);
`cryptography` is imported inside `identity`'s functions.
"""
