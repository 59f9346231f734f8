"""`--query EXPR`: the fields of a command's JSON document a script wants, selected with JMESPath
(docs/exit-codes-and-json.md, "Selecting fields"). `jmespath` is imported only by a run with `--query`.
"""

from __future__ import annotations

from vora_cli.core.errors import VoraError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

HINT = ("JMESPath, as the AWS CLI takes it: a field `ok`, a nested one `summary.warn`, a list's "
        "`checks[].id`, a filter \"checks[?status=='warn'].id\"")


def _fields_hint(command: str | None) -> str:
    if command:
        from vora_cli.cli.json_fields import FIELDS

        fields = [f for f in FIELDS.get(command, ()) if "." not in f and "[" not in f]
        if fields:
            return f"the fields of {command}'s document: {', '.join(fields)}; {HINT}"
    return HINT


def compile_query(expression: str, command: str | None = None) -> Any:
    """The compiled expression, or a `usage` error naming where it stops parsing."""
    import jmespath
    from jmespath import exceptions

    try:
        return jmespath.compile(expression)
    except exceptions.IncompleteExpressionError:
        message = f"invalid --query {expression!r}: it ends too early (position {len(expression) + 1})"
    except exceptions.LexerError as error:
        message = (f"invalid --query {expression!r}: unexpected {error.lexer_value!r} at position "
                   f"{(error.lexer_position or 0) + 1}")
    except exceptions.ParseError as error:
        token = "the end" if error.token_type == "eof" else repr(error.token_value)
        message = f"invalid --query {expression!r}: unexpected {token} at position {(error.lex_position or 0) + 1}"
    except exceptions.JMESPathError as error:
        message = f"invalid --query {expression!r}: {error}"
    except RecursionError:  # jmespath's parser recurses once per nesting level
        message = f"invalid --query {_shown(expression)}: nested too deeply for the parser"
    raise VoraError("usage", message, _fields_hint(command))


def _shown(expression: str) -> str:
    return repr(expression) if len(expression) <= 80 else f"{expression[:60]!r}… ({len(expression)} characters)"


def select_fields(expression: str, payload: Any, command: str | None = None) -> Any:
    """What `expression` selects from `payload` (a command's JSON document, as JSON data: a tuple
    is a list to JMESPath as it is to every JSON reader)."""
    from jmespath import exceptions

    from vora_cli.cli.json_text import to_json
    from vora_cli.core.nesting import loads

    compiled = compile_query(expression, command)
    data = loads(to_json(payload, indent=None, ascii_only=False))
    try:
        return compiled.search(data)
    except exceptions.JMESPathError as error:
        # found only on the document: the command has run (a write is done); its output is this error
        raise VoraError("usage", f"--query {expression!r} does not apply to the document: {error}",
                        _fields_hint(command)) from None
    except RecursionError:
        raise VoraError("usage", f"--query {_shown(expression)} is nested too deeply to apply",
                        _fields_hint(command)) from None
