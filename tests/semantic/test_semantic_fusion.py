"""The dense list's part in abstention: what meaning alone, or words without
meaning, make of a candidate (no model needed)."""

from __future__ import annotations

from dataclasses import replace

from synapse_git.recall.query_terms import parse
from synapse_git.recall.ranking import Candidate, K, Search
from synapse_git.recall.rewordings import WEIGHT
from synapse_git.semantic import fusion


def _fused(cosines: dict[int, float], dense: list[tuple[int, float]]) -> dict[int, Candidate]:
    query = parse("who approves vacation requests")
    # Memory 1 holds two of the question's words; the others only the dense list found.
    lexical = Candidate(1, 1, None, 0.6, ("approv", "request"), share=0.6)
    found = Search(query, 10, (lexical,), None, None, ())
    return {c.id: c for c in fusion.fuse(found, [dense], [cosines]).candidates}


def test_a_memory_found_by_meaning_alone_is_weak_below_the_sure_bar() -> None:
    got = _fused({1: 0.5}, [(2, 0.45), (3, 0.36)])
    assert not got[2].weak
    # An answer by meaning is scored on the lexical scale: its cosine for the share,
    # and so is a weak guess, so that the guesses nearest in meaning come first.
    assert got[2].score == 0.45 + 1 / (K + 1) and got[3].score == 0.36 + 1 / (K + 2)
    # Covers 0.36 of the question by its cosine, above the lexical weak share,
    # yet nearer a guess than an answer.
    assert got[3].weak
    assert not got[1].weak


def test_a_memory_sharing_words_but_far_in_meaning_is_weak() -> None:
    got = _fused({1: fusion.LEAST - 0.05}, [])
    assert got[1].share == 0.6 and got[1].weak
    assert got[1].as_json()["weak"] is True
    assert got[1].as_json()["why"] == "far in meaning: cosine 0.25 < 0.30 to the question"


def _reworded(agreed: bool, to_rewording: float, porter: int = 1) -> Candidate:
    """Memory 1 as the union of a question and a rewording gives it: two of the
    wordings' eight terms, an answer by the rewordings' agreement or by nothing,
    far from the question in meaning and `to_rewording` from the rewording;
    memory 2, near the question in meaning, is kept either way."""
    question = parse("who approves vacation requests")
    joint = parse("who approves vacation requests holiday leave sign off")
    lexical = Candidate(
        1, porter, None, 0.6, ("holiday", "leave"), share=1.0, evidence=0.2, agreed=agreed
    )
    if agreed:  # the question's own share, 0.2, is weak: an answer by agreement only
        lexical = replace(lexical, evidence=0.5, reworded_only=True)
    near = Candidate(2, 2, None, 0.5, ("approv",), share=0.2)
    found = Search(joint, 10, (lexical, near), None, None, ())
    asked = {1: fusion.LEAST - 0.1, 2: fusion.LEAST + 0.1}
    reworded = {1: to_rewording, 2: 0.2}
    out = fusion.fuse(found, [[], []], [asked, reworded], question).candidates
    return next(c for c in out if c.id == 1)


def test_a_memory_near_a_rewording_is_an_answer_far_from_the_question() -> None:
    """The caller reworded the question because a note's words (and meaning, to
    the model) differ from it: the rewording's vector is near the note."""
    out = _reworded(agreed=True, to_rewording=fusion.SURE + 0.1)
    assert out.verdict == "kept" and not out.weak
    assert isinstance(out, fusion.Blended) and out.near == fusion.SURE + 0.1


def test_a_memory_far_from_the_question_and_every_rewording_is_weak() -> None:
    """Even where the rewordings' words agree on it: it shares their words, not
    their meaning."""
    out = _reworded(agreed=True, to_rewording=fusion.LEAST - 0.1)
    assert out.verdict == "kept" and out.weak
    assert isinstance(out, fusion.Blended)
    assert out.why == "far in meaning: cosine 0.20 < 0.30 to the question and every rewording"
    assert out.as_json()["why"] == out.why


def test_words_the_rewordings_agree_on_need_their_meaning_too() -> None:
    """A guess at the words of a note that is not there agrees on a neighbour
    sharing some of them: between LEAST and AGREED from every wording, the
    agreement alone does not make it an answer."""
    out = _reworded(agreed=True, to_rewording=fusion.AGREED - 0.05)
    assert out.verdict == "kept" and out.weak
    assert out.why == (
        "the rewordings' words agree on it, but cosine 0.40 < 0.45"
        " to the question and every rewording"
    )
    assert not _reworded(agreed=True, to_rewording=fusion.AGREED).weak


def test_a_memory_the_rewordings_do_not_agree_on_is_cut_far_from_them() -> None:
    out = _reworded(agreed=False, to_rewording=fusion.LEAST - 0.1, porter=3)
    assert out.verdict.startswith("floor") and out.weak
    # The first of the porter ranking is not cut, as the lexical floor never cuts the
    # best: it is a weak guess.
    first = _reworded(agreed=False, to_rewording=fusion.LEAST - 0.1)
    assert first.verdict == "kept" and first.weak


def test_a_memory_sharing_no_word_near_a_rewording_only_is_weak() -> None:
    """A rewording may drift from the question: a memory found by meaning alone is
    an answer only near the question itself."""
    query = parse("who approves vacation requests")
    found = Search(query, 10, (), None, None, ())
    dense = [[(3, 0.35)], [(3, 0.6)]]
    (out,) = fusion.fuse(found, dense, [{3: 0.35}, {3: 0.6}], query).candidates
    assert isinstance(out, fusion.Blended) and out.near == 0.6 and out.cosine == 0.35
    assert out.weak and out.why == "found by meaning alone, cosine 0.35 < 0.40"
    # Both lists rank it: the question's at its full weight, the rewording's at less;
    # its cosine to the question stands for its share.
    assert out.score == 0.35 + 1 / (K + 1) * (1 + WEIGHT)


