"""Honest abstention (docs/recall.md, "Weak evidence"): the best candidate below
the weak share is an answer only when it holds two or more question words, one
in its opening words, and the rarest word any candidate holds."""

from __future__ import annotations

import test_recall
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import coverage
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures

# Three of its words are in no memory: they weigh most, so no memory holds
# WEAK_SHARE of the question.
QUESTION = "login tokens expire quasar nebula pulsar"
FILLER = [f"Lunch is served at noon on floor {n}." for n in range(6)]


def test_a_clear_winner_is_an_answer(svc: Synapse, here: Scope) -> None:
    [answer, _, _] = remember(
        svc,
        here,
        "Login tokens are issued by the gateway.",
        "Login pages use the shop theme.",
        "Tokens are rotated nightly.",
        *FILLER,
    )[:3]
    found = svc.recall(QUESTION, here, explain=True)
    best = found.candidates[0]
    assert best.id == answer and best.share < coverage.WEAK_SHARE
    assert found.hits[0].id == answer and not found.hits[0].weak
    assert all(hit.weak for hit in found.hits[1:])
    assert "weak" not in found.as_json()["hits"][0]


def test_a_rarer_word_held_elsewhere_leaves_the_best_guess_weak(svc: Synapse, here: Scope) -> None:
    [guess, *_] = remember(
        svc,
        here,
        "Login tokens are issued by the gateway.",
        "Login pages use the shop theme.",
        "Tokens are rotated nightly.",
        "Certificates expire after a year.",
        *FILLER,
    )
    found = svc.recall(QUESTION, here)
    assert found.hits[0].id == guess
    assert all(hit.weak for hit in found.hits)


def test_question_words_only_late_in_the_note_leave_it_weak(svc: Synapse, here: Scope) -> None:
    [guess, *_] = remember(
        svc,
        here,
        "The gateway issues login tokens.",
        "Login pages use the shop theme.",
        "Tokens are rotated nightly.",
        *FILLER,
    )
    found = svc.recall(QUESTION, here, explain=True)
    assert found.candidates[0].id == guess and found.candidates[0].about == 0
    assert all(hit.weak for hit in found.hits)


def test_one_shared_word_is_never_an_answer(svc: Synapse, here: Scope) -> None:
    remember(svc, here, "Login pages use the shop theme.", *FILLER)
    found = svc.recall(QUESTION, here)
    assert found.hits and all(hit.weak for hit in found.hits)


def test_rewordings_vouch_for_the_best_of_their_union(svc: Synapse, here: Scope) -> None:
    [answer, *_] = remember(
        svc,
        here,
        "Login tokens are issued by the gateway.",
        "Login pages use the shop theme.",
        "Tokens are rotated nightly.",
        *FILLER,
    )
    found = svc.recall(QUESTION, here, alternatives=["quasar nebula pulsar lifetime"])
    assert found.hits[0].id == answer and not found.hits[0].weak
    assert all(hit.weak for hit in found.hits[1:])


def test_a_rewording_with_a_better_answer_takes_the_vouch_away(svc: Synapse, here: Scope) -> None:
    [vouched, *_, atlas] = remember(
        svc,
        here,
        "Login tokens are issued by the gateway.",
        "Login pages use the shop theme.",
        "Tokens are rotated nightly.",
        *FILLER,
        "Atlas maps are drawn by hand.",
    )
    assert not svc.recall(QUESTION, here).hits[0].weak
    found = svc.recall(QUESTION, here, alternatives=["atlas maps"], explain=True)
    assert [hit.id for hit in found.hits] == [atlas] and not found.hits[0].weak
    [before] = [c for c in found.candidates if c.id == vouched]
    assert before.weak and before.verdict.startswith("floor")


def test_two_forms_of_one_word_are_one_word_held(svc: Synapse, here: Scope) -> None:
    """A rewording naming the question's word in another form (`translation` for
    `translations`) adds no second word: the note still holds one of the question's."""
    remember(svc, here, "Translations live in web/locales as JSON.", *FILLER)
    question = "translations reviewed quasar nebula pulsar"
    assert all(hit.weak for hit in svc.recall(question, here).hits)
    found = svc.recall(question, here, alternatives=["translation quasar nebula pulsar"])
    assert found.hits and all(hit.weak for hit in found.hits)
