"""The dense list's part in abstention: what meaning alone, or words without
meaning, make of a candidate (no model needed)."""

from __future__ import annotations

from synapse_git.recall.query_terms import parse
from synapse_git.recall.ranking import Candidate, Search
from synapse_git.semantic import fusion


def _fused(cosines: dict[int, float], dense: list[tuple[int, float]]) -> dict[int, Candidate]:
    query = parse("who approves vacation requests")
    # Memory 1 holds two of the question's words; the others only the dense list found.
    lexical = Candidate(1, 1, None, 0.6, ("approv", "request"), share=0.6)
    found = Search(query, 10, (lexical,), None, None, ())
    return {c.id: c for c in fusion.fuse(found, dense, cosines).candidates}


def test_a_memory_found_by_meaning_alone_is_weak_below_the_sure_bar() -> None:
    got = _fused({1: 0.5}, [(2, 0.45), (3, 0.36)])
    assert not got[2].weak
    # Covers 0.36 of the question by its cosine, above the lexical weak share,
    # yet nearer a guess than an answer.
    assert got[3].weak
    assert not got[1].weak


def test_a_memory_sharing_words_but_far_in_meaning_is_weak() -> None:
    got = _fused({1: fusion.LEAST - 0.05}, [])
    assert got[1].share == 0.6 and got[1].weak
    assert got[1].as_json()["weak"] is True
