"""Proximity (docs/recall.md, "Words held together"): how much of the question a
memory holds in one place.

A note about what is asked holds the question's words together ("Refresh tokens
are rotated", "the coverage threshold is 85%"); a note that holds them far apart
mentions each in passing, about something else. Ranking counts the words a note
holds within SPAN characters of one another at their coverage level, and the words
it holds only elsewhere at APART of it: a note never ranks lower for holding one
more word, and a note holding a single word of the question is judged as before.
Coverage itself, and with it the floor and weak evidence, is left as it was.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence

from synapse_git.recall import coverage, word_forms
from synapse_git.recall.query_terms import Term

# About ten words, a clause. Tuned on the dev sets (tests/recall/sets): 40 split
# "Code owners for payments/ are the payments team; changes there ..." (`code`,
# `changes`) and ranked a note naming one word of the question above it; 60 keeps
# it and still ranks "Deploys go out ..." above a note of 10,000 holding
# `processed` and `deploys` 140 characters apart. APART was set first and kept.
SPAN = 60
APART = 0.5


@functools.lru_cache(maxsize=4096)
def _pattern(word: str) -> re.Pattern[str]:
    """The word itself or a word starting with its family key less its last letter
    (every member of the family does: `deploy` for `deployment`), standing alone."""
    key = word_forms.family(word)
    stem = key[:-1] if len(key) > 3 else word
    return re.compile(r"(?<![a-z0-9])(?:" + re.escape(word) + "|" + re.escape(stem) + r"[a-z0-9]*)")


def _places(text: str, word: str) -> list[int]:
    """Where `text` (lowered) holds `word` or another form of it."""
    key = word_forms.family(word)
    return [
        found.start()
        for found in _pattern(word).finditer(text)
        if found.group() == word or word_forms.family(found.group()) == key
    ]


def _together(places: Sequence[tuple[int, int, float]]) -> float:
    """The most weight held within SPAN characters: `places` are (offset, term,
    weight) of the terms' occurrences; a term counts once in a window."""
    ordered = sorted(places)
    best = 0.0
    for start, (at, _, _) in enumerate(ordered):
        seen: dict[int, float] = {}
        for other_at, term, weight in ordered[start:]:
            if other_at - at > SPAN:
                break
            seen[term] = weight
        best = max(best, sum(seen.values()))
    return best


def shares(
    texts: Mapping[int, str],
    terms: Sequence[Term],
    weights: Mapping[str, float],
    found: Mapping[int, coverage.Held],
) -> dict[int, float]:
    """Each memory's share of the question for ranking: its coverage, with the words
    held away from the rest of the question's words counted at APART."""
    if sum(1 for term in terms if not term.substring) < 2:
        # Fewer than two words to hold together: every memory keeps its coverage.
        return {memory_id: found[memory_id].share for memory_id in texts}
    total = sum(weights.get(term.word, 1.0) for term in terms) or 1.0
    out: dict[int, float] = {}
    for memory_id, text in texts.items():
        held = found[memory_id]
        placed = [
            (term, level)
            for term, level in zip(terms, held.levels, strict=True)
            if level in (coverage.EXACT, coverage.STEM) and not term.substring
        ]
        # A long text is already judged by its best window (coverage.LONG).
        if len(placed) < 2 or len(text) > coverage.LONG:
            out[memory_id] = held.share
            continue
        lower = text.lower()
        fixed = held.share * total - sum(weights.get(t.word, 1.0) * lv for t, lv in placed)
        places: list[tuple[int, int, float]] = []
        whole = 0.0
        for n, (term, level) in enumerate(placed):
            weight = weights.get(term.word, 1.0) * level
            at = _places(lower, term.word)
            if not at:
                # Held another way (a compound, a phrase): nowhere to measure from.
                fixed += weight
                continue
            whole += weight
            places += [(each, n, weight) for each in at]
        near = _together(places) if places else whole
        out[memory_id] = (fixed + near + APART * (whole - near)) / total
    return out
