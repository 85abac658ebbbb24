"""Subject (docs/recall.md, "The subject of a note"): how much of the question a
memory holds in its opening words, where a note names what it is about.

A note is usually written subject first ("Migrations are written with
Alembic; ..."): a question word in the opening words is what the note is
about, the same word at its end (a file name, an aside) is a detail. Ranking
adds this share (times WEIGHT) to a memory's score, not to its coverage: it
orders the answers and leaves the floor and weak evidence as they were.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from synapse_git.recall import coverage, query_terms
from synapse_git.recall.query_terms import Term

# Tuned on the dev sets (tests/recall/sets): four or more words reach into the
# note's details, a smaller weight leaves a derived form held late in a note
# (`deployment` in an aside) above the note about the word (`Deploys go out ...`).
OPENING = 3
WEIGHT = 0.5


def opening(text: str) -> str:
    """The first OPENING words of `text`."""
    return " ".join(query_terms.tokens(text)[:OPENING])


def held(
    texts: Mapping[int, str],
    terms: Sequence[Term],
    weights: Mapping[str, float],
    misspelled: Iterable[str] = (),
) -> dict[int, float]:
    """The rarity-weighted share of the question each memory holds in its opening
    words (levels as in coverage), times WEIGHT: what ranking adds to its score."""
    wrong = set(misspelled)
    total = sum(weights.get(term.word, 1.0) for term in terms) or 1.0
    out: dict[int, float] = {}
    for memory_id, text in texts.items():
        words = coverage.Words(opening(text))
        share = sum(weights.get(t.word, 1.0) * words.level(t, t.word in wrong) for t in terms)
        out[memory_id] = WEIGHT * share / total
    return out
