"""Rewordings (docs/recall.md, "Rewordings"): the caller's question plus up to
MAX_ALTERNATIVES other wordings of it, each ranked on its own and fused by
reciprocal rank, the original weighted highest; one floor and (in response.py)
one limit and one budget over the union.

The caller is usually a language model: it knows the question's meaning, not
the words a note used, and can guess those words (likely terms, identifiers,
synonyms) where a model-free index cannot.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.recall import (
    alike,
    coverage,
    query_terms,
    ranking,
    read_texts,
    relevance_floor,
    word_forms,
)
from synapse_git.recall.query_terms import Query, Term
from synapse_git.recall.ranking import Candidate, Search
from synapse_git.recall.records import changed

if TYPE_CHECKING:
    from synapse_git.recall.kept_rows import KeptRows

MAX_ALTERNATIVES = 4
# A rewording's weight against the original's 1.0, in both the coverage and the
# reciprocal rank it adds: the caller's own words stay the strongest evidence.
WEIGHT = 0.8
# How deep a rewording is ranked in each index (the question: ranking.DEPTH). Each
# candidate costs its text's coverage and its place in the union, and what a
# rewording adds comes from its first few matches, which hold most of its words;
# a deeper answer (a limit above ranking.DEPTH) ranks the rewordings as deep.
REWORDED_DEPTH = 20
# A rewording is the caller's guess at a note's words, and short: a note holds
# half of one by chance (one word of two, where the other matched nothing). A
# note the question alone does not answer is an answer by the rewordings only
# when they agree on it: their mean share of it reaches AGREEMENT, so three
# rewordings must add up to 0.9 (most of one, or part of each of several) and
# one alone must hold 0.3 of itself. Tuned on the dev sets (tests/recall/sets)
# with one, two and three rewordings of the questions. The rewordings agree only
# on a candidate holding two words of theirs or the question's (two forms of one
# word counting once), or one word as its subject (_one_word_enough).
AGREEMENT = 0.3


def parse(alternatives: Sequence[str]) -> list[Query]:
    """The rewordings as queries; blank ones are skipped, more than
    MAX_ALTERNATIVES is an error."""
    if len(alternatives) > MAX_ALTERNATIVES:
        raise BadInput(
            f"{len(alternatives)} rewordings given; at most {MAX_ALTERNATIVES} are searched"
        )
    parsed = [query_terms.parse(text) for text in alternatives if text.strip()]
    return [query for query in parsed if not query.empty]


def search(
    conn: sqlite3.Connection,
    queries: Sequence[Query],
    projects: Sequence[str],
    *,
    depth: int = ranking.DEPTH,
    floor: bool = True,
    kept: KeptRows | None = None,
) -> Search:
    """Rank each of `queries` (the original first) and fuse them into one search;
    `kept` holds rows earlier recalls read (recall/kept_rows.py)."""
    shared = read_texts.Shared(kept=kept)
    reworded = depth if depth > ranking.DEPTH else REWORDED_DEPTH
    queries = _distinct(queries)
    found = [
        ranking.search(
            conn,
            query,
            projects,
            depth=reworded if n else depth,
            floor=False,
            shared=shared,
            asked=queries[0],
        )
        for n, query in enumerate(queries)
    ]
    return fused(found, floor=floor)


def fused(searches: Sequence[Search], *, floor: bool = False) -> Search:
    """One search from several: a candidate's share is its best in any of them,
    its score the best weighted share (and opening, recall/subject.py) plus the weighted
    reciprocal ranks; with `floor`, cut below half the best share (relevance_floor.cut_floor)."""
    first = searches[0]
    if len(searches) == 1:
        ranked = relevance_floor.cut_floor(list(first.candidates)) if floor else first.candidates
        return replace(first, candidates=tuple(alike.single_out(ranked)))
    best: dict[int, Candidate] = {}
    weighted: dict[int, float] = {}
    fused: dict[int, float] = {}
    held: dict[int, dict[str, None]] = {}
    literal: dict[int, dict[str, None]] = {}
    asked = {c.id: c.share for c in first.candidates}
    agreed: dict[int, float] = {}
    for n, found in enumerate(searches):
        weight = 1.0 if n == 0 else WEIGHT
        for position, c in enumerate(found.candidates, start=1):
            if n:
                agreed[c.id] = agreed.get(c.id, 0.0) + c.share
            fused[c.id] = fused.get(c.id, 0.0) + weight / (ranking.K + position)
            weighted[c.id] = max(weighted.get(c.id, 0.0), weight * (c.share + c.about))
            held.setdefault(c.id, {}).update(dict.fromkeys(c.held))
            literal.setdefault(c.id, {}).update(dict.fromkeys(c.literal))
            if c.id not in best or c.share > best[c.id].share:
                best[c.id] = c
    top = max((c.share for c in best.values()), default=0.0) if floor else 0.0
    weights: dict[str, float] = {}
    for found in searches:
        for word, weight in found.weights:
            weights[word] = max(weights.get(word, 0.0), weight)
    rarest = max((weights.get(word, 0.0) for words in held.values() for word in words), default=0.0)
    agreement = {
        i: _agreement(agreed.get(i, 0.0), len(searches) - 1)
        if _one_word_enough(held[i], c.about, weights, rarest) or _words(held[i]) >= 2
        else 0.0
        for i, c in best.items()
    }
    # One copy of each candidate, with its score, terms and verdict at once.
    candidates = [
        changed(
            c,
            score=weighted[i] + fused[i],
            held=tuple(held[i]),
            literal=tuple(literal[i]),
            verdict=relevance_floor.floor_verdict(c.share, top) or c.verdict,
            evidence=max(asked.get(i, 0.0), agreement[i]),
            agreed=agreement[i] >= coverage.WEAK_SHARE,
            reworded_only=asked.get(i, 0.0) < coverage.WEAK_SHARE <= agreement[i],
        )
        for i, c in best.items()
    ]
    candidates.sort(key=lambda c: (-c.score, -c.id))
    # Each wording vouched for its own best candidate: the union has its own.
    # An answer of the question alone stays one whatever the rewordings add: only
    # an answer by their agreement, or one alike for the question alone, is judged.
    alone = alike.single_out(relevance_floor.cut_floor(list(first.candidates)))
    candidates = alike.single_out(
        relevance_floor.vouch(candidates, weights), {c.id for c in alone if not c.weak}
    )
    notes = list(first.notes)
    for n, found in enumerate(searches[1:], start=1):
        notes += [f"rewording {n}: {note}" for note in found.notes]
    return Search(
        _joint(first.query, [found.query for found in searches[1:]]),
        first.searched,
        tuple(candidates),
        first.porter_expr,
        first.trigram_expr,
        tuple(notes),
        weights=tuple(weights.items()),
    )


def _agreement(summed: float, rewordings: int) -> float:
    """The mean share of a candidate over the `rewordings`, on the scale of a share
    of the question: AGREEMENT stands at WEAK_SHARE."""
    return summed / rewordings * coverage.WEAK_SHARE / AGREEMENT


def _one_word_enough(
    held: Collection[str], about: float, weights: dict[str, float], rarest: float
) -> bool:
    """Whether rewordings agreeing on a candidate by one word of theirs make it an
    answer: a guess at a note's words ("APNs certificate", "Celery retry policy")
    holds its commonest word in a neighbour by chance, so one word is enough only
    when the note is about it (its opening words) and no candidate holds a rarer
    word of any wording ("test coverage threshold" for "Coverage must stay above
    85%")."""
    return about > 0 and max(weights.get(word, 0.0) for word in held) >= rarest


def _words(held: Collection[str]) -> int:
    """How many words `held` are, two forms of one word (`generated`, `generation`)
    counting once."""
    return len({word_forms.family(word) for word in held})


def _distinct(queries: Sequence[Query]) -> list[Query]:
    """`queries` without a wording whose words an earlier one already searched: a
    repeated rewording would agree with itself."""
    seen: set[frozenset[str]] = set()
    out = []
    for query in queries:
        words = frozenset(term.word for term in query.terms)
        if words not in seen:
            seen.add(words)
            out.append(query)
    return out


def _joint(original: Query, others: Sequence[Query]) -> Query:
    """The original question holding every wording's terms (for excerpts)."""
    terms: dict[str, Term] = {term.word: term for term in original.terms}
    for query in others:
        for term in query.terms:
            terms.setdefault(term.word, term)
    return replace(original, terms=tuple(terms.values()))
