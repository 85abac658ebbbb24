"""The dense list's part in abstention: what meaning alone, or words without
meaning, make of a candidate (no model needed)."""

from __future__ import annotations

from dataclasses import replace

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


def _reworded(agreed: bool) -> Candidate:
    """Memory 1 as the union of a question and rewordings gives it: two of the
    wordings' eight terms, an answer by the rewordings' agreement or by nothing;
    memory 2, near the question in meaning, is kept either way."""
    rewordings = parse("who approves vacation requests holiday leave sign off")
    lexical = Candidate(
        1, 1, None, 0.6, ("holiday", "leave"), share=1.0, evidence=0.2, agreed=agreed
    )
    if agreed:
        lexical = replace(lexical, evidence=0.5)
    near = Candidate(2, 2, None, 0.5, ("approv",), share=0.2)
    found = Search(rewordings, 10, (lexical, near), None, None, ())
    out = fusion.fuse(found, [], {1: fusion.LEAST - 0.1, 2: fusion.LEAST + 0.1}).candidates
    return next(c for c in out if c.id == 1)


def test_a_memory_the_rewordings_agree_on_is_an_answer_far_from_the_question() -> None:
    """The cosine is the question's: the caller reworded it because a note's words
    (and meaning, to the model) differ from it."""
    out = _reworded(agreed=True)
    assert out.verdict == "kept" and not out.weak


def test_a_memory_the_rewordings_do_not_agree_on_is_cut_far_from_the_question() -> None:
    out = _reworded(agreed=False)
    assert out.verdict.startswith("floor") and out.weak


def test_a_question_keeps_its_best_guess_when_every_candidate_is_far() -> None:
    """Each holds one of four terms and is far in meaning: the floor would cut them
    all, yet as with the lexical floor the best is kept, as a weak guess."""
    query = parse("who approves vacation requests")
    guesses = (
        Candidate(1, 1, None, 0.5, ("vacation",), share=0.3),
        Candidate(2, 2, None, 0.4, ("request",), share=0.2),
    )
    found = Search(query, 10, guesses, None, None, ())
    best, other = fusion.fuse(found, [], {1: 0.1, 2: 0.1}).candidates
    assert best.id == 1 and best.verdict == "kept" and best.weak
    assert other.verdict.startswith("floor")
