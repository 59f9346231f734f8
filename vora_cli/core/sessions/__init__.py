"""The gateway's session stores and transcripts, read offline (spec sessions.md).

- `store`: `sessions.json`, keys, kinds (which agents exist and where their stores live: `core/agents`);
- `resolve`: which session a key argument names (light: no transcript reader);
- `transcript`: the streaming reader of one transcript; `counting`, `jsfmt`: units and numbers as
  the gateway counts and prints them; `redact`: bounded, redacted previews;
- `manifest`: what the model sees now; `listing`, `show`, `context_reply`: the results behind
  `vora sessions list|show` and `vora context --session`.

A regular package (this file) so that the wheel ships it: the build finds packages by their
`__init__.py` (pyproject `[tool.setuptools.packages.find]`).
"""
