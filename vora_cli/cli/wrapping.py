"""How vora folds text to a terminal's width: at word boundaries only, never inside a word, a
flag (`--fix-id`), a path or a command (docs/terminal.md, "Line wrapping").

`wrap_words` folds prose (help text, a doctor line) with a hanging indent; `wrap_command`
folds one shell command between its words, ending every line but the last in ` \\`, so what
is printed still runs when pasted.
"""

from __future__ import annotations

_TEXTWRAP_SPACE = "\t\n\x0b\x0c\r"  # the whitespace textwrap turns into spaces (besides " ")


def wrap_words(text: str, width: int, *, indent: str = "", hanging: str | None = None) -> list[str]:
    """`text` as lines of at most `width` characters, broken at spaces only (a word longer than
    the line stays whole on a line of its own); `hanging` indents every line after the first
    (default: as the first)."""
    if not text.strip():
        return [indent.rstrip()] if indent else [""]
    # A line that fits is what textwrap would make of it, without importing textwrap:
    # its trailing spaces dropped, its leading ones kept.
    # (textwrap splits at ASCII blanks but drops a last piece that is all Unicode space: not here)
    line = indent + text.rstrip(" ")
    if len(line) <= max(width, len(indent) + 1) and not any(c in text for c in _TEXTWRAP_SPACE) \
            and not line[-1:].isspace():
        return [line]
    import textwrap

    lines = textwrap.wrap(text, max(width, len(indent) + 1), initial_indent=indent,
                          subsequent_indent=indent if hanging is None else hanging,
                          break_long_words=False, break_on_hyphens=False)
    return lines or [indent]


def wrap_paragraphs(text: str, width: int, *, indent: str = "") -> list[str]:
    """`wrap_words` for each blank-line-separated paragraph, a blank line between them. A paragraph
    that starts with click's no-rewrap marker (`\\b`) keeps its lines as written."""
    out: list[str] = []
    for number, paragraph in enumerate(text.split("\n\n")):
        if number:
            out.append("")
        if paragraph.startswith("\b"):
            out.extend(indent + line for line in paragraph.splitlines()[1:])
        else:
            out.extend(wrap_words(" ".join(paragraph.split()), width, indent=indent))
    return out


def shell_words(command: str) -> list[str]:
    """The words of a shell command as written (quotes kept): split at blanks outside quotes."""
    words: list[str] = []
    current: list[str] = []
    quote: str | None = None
    escaped = False
    for char in command:
        if escaped:
            current.append(char)
            escaped = False
        elif char == "\\" and quote != "'":
            current.append(char)
            escaped = True
        elif quote is not None:
            current.append(char)
            if char == quote:
                quote = None
        elif char in "'\"":
            current.append(char)
            quote = char
        elif char in " \t":
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(char)
    if current:
        words.append("".join(current))
    return words


def wrap_command(command: str, width: int, *, indent: str = "", continuation: str = "    ") -> list[str]:
    """One shell command in lines of at most `width` characters where it can be: broken between
    words, every line but the last ending in ` \\`, the next indented by `continuation` more."""
    if len(indent) + len(command) <= width:
        return [indent + command]
    lines: list[str] = []
    line = indent
    for word in shell_words(command):
        if line.strip() and len(line) + 1 + len(word) + 2 > width:
            lines.append(line + " \\")
            line = indent + continuation + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    lines.append(line)
    return lines
