"""Plugins: manifests, ids, archives, install, discovery, slots and scaffolding (docs/plugins.md)."""