def test_words_settle_a_memory_holding_every_term_or_a_misspelled_one() -> None:
    """An identifier or a misspelling means little to the model: a memory holding
    the whole question, or the word the question misspelled, is not weak for its
    cosine; one holding only a common word is."""
    query = parse("elasticsaerch version")
    notes = ("trigram rescue for elasticsaerch",)
    held = (
        Candidate(1, None, 1, 0.5, ("elasticsaerch",), share=0.5),
        Candidate(2, 1, None, 0.4, ("version",), share=0.5),
        Candidate(3, 2, None, 0.3, ("elasticsaerch", "version"), share=1.0),
    )
    found = Search(query, 10, held, None, None, notes)
    far = {1: 0.25, 2: 0.15, 3: 0.1}
    got = {c.id: c for c in fusion.fuse(found, [[]], [far]).candidates}
    assert not got[1].weak and not got[3].weak
    assert got[2].weak


def test_a_question_keeps_its_best_guess_when_every_candidate_is_far() -> None:
    """Each holds one of four terms and is far in meaning: the floor would cut them
    all, yet as with the lexical floor the best is kept, as a weak guess."""
    query = parse("who approves vacation requests")
    guesses = (
        Candidate(1, 1, None, 0.5, ("vacation",), share=0.3),
        Candidate(2, 2, None, 0.4, ("request",), share=0.2),
    )
    found = Search(query, 10, guesses, None, None, ())
    best, other = fusion.fuse(found, [[]], [{1: 0.1, 2: 0.1}]).candidates
    assert best.id == 1 and best.verdict == "kept" and best.weak
    assert other.verdict.startswith("floor")


def test_a_memory_sure_in_meaning_is_scored_as_covering_that_much() -> None:
    """Its words cover 0.2 of the question; at cosine 0.5 it is ranked as covering
    0.5 (still weak by its words), and so at 0.35, as a weak guess. A candidate not
    weak is lifted only from SURE."""
    query = parse("who approves vacation requests")
    lexical = Candidate(1, 1, None, 0.3, ("approv",), share=0.2)
    found = Search(query, 10, (lexical,), None, None, ())
    (sure,) = fusion.fuse(found, [[]], [{1: 0.5}]).candidates
    assert sure.score == 0.3 + (0.5 - 0.2) and sure.weak
    (faint,) = fusion.fuse(found, [[]], [{1: 0.35}]).candidates
    assert faint.score == 0.3 + (0.35 - 0.2) and faint.weak
    held = Candidate(1, 1, None, 0.5, ("approv", "vacat"), share=0.36)
    (answer,) = fusion.fuse(replace(found, candidates=(held,)), [[]], [{1: 0.39}]).candidates
    assert answer.score == 0.5 and not answer.weak


def _weak_words(dense: list[tuple[int, float]], cosines: dict[int, float]) -> list[Candidate]:
    """Memory 1 and 2 each hold one of the question's four words (weak by coverage);
    the dense list of the question is `dense`, cosines to the question `cosines`."""
    query = parse("how many simultaneous sql links")
    first = Candidate(1, 1, None, 0.27, ("simultan",), share=0.25)
    second = Candidate(2, 2, None, 0.26, ("link",), share=0.25)
    found = Search(query, 10, (first, second), None, None, ())
    return list(fusion.fuse(found, [dense], [cosines]).candidates)


def test_faint_neighbours_are_weak_guesses_where_no_word_answers() -> None:
    """Below LEAST the question's nearest memories are weak guesses, given before the
    weak candidates far in meaning, and only where every candidate is weak."""
    faint = fusion.LEAST - 0.01
    out = _weak_words([(3, faint), (4, fusion.FAINT + 0.01)], {1: 0.05, 2: 0.04})
    kept = [c for c in out if c.verdict == "kept"]
    assert [c.id for c in kept] == [3, 1, 4]
    guess = kept[0]
    assert guess.weak and guess.score == faint
    assert isinstance(guess, fusion.Blended) and guess.dense is None and guess.cosine == faint
    assert guess.why == f"found by meaning alone, cosine {faint:.2f} < {fusion.SURE:.2f}"
    # The first of the porter ranking is weak and spared by the floor; the second is cut.
    by_id = {c.id: c for c in out}
    assert by_id[1].verdict == "kept" and by_id[1].weak
    assert by_id[2].verdict.startswith("floor: holds 1 of 4 terms")


def test_no_faint_guess_beside_an_answer_by_words() -> None:
    query = parse("how many simultaneous sql links")
    whole = Candidate(1, 1, None, 1.2, ("simultan", "sql", "link"), share=0.75)
    found = Search(query, 10, (whole,), None, None, ())
    out = fusion.fuse(found, [[(3, fusion.LEAST - 0.04)]], [{1: 0.5}]).candidates
    assert [c.id for c in out] == [1] and not out[0].weak


def test_a_weak_candidate_is_scored_as_covering_its_cosine() -> None:
    """Weak by its words, it is ranked among the guesses by its meaning when that is
    nearer than its words: here the second of the porter ranking comes first."""
    lifted = fusion.LEAST + 0.05
    out = _weak_words([(2, lifted)], {1: 0.05, 2: lifted})
    assert [c.id for c in out if c.verdict == "kept"] == [2, 1]
    second = next(c for c in out if c.id == 2)
    assert second.weak and second.score == 0.26 + 1 / (K + 1) + lifted - 0.25
