"""The gateway's pairing store and this host's device identity (spec devices.md).

- `rules`: scopes, roles, times, names; `tokens`: minting and token records;
- `store`: the two files on disk (read, parse, write in the gateway's layout);
- `transaction`: `transact` (lock, re-read, change, checked replace; a change lands whole or not);
- `journal`: the audit log and the seen-requests journal;
- `validation`: whether a request may be approved (key, device id, a `ts` not in the future);
- `classify`: what kind of request it is; `views`: read-only views for `list`;
- `lookup`: device ids by prefix, the request a selection names, why a request id is stale;
- `approval`: approving a request; `operations`: reject, remove, revoke, rename, rotate, clear;
- `identity`: this host's Ed25519 identity and the v3 device signature;

Only the standard library is imported by the store modules: `vora devices list` must start fast
(bench/devices_bench.py). `cryptography` is imported inside `identity`'s functions.
"""
