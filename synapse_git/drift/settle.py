"""The command that settles a stale memory, printed so that it is safe to paste.

A suggestion is run as printed, by a person or an agent, so it must never
corrupt the memory: a renamed path is replaced only where it stands as a whole
path (`a.py` -> `b.py` leaves `data.py` alone), the full corrected body is
given (never a placeholder the shell would store), and every word is quoted
for a POSIX shell so that nothing in a body or a folder name runs.

Imported by the commit hook: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from synapse_git.escaping import shell_command

# The quoting every output shares, by the name suggestions call it.
command = shell_command

# What may sit next to a path inside a longer path or word; anything else
# (space, quote, backtick, bracket, comma, colon, end of text) ends it.
_PATH_CHARS = frozenset("_-/~+@%")
# An argument longer than this cannot be passed to a program on Linux.
_MAX_ARGUMENT = 100_000


def _joins(char: str) -> bool:
    return char.isalnum() or char in _PATH_CHARS


def _whole(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] stands alone as a path, not inside a longer one."""
    if start > 0 and (_joins(text[start - 1]) or text[start - 1] == "."):
        # `./a.py` names the same file as `a.py`; `x/a.py` and `.a.py` do not.
        dotted = text[max(0, start - 2) : start] == "./"
        if not dotted or (start >= 3 and (_joins(text[start - 3]) or text[start - 3] == ".")):
            return False
    if end < len(text):
        after = text[end]
        # A full stop ends a sentence, not the path, unless a path character follows it.
        if _joins(after) or (after == "." and end + 1 < len(text) and _joins(text[end + 1])):
            return False
    return True


def replace_path(text: str, old: str, new: str) -> str:
    """`text` with each whole occurrence of the path `old` replaced by `new`."""
    if not old:
        return text
    pieces: list[str] = []
    done = 0
    start = text.find(old)
    while start != -1:
        end = start + len(old)
        if _whole(text, start, end):
            pieces += [text[done:start], new]
            done = end
            start = text.find(old, end)
        else:
            start = text.find(old, start + 1)
    return "".join(pieces) + text[done:]


def corrected(body: str, gone: Sequence[str], renamed: Sequence[tuple[str, str]]) -> str | None:
    """`body` naming each gone path by its new name, when every one was renamed and
    the result can be passed as one argument; None otherwise."""
    moved = dict(renamed)
    if not all(path in moved for path in gone):
        return None
    fixed = body
    for path in dict.fromkeys(gone):
        fixed = replace_path(fixed, path, moved[path])
    if fixed == body or "\0" in fixed or len(fixed.encode()) > _MAX_ARGUMENT:
        return None
    return fixed


def stale(
    memory_id: int, body: str, gone: Sequence[str], renamed: Sequence[tuple[str, str]]
) -> str:
    """The command that settles memory `memory_id` naming the `gone` paths.

    When every gone path was renamed, an edit carrying the whole corrected body;
    otherwise (a path deleted outright, a body no argument can carry) forgetting
    the memory, which `synapse memory restore` undoes.
    """
    fixed = corrected(body, gone, renamed)
    if fixed is None:
        return command("synapse", "memory", "forget", str(memory_id))
    return replacing("edit", memory_id, fixed)


def replacing(verb: str, memory_id: int, body: str) -> str:
    """`synapse memory VERB ID -- BODY`: `--` keeps a body that starts with `-`
    (a list item) from being read as an option."""
    return command("synapse", "memory", verb, str(memory_id), "--", body)
