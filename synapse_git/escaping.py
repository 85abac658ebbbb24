"""Text for terminals and agents: control characters shown, never obeyed (docs/json.md),
commands quoted for a shell, and the small wording every output shares.

A memory may have been written by an agent that read hostile input, so a body
can hold ESC sequences (clear the screen, move the cursor, set the clipboard
through OSC 52), C1 controls or bidi overrides that make text read otherwise
than it is, or invisible characters that carry text no one sees. Every
human-readable output passes through `visible`, every JSON output through
`json_text` (the MCP server's messages through `escape_json`);
what is stored is never changed. Light on purpose: the commit hook imports it.
"""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # `typing` is not imported when running: the commit hook uses this
if TYPE_CHECKING:
    from typing import Any

# C0 but newline and tab, DEL, C1, and the bidi controls: embeddings and overrides,
# isolates, the left-to-right/right-to-left marks and the Arabic letter mark.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# Characters no one sees that carry text: the zero-width space, the word joiner and the
# invisible operators, the byte order mark, the deprecated format controls, and the tag
# characters, which spell ASCII that a terminal or a page shows as nothing while a
# language model reads it (an instruction hidden in a memory a person looked over).
# The zero-width joiner and non-joiner stay: scripts and emoji need them.
_INVISIBLE = "\u200b\u2060-\u2064\u206a-\u206f\ufeff\U000e0000-\U000e007f"
# Lone surrogates: a file name or argument that is not UTF-8 (Python's surrogateescape)
# cannot be written to a UTF-8 stream at all.
_SURROGATES = "\ud800-\udfff"
# Compiled on first use, each alone: the commit hook prints through `visible` only,
# and compiling all three classes cost it ~1.7 ms.
_CLASSES = {
    "hidden": f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_INVISIBLE}{_SURROGATES}]",
    "hidden_all": f"[\x00-\x1f\x7f-\x9f{_BIDI}{_INVISIBLE}{_SURROGATES}]",
    # What json.dumps(ensure_ascii=False) leaves raw inside strings (it escapes C0).
    "raw_in_json": f"[\x7f-\x9f{_BIDI}{_INVISIBLE}{_SURROGATES}\u2028\u2029]",
    # The same two classes cut to ASCII: most text is ASCII, and these narrow classes
    # compile in a fraction of the wide ones' time (which reach into the surrogates).
    "hidden_ascii": "[\x00-\x08\x0b-\x1f\x7f]",
    "hidden_all_ascii": "[\x00-\x1f\x7f]",
}
_compiled: dict[str, re.Pattern[str]] = {}


def _class(name: str) -> re.Pattern[str]:
    found = _compiled.get(name)
    if found is None:
        found = _compiled[name] = re.compile(_CLASSES[name])
    return found


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, *, layout: bool = True) -> str:
    """`text` with every control character written out (`\\x1b`, `\\u202e`); newline
    and tab stay as they are when `layout` is true, since they only lay text out."""
    name = "hidden" if layout else "hidden_all"
    if text.isascii():
        if text.isprintable():
            return text
        name += "_ascii"
    return _class(name).sub(_escape, text)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x10000:
        return f"\\u{code:04x}"
    # JSON writes a character past the first plane as its UTF-16 surrogate pair.
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def escape_json(text: str) -> str:
    """JSON text `text` with DEL, C1, bidi controls and line separators, which can
    only stand inside its strings, written as `\\uXXXX` escapes of themselves."""
    if text.isascii() and "\x7f" not in text:
        # DEL is the one ASCII character to escape; two scans in C spare the regex
        # its walk (~5 µs a kilobyte) over every MCP message and JSON answer.
        return text
    return _class("raw_in_json").sub(_json_escape, text)


def json_text(data: Any, **options: Any) -> str:
    """`data` as JSON with non-ASCII text kept readable, but DEL, C1, bidi controls and
    line separators escaped as `\\uXXXX` as well as C0: a parser reads the same strings
    back, a terminal or an agent shown the raw text sees no control characters. They
    can only occur inside JSON strings, where the escape means the same character."""
    return escape_json(json.dumps(data, ensure_ascii=False, **options))


def shell_command(*words: str) -> str:
    """`words` as one POSIX shell command line, each word quoted when it needs it."""
    import shlex  # here: most outputs quote nothing, and the commit hook may not

    return " ".join(shlex.quote(word) for word in words)


def counted(number: int, one: str, many: str | None = None) -> str:
    """`1 memory`, `2 memories`: a count with its noun in the right number."""
    return f"{number} {one if number == 1 else (many or one + 's')}"


def first_line(body: str, width: int = 100) -> str:
    """A body's first non-empty line, shortened to `width` characters for a table."""
    for line in body.splitlines():
        if line.strip():
            line = line.strip().replace("\t", " ")
            return line if len(line) <= width else line[: width - 1] + "…"
    return ""
