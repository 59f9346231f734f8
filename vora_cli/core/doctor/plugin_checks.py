"""Checks on plugins and the slots: slot-context-engine, slot-memory, plugin-manifests,
plugin-references and plugin-permissions (spec doctor.md, "Slot verification")."""

from __future__ import annotations

from vora_cli.core.doctor.model import SKIP, CheckResult, Install

PLUGIN_CHECK_IDS = ("slot-context-engine", "slot-memory", "plugin-manifests", "plugin-references",
                    "plugin-permissions")


def _not_available(check_id: str) -> CheckResult:
    # The plugin discovery and slot verification live in core/plugins (one parser, one
    # discovery); until that lands these checks say so instead of guessing.
    return CheckResult(check_id, SKIP, "plugin checks not available")


def check_slot_context_engine(install: Install) -> CheckResult:
    return _not_available("slot-context-engine")


def check_slot_memory(install: Install) -> CheckResult:
    return _not_available("slot-memory")


def check_plugin_manifests(install: Install) -> CheckResult:
    return _not_available("plugin-manifests")


def check_plugin_references(install: Install) -> CheckResult:
    return _not_available("plugin-references")


def check_plugin_permissions(install: Install) -> CheckResult:
    return _not_available("plugin-permissions")
