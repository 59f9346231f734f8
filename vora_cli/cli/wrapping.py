"""How vora folds text to a terminal's width: at word boundaries only, never inside a word, a flag, a
path or a command (docs/terminal.md, "Line wrapping").
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



# What stands in for a space inside a span that must stay one unit (a command, a quoted value):
# from the private-use area, so no text vora prints holds it.
_GLUE = "\ue000"
_COMMAND_HEADS = ("completion", "--state-dir", "--config", "--profile", "--dev")
_COMMAND_STOPS = (", ", "; ", ")", " (", "  #")


def _glued(text: str, room: int) -> str:
    """`text` with the blanks inside each unbreakable span glued: a `vora <command> ...` up to the
    end of its clause (`, `, `; `, `(`, `)` or the end), and a '...', "..." or `...` quoted span
    that fits in `room` (a longer one is prose in quotes, folded like any)."""
    from vora_cli.cli.groups import GROUP_NAMES

    out: list[str] = []
    i = 0
    length = len(text)
    while i < length:
        char = text[i]
        if char in "'\"`" and (i == 0 or text[i - 1] in " ("):
            end = text.find(char, i + 1)
            if i < end < i + room:
                out.append(text[i:end + 1].replace(" ", _GLUE))
                i = end + 1
                continue
        if text.startswith("vora ", i) and (i == 0 or text[i - 1] in " (:'`") and \
                text[i + 5:].split(" ", 1)[0] in (*GROUP_NAMES, *_COMMAND_HEADS):
            end = length
            for stop in _COMMAND_STOPS:
                found = text.find(stop, i)
                if found != -1:
                    end = min(end, found)
            end = i + _command_length(text[i:end], GROUP_NAMES)
            out.append(text[i:end].replace(" ", _GLUE))
            i = end
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _command_length(text: str, groups: tuple[str, ...]) -> int:
    """How much of `text` (from a `vora`) is the command: its head (`vora`, global options, the
    group and its command), then options and values, up to a plain word that follows a plain word
    (`vora doctor --live asks the gateway`: the command is `vora doctor --live asks`, a guess that
    errs towards keeping a value with its option)."""
    words = text.split(" ")
    head = 1
    while head < len(words) and words[head].startswith("--"):  # global options: `vora --state-dir X doctor`
        head += 2 if head + 1 < len(words) and not words[head + 1].startswith("-") \
            and words[head + 1] not in groups else 1
    if head < len(words) and words[head] in groups:
        head += 1
    kept = min(len(words), head + 2)  # its command (`show`) and a first argument (`main`)
    for n in range(kept, len(words)):
        word, before = words[n], words[n - 1]
        if word.isalpha() and word.islower() and not before.startswith("-"):
            break
        kept = n + 1
    return len(" ".join(words[:kept]))


def fold_line(text: str, width: int, hanging: str | None = None) -> list[str]:
    """One line of human output in lines of at most `width` characters where it can be: folded at
    blanks (inner runs kept), never inside a word, path or quoted span; a command stays on one
    line, or folds between words with a trailing ` \\` so it still runs when pasted. Later lines
    are indented by `hanging` (default: the line's own indent and two)."""
    if len(text) <= width or " " not in text.strip(" "):
        return [text]
    import re

    body = text.lstrip(" ")
    indent = text[: len(text) - len(body)]
    hanging = indent + "  " if hanging is None else hanging
    pieces = re.split("( +)", _glued(body, width - len(hanging) - 2)
                      if ("vora " in body or "'" in body or '"' in body or "`" in body) else body)
    lines: list[str] = []
    line = indent
    fresh = True  # nothing but the indent on `line` yet
    gap = ""
    for n, piece in enumerate(pieces):
        if n % 2:  # the blanks between two words
            gap = piece
            continue
        if not piece:
            continue
        word = piece.replace(_GLUE, " ")
        if fresh or len(line) + len(gap) + len(word) <= width:
            line = line + word if fresh else line + gap + word
            fresh = False
        else:
            lines.append(line)
            line, fresh = hanging + word, False
        if len(line) > width and _GLUE in piece and "vora " in word:
            # a command longer than what is left: between its own words, each line but the last
            # ending in ` \`, as help's examples are folded
            command = word[word.index("vora "):]
            head = line[: len(line) - len(command)]
            folded = wrap_command(command, width, indent=head if head.strip() else hanging)
            if head.strip() and len(folded[0]) > width:
                lines.append(head.rstrip())
                folded = wrap_command(command, width, indent=hanging)
            lines.extend(folded[:-1])
            line = folded[-1]
    lines.append(line)
    return lines
