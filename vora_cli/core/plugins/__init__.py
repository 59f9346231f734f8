"""Plugins: manifests, ids, archives, install, discovery, slots and scaffolding (spec plugins.md).

A library: no typer, no rich, no printing. Heavy modules (tarfile, zipfile, subprocess,
shutil) are imported inside the functions that need them so `vora --help` stays fast.
"""
