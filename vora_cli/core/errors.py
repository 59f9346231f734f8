"""The one error type of vora, and its closed list of codes.

Core raises ``VoraError``; the CLI boundary (``vora_cli.cli.app``) turns it into a one-line
message or a JSON error document and an exit code. Commands do not catch it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Final

# code -> (exit code, what it means). The list is closed and documented in docs/errors.md;
# tests/cli/common/test_root_app.py fails when the two drift apart.
ERROR_CODES: Final[dict[str, tuple[int, str]]] = {
    "usage": (2, "the command line is wrong: unknown option, bad argument, invalid profile name"),
    "not_found": (1, "a file, path, plugin, device or request that was named does not exist"),
    "parse_error": (1, "a file vora must read does not parse (the message gives file:line:col)"),
    "invalid": (1, "a value or file parses but breaks a rule (type, schema, manifest, archive entry)"),
    "refused": (1, "vora will not do this as asked (policy, safety or ambiguity); the hint says how to proceed"),
    "exists": (1, "the target already exists; the hint names the flag that replaces it"),
    "confirmation_required": (1, "the action needs a confirmation that cannot be asked here (no terminal, or --json)"),
    "io_error": (1, "the operating system refused a read or write; the message names the file and the OS reason"),
    "external": (1, "an external tool (npm, $EDITOR) failed; its own message is included"),
    "session_not_found": (1, "no session in the store matches the key, request key or session id given"),
    "agent_not_found": (1, "the --agent id is not one of the configured agents"),
    "store_unreadable": (1, "a session store (sessions.json) does not parse or its top level is not an object"),
    "conflict": (3, "another writer changed the file or holds the lock; nothing was written, safe to retry"),
    "gateway-unreachable": (1, "no gateway answered at the URL (connection refused or the host is unreachable)"),
    "gateway-timeout": (1, "the gateway did not answer within --timeout (open, handshake or a call)"),
    "gateway-insecure-url": (1, "a plaintext ws:// URL to a host that is not loopback was refused before connecting"),
    "gateway-auth": (1, "the gateway refused the token or password; the message names where it came from"),
    "gateway-device-auth": (1, "the gateway refused this host's device signature (identity, clock)"),
    "gateway-pairing-required": (1, "this device must be approved first; the hint gives the vora devices approve command"),
    "gateway-protocol": (1, "the other end does not speak the gateway protocol vora speaks (or refused connect)"),
    "gateway-closed": (1, "the gateway closed the connection in the middle of a call (the close code and reason are given)"),
    "gateway-method-error": (1, "the gateway answered a method call with an error (METHOD: CODE: message)"),
    "internal": (1, "a bug in vora; rerun with VORA_DEBUG=1 for the traceback"),
}


class VoraError(Exception):
    """A failure an operator can act on: a stable code, a one-line message and a next step."""

    def __init__(self, code: str, message: str, hint: str | None = None) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint

    @property
    def exit_code(self) -> int:
        return ERROR_CODES[self.code][0]

    def to_dict(self) -> dict[str, str | None]:
        return {"code": self.code, "message": self.message, "hint": self.hint}


class ParseError(VoraError):
    """A file that does not parse. Where it fails is data (`file`, `line`, `col`, 1-based); the
    message is built from the fields, never parsed back. `quoted` (a word of the description,
    followed by `then`) and `found` (the excerpt at the position) are data too; `hidden` shows
    both as "<redacted>" when the position is inside or beside a secret. `key_path`: the keys
    and indexes the position is inside, outermost first, so a position at one of the gateway's
    secret paths is hidden too.
    """

    def __init__(self, file: str, line: int, col: int, what: str, hint: str | None = None, *,
                 quoted: str | None = None, then: str = "", found: str | None = None,
                 hidden: bool = False) -> None:
        from vora_cli.core.secrets import REDACTED

        def shown(text: str) -> str:
            return REDACTED if hidden else repr(text)

        described = what if quoted is None else f"{what}{shown(quoted)}{then}"
        if found is not None:
            described += f" (found {shown(found)})"
        super().__init__("parse_error", f"{file}:{line}:{col}: {described}", hint)
        self.file = file
        self.line = line
        self.col = col
        self.what = described
        self.found = REDACTED if hidden and found is not None else found
        self.hidden = hidden
        self.key_path: tuple[str | int, ...] = ()
        self._parts = (what, quoted, then, found)

    def _copy(self, hint: str | None, hidden: bool) -> ParseError:
        what, quoted, then, found = self._parts
        copy = ParseError(self.file, self.line, self.col, what, hint, quoted=quoted, then=then,
                          found=found, hidden=hidden)
        copy.key_path = self.key_path
        return copy

    def inside(self, key: str | int | None) -> ParseError:
        """This error, its position inside the member `key` of the container around it (the parser
        tells the path as the error leaves each container)."""
        if key is not None:
            self.key_path = (key, *self.key_path)
        return self

    def with_hint(self, hint: str | None) -> ParseError:
        return self._copy(hint, self.hidden)

    def hiding_values(self) -> ParseError:
        """The same error with the quoted text redacted (it sits inside a secret)."""
        return self if self.hidden else self._copy(self.hint, True)
