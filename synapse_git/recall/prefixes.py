"""Shared prefixes (docs/recall.md, "Conversations"): a label many memories open with.

A conversation stored a turn a memory opens every turn with its speaker
("Alice: ..."); a log or a team's notes open many with one tag ("Note: ...",
"Standup: ..."). Such a label says who spoke or what kind of note it is, not what
the note is about: a question naming the speaker would otherwise find every turn
of that speaker's, each "about" the question by its opening word. So a question
word a memory holds only in a shared label counts at LEVEL (coverage.py), and the
label is not the memory's opening (subject.py).

A label is shared when it opens two or more of a question's candidates and its
words are in SHARED_AT or more memories of the store (one index count, which the
question's own terms mostly have already): a ticket prefix on a few notes about
that ticket (`PAY-7731: ...`) is what those notes are about, and keeps its weight.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable, Mapping

# One to three words of letters (a name, "Speaker 2", "Dr. Smith") then a colon and
# a space, at the very start of a memory.
_LABEL = re.compile(r"\s*([^\W\d_][\w'.-]*(?:[ ][\w'.-]+){0,2}):[ \t]")
SHARED_AT = 50
# What a question word held only in a shared label is worth: about what a
# substring of a word is (coverage.SUBSTRING), below a word of the same meaning.
LEVEL = 0.3


def label(text: str) -> tuple[str, int] | None:
    """The label `text` opens with, folded, and where the rest of the text starts."""
    return _label(text[:_LABEL_CHARS])


# A label is looked for in a text's opening only, which is all that is remembered:
# recall asks it of the same candidates question after question.
_LABEL_CHARS = 64


@functools.lru_cache(maxsize=4096)
def _label(opening: str) -> tuple[str, int] | None:
    found = _LABEL.match(opening)
    if found is None:
        return None
    return found.group(1).lower(), found.end()


def shared(texts: Mapping[int, str], count: Callable[[str], int]) -> dict[int, tuple[str, int]]:
    """The memories of `texts` that open with a shared label: its words and where
    the rest of the text starts. `count` says how many memories hold a phrase."""
    labels = {memory_id: found for memory_id, text in texts.items() if (found := label(text))}
    times = Counter(found[0] for found in labels.values())
    common = {name for name, n in times.items() if n >= 2 and count(name) >= SHARED_AT}
    return {memory_id: found for memory_id, found in labels.items() if found[0] in common}
