"""What in a line of code only names a secret (docs/secrets.md, "Code"): a code scan quotes plugin
and skill code through `Masker.code`, which hides what `secrets` hides but keeps these names.
"""

from __future__ import annotations

import re

from vora_cli.core.secrets import _STRING_LITERAL, AUTH_SCHEMES, REDACTED, _mixed_run

# A line of code names secrets it does not hold (docs/secrets.md, "Code"). There a value is a
# literal in quotes or it is code: a property chain (`process.env.GEMINI_API_KEY`, `opts.apiKey`,
# `process.env['X']`), a call (`getEnv(`) or an environment variable's name (`'GEMINI_API_KEY'`,
# `$X`, `${X}`), and none of those is a credential. A string literal is read whole, so a chain or
# a name inside it (`"abc.defGhi"`, `"x-ABC_DEF"`) is the literal's, never taken for code; in a
# template literal the `${…}` substitutions are code.
_JS_NAME = r"[A-Za-z_$][\w$]*+"
_ENV_NAME = r"[A-Z][A-Z0-9]*+(?:_[A-Z0-9]++)++"
_NOT_AFTER = r"(?<![\w.~+/=:-])"  # a name starts no token or path word (`$X` is a shell's)
_NOT_BEFORE = r"(?![\w$.~+/=:-])"
_ACCESS = (rf"\s*+(?:\??\.\s*+{_JS_NAME}|(?:\?\.)?\[\s*+(?:{_JS_NAME}|'{_ENV_NAME}'|\"{_ENV_NAME}\")\s*+\])")
_CODE_TOKEN = (
    rf"(?P<literal>{_STRING_LITERAL}|`[^`\\\n]*+(?:\\.[^`\\\n]*+)*+`?)"
    rf"|(?P<chain>(?<![\w$.]){_JS_NAME}(?:{_ACCESS})++)"
    rf"|(?P<call>(?<![\w$.]){_JS_NAME})(?=\s*+\()"
    rf"|{_NOT_AFTER}(?P<env>{_ENV_NAME}){_NOT_BEFORE}"
)
_SUBSTITUTION = rf"\$\{{\s*+(?P<code>{_JS_NAME}(?:{_ACCESS})*+)\s*+\}}"


def code_reference_spans(line: str) -> list[tuple[int, int]]:
    """Where a line of code names a secret without holding one: its property chains, callees and
    environment variable names outside string literals, a literal that is only an environment
    variable's name and that an index or a getter looks up, and the code inside a template literal's
    `${…}`. None is shaped like a token, and a name is mostly letters (`_name_shaped`)."""
    keep: list[tuple[int, int]] = []
    for m in re.finditer(_CODE_TOKEN, line):
        literal = m.group("literal")
        if literal is None:
            if m.lastgroup in ("env", "call") and not _name_shaped(m.group(m.lastgroup)):
                continue  # `apiKey: A1B2C3D4_E5F6G7H8 (staging)` in a comment is a value
            span = m.span(m.lastgroup or 0)  # the chain, the callee or the name
        else:
            body = literal[1:-1] if len(literal) > 1 and literal[-1] == literal[0] else literal[1:]
            if literal[0] == "`":
                keep += [(m.start() + 1 + s.start("code"), m.start() + 1 + s.end("code"))
                         for s in re.finditer(_SUBSTITUTION, body) if not _mixed_run(s.group("code"))]
                continue
            if re.fullmatch(_ENV_NAME, body) is None or not _name_shaped(body) or not _looked_up(line, m.start()):
                continue
            span = (m.start() + 1, m.start() + 1 + len(body))
        if span[1] - span[0] < 12 or not _mixed_run(line[span[0] : span[1]]):  # a token in a comment (`eyJhbGciOiJIUzI1NiJ9.c2Vj`)
            keep.append(span)
    return keep


