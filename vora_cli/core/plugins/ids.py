"""Plugin ids and their folder names in the extensions dir (spec plugins.md, "A plugin on disk")."""

from __future__ import annotations

import re

from vora_cli.core.errors import VoraError

_FOLDER_SAFE = r"[^A-Za-z0-9._-]"
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_scoped(plugin_id: str) -> bool:
    return plugin_id.startswith("@")


def id_problem(plugin_id: str) -> str | None:
    """Why `plugin_id` is not a valid plugin id, or None. Valid: non-empty, no path separators,
    no `.`/`..` segments; scoped is `@scope/name` (one `/`). Control characters and surrounding
    whitespace are refused too (our decision: such an id cannot be typed back).
    """
    if not plugin_id:
        return "is empty"
    if plugin_id != plugin_id.strip():
        return "has leading or trailing whitespace"
    if _CONTROL.search(plugin_id):
        return "contains a control character"
    if "\\" in plugin_id:
        return "contains a path separator ('\\')"
    if is_scoped(plugin_id):
        parts = plugin_id[1:].split("/")
        if len(parts) != 2 or not all(parts):
            return "is not of the form @scope/name"
        if any(part in (".", "..") for part in parts):
            return "has a '.' or '..' segment"
        return None
    if "/" in plugin_id:
        return "contains a path separator ('/'); only scoped ids (@scope/name) may hold one"
    if plugin_id in (".", ".."):
        return "is '.' or '..'"
    return None


def validate_plugin_id(plugin_id: str, where: str) -> str:
    """Return `plugin_id`, or raise `invalid` naming `where` the id came from."""
    problem = id_problem(plugin_id)
    if problem is not None:
        raise VoraError("invalid", f"{where}: plugin id {plugin_id!r} {problem}",
                        "use a name like my-engine or @scope/my-engine")
    return plugin_id


# The longest file name (bytes) the common file systems take (ext4, xfs, btrfs, APFS, NTFS).
MAX_FOLDER_NAME_BYTES = 255


def install_id_problem(plugin_id: str) -> str | None:
    """Why a valid plugin id still cannot be installed, or None: discovery skips names starting
    with `.` (spec plugins.md, "Where plugins are found"), and file systems refuse names over
    255 bytes, so the install could not be found again. Refused before anything is copied.
    """
    if plugin_id.startswith("."):
        return ("starts with '.': plugin folders whose name starts with '.' are skipped when plugins are found, "
                "so it would be recorded and then never loaded")
    size = len(folder_name_for_id(plugin_id).encode("utf-8", "surrogatepass"))
    if size > MAX_FOLDER_NAME_BYTES - len(".tmp"):  # room for a script suffix (.mjs, .cjs)
        return (f"is too long: its folder in the extensions dir would be named with {size} bytes, "
                f"and file systems allow {MAX_FOLDER_NAME_BYTES}")
    return None


def require_installable_id(plugin_id: str, where: str) -> None:
    """Raise `invalid` naming `where` (the manifest, or the file) when `install_id_problem` says so."""
    problem = install_id_problem(plugin_id)
    if problem is not None:
        shown = plugin_id if len(plugin_id) <= 60 else plugin_id[:40] + "…"
        raise VoraError("invalid", f"{where}: plugin id {shown!r} {problem}",
                        "give the plugin a short id that starts with a letter or digit, e.g. my-engine")


def folder_name_for_id(plugin_id: str) -> str:
    """The folder name of a plugin in `<stateDir>/extensions/` (spec; docs/plugins.md reads
    "reduced to" as "characters outside the set are dropped")."""
    if is_scoped(plugin_id):
        import hashlib  # lazy: only a scoped id needs it; readers (`vora doctor`) never do

        digest = hashlib.sha256(plugin_id.encode("utf-8")).hexdigest()[:10]
        return "@" + re.sub(_FOLDER_SAFE, "", plugin_id) + "-" + digest
    return plugin_id.replace("/", "__").replace("\\", "__")
