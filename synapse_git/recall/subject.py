"""Subject (docs/recall.md, "The subject of a note"): how much of the question a
memory holds in its opening words, where a note names what it is about.

A note is usually written subject first ("Migrations are written with
Alembic; ..."): a question word in the opening words is what the note is
about, the same word at its end (a file name, an aside) is a detail. Ranking
adds this share (times WEIGHT) to a memory's score, not to its coverage: it
orders the answers and leaves the floor and weak evidence as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

from synapse_git.recall import coverage, word_forms
from synapse_git.recall.query_terms import Term

# Tuned on the dev sets (tests/recall/sets): four or more words reach into the
# note's details, a smaller weight leaves a derived form held late in a note
# (`deployment` in an aside) above the note about the word (`Deploys go out ...`).
OPENING = 3
WEIGHT = 0.5
_OPENING_CHARS = 80


def opening(text: str) -> str:
    """The first OPENING words of `text` (split at spaces), lower-cased."""
    # Cut before splitting: a body may be 16 KiB and only its opening is wanted.
    return _opening(text[:_OPENING_CHARS])


# Remembered by the opening alone: recall asks it of the same candidates again.
@functools.lru_cache(maxsize=4096)
def _opening(start: str) -> str:
    return " ".join(start.lower().split(maxsplit=OPENING)[:OPENING])


def _starts_word(key: str, text: str) -> bool:
    """Whether a word of `text` starts with `key` (`deploy` in `deploys go out`)."""
    at = text.find(key)
    while at >= 0:
        if at == 0 or not text[at - 1].isalnum():
            return True
        at = text.find(key, at + 1)
    return False


def held(
    texts: Mapping[int, str],
    terms: Sequence[Term],
    weights: Mapping[str, float],
    found: Mapping[int, coverage.Held],
) -> dict[int, float]:
    """The rarity-weighted share of the question each memory holds in its opening
    words, at the level it holds each term (`found`), times WEIGHT: what ranking
    adds to its score."""
    total = sum(weights.get(term.word, 1.0) for term in terms) or 1.0
    # A term is in the opening when one of its keys starts a word there: its
    # family (`deploy` for `deployment`) or, for a word of the same meaning, theirs.
    keyed = [
        (
            {term.raw, word_forms.family(term.word), *map(word_forms.family, term.alike)},
            weights.get(term.word, 1.0) / total,
        )
        for term in terms
    ]
    out: dict[int, float] = {}
    # Loops written out, with no generator a term: this runs for every candidate.
    for memory_id, text in texts.items():
        levels = found[memory_id].levels
        share = 0.0
        if any(levels):
            start = _opening(text[:_OPENING_CHARS])
            for (keys, weight), level in zip(keyed, levels, strict=True):
                if level:
                    for key in keys:
                        if key in start and _starts_word(key, start):
                            share += weight * level
                            break
        out[memory_id] = WEIGHT * share
    return out