# How far before a string literal `_looked_up` reads for its callee: a callee name cut by it still
# ends in what decides (`get`, `getenv`, `require`, `…env`).
_LOOK_BACK = 256


def _looked_up(line: str, at: int) -> bool:
    """The string literal at `at` is what an index or a getter looks up (`env['X']`, `getEnv('X')`,
    `Deno.env.get('X')`): the name of a variable. In a value's place (after `=`, `:`, `??`) or
    handed to any other call (`Buffer.from('X')`, `login('X')`) it may be the value itself, and a
    password may well look like a name (`HUNTER2_HUNTER2`)."""
    before = line[max(0, at - _LOOK_BACK) : at].rstrip()  # bounded: each literal costs the same, on any line
    if not before or before[-1] not in "([":
        return False
    head = before[:-1].rstrip()
    if before[-1] == "[":
        return bool(head) and (head[-1].isalnum() or head[-1] in "_$)].")  # `env?.["X"]` too
    callee = re.search(r"[A-Za-z_$][\w$]*$", head)
    return callee is not None and re.fullmatch(r"(?i)get|getenv|require|\w*env", callee.group()) is not None


def _name_shaped(name: str) -> bool:
    """An environment variable's name, not a key that looks like one: mostly letters
    (`OPENAI_API_KEY_2`, not `A1B2C3D4_E5F6G7H8`)."""
    digits = sum(c.isdigit() for c in name)
    return digits * 4 <= sum(c.isalnum() for c in name)


# What is left of a secret's span around the names kept shows only when it is code's glue: blanks,
# operators and brackets, a JavaScript constant, an auth scheme word (`Bearer ${process.env.X}`).
_CODE_GLUE = " \t?|&!,;:()[]{}=+.'\"`$"
_CODE_WORDS = frozenset({"null", "undefined", "true", "false", "void", "new", "await"})


def to_expression_end(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Each value span of a line of code run on to the end of its expression (a `,` or `;`
    outside brackets and strings, an unopened closing bracket, the line's end), so a fallback
    literal is hidden too (`process.env.KEY || "d8e8…"`); `outside_references` then keeps what
    only names. Spans that meet are joined."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:  # within the last one's expression: it runs on from there
            first, reached = out.pop()
            a, b = first, max(b, reached)
        i, depth, quote, n = b, 0, "", len(text)
        while i < n:
            c = text[i]
            if quote:
                if c == "\\":
                    i += 1
                elif c == quote:
                    quote = ""
            elif c in "\"'`":
                quote = c
            elif c in "([{":
                depth += 1
            elif c in ")]}":
                if not depth:
                    break
                depth -= 1
            elif c in ",;" and not depth:
                break
            i += 1
        end = len(text[b:i].rstrip()) + b
        out.append((a, max(b, end)))
    return out


def outside_references(text: str, spans: list[tuple[int, int]], keep: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans` (of values to hide in `text`) without the ranges `keep` names (in order, apart): a
    span that holds one is cut around it, and of its pieces only those holding more than glue stay
    (trimmed of it)."""
    if not keep:
        return spans
    from bisect import bisect_right

    ends = [b for _a, b in keep]  # in order, as `code_reference_spans` finds them apart
    out: list[tuple[int, int]] = []
    for start, end in spans:
        inside = []
        for a, b in keep[bisect_right(ends, start):]:
            if a >= end:
                break
            inside.append((a, b))
        if not inside:
            out.append((start, end))
            continue
        at = start
        for a, b in (*inside, (end, end)):
            piece_start, piece_end = at, min(a, end)
            while piece_start < piece_end and text[piece_start] in _CODE_GLUE:
                piece_start += 1
            while piece_end > piece_start and text[piece_end - 1] in _CODE_GLUE:
                piece_end -= 1
            word = text[piece_start:piece_end].lower()
            if word and word != REDACTED and word not in _CODE_WORDS and word not in AUTH_SCHEMES:
                out.append((piece_start, piece_end))
            at = max(at, b)
    return out
