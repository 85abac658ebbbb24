"""Subject (docs/recall.md, "The subject of a note"): how much of the question a
memory holds in its opening words, where a note names what it is about.

A note is usually written subject first ("Migrations are written with
Alembic; ..."): a question word in the opening words is what the note is
about, the same word at its end (a file name, an aside) is a detail. Ranking
adds this share (times WEIGHT) to a memory's score, not to its coverage: it
orders the answers and leaves the floor and weak evidence as they were.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from synapse_git.recall import coverage, query_terms, vocabulary, word_forms
from synapse_git.recall.query_terms import Term

# Tuned on the dev sets (tests/recall/sets): four or more words reach into the
# note's details, a smaller weight leaves a derived form held late in a note
# (`deployment` in an aside) above the note about the word (`Deploys go out ...`).
OPENING = 3
WEIGHT = 0.5
_OPENING_CHARS = 80


def opening(text: str) -> str:
    """The first OPENING words of `text`."""
    # Cut before tokenizing: a body may be 16 KiB and only its opening is wanted.
    return " ".join(query_terms.tokens(text[:_OPENING_CHARS])[:OPENING])


def _in(term: Term, family: str, level: float, words: set[str], families: set[str]) -> bool:
    if family in families:
        return True
    if level == coverage.TYPO:
        return any(word_forms.close(term.word, word) for word in words)
    return level == coverage.SYNONYM and vocabulary.held(term.alike, words, families, "")


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
    keyed = [(t, word_forms.family(t.word), weights.get(t.word, 1.0) / total) for t in terms]
    out: dict[int, float] = {}
    for memory_id, text in texts.items():
        levels = found[memory_id].levels
        share = 0.0
        if any(levels):
            words = {
                query_terms.fold(w) for w in query_terms.tokens(text[:_OPENING_CHARS])[:OPENING]
            }
            families = {word_forms.family(word) for word in words}
            share = sum(
                weight * level
                for (t, family, weight), level in zip(keyed, levels, strict=True)
                if level and _in(t, family, level, words, families)
            )
        out[memory_id] = WEIGHT * share
    return out
