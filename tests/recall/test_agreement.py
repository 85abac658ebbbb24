"""Rewordings that agree (docs/recall.md, "Rewordings that agree"): a note the
question alone leaves weak is an answer by the rewordings only when their mean
share of it reaches rewordings.AGREEMENT, and a repeated rewording counts once."""

from __future__ import annotations

import test_recall
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import coverage, rewordings
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures

# `quasar` and `nebula` are in no memory: they weigh most, so the replicas note
# holds a small share of the question and under half of each rewording.
# Asks for no shape of answer (recall/question_point.py): "how many replicas" would be
# answered by no note here, which holds no number, whatever the rewordings agree on.
QUESTION = "what replicas does the quasar cluster have"
NOTES = [
    "Read replicas serve the reporting dashboard.",
    *(f"Lunch is served at noon on floor {n}." for n in range(6)),
]


def _shares(svc: Synapse, here: Scope, alternatives: list[str]) -> dict[int, float]:
    found = svc.recall(QUESTION, here, alternatives=alternatives, explain=True)
    return {c.id: c.share for c in found.candidates}


def test_half_of_one_rewording_is_a_guess(svc: Synapse, here: Scope) -> None:
    [replicas, *_] = remember(svc, here, *NOTES)
    # The rewording alone: the note holds more than WEAK_SHARE of it...
    assert _shares(svc, here, ["quasar replicas"])[replicas] >= coverage.WEAK_SHARE
    # ...but nothing else vouches for it, so it is a guess, marked as such.
    found = svc.recall(QUESTION, here, alternatives=["quasar replicas", "nebula node count"])
    assert [hit.id for hit in found.hits] == [replicas]
    assert found.hits[0].weak


def test_a_rewording_the_note_holds_makes_it_an_answer(svc: Synapse, here: Scope) -> None:
    [replicas, *_] = remember(svc, here, *NOTES)
    found = svc.recall(QUESTION, here, alternatives=["read replicas", "nebula node count"])
    assert found.hits[0].id == replicas and not found.hits[0].weak


def test_rewordings_each_partly_held_agree(svc: Synapse, here: Scope) -> None:
    [replicas, *_] = remember(svc, here, *NOTES)
    alternatives = ["reporting quasar", "dashboard nebula", "replicas pulsar"]
    shares = [_shares(svc, here, [text])[replicas] for text in alternatives]
    # Under half of each, yet more than AGREEMENT of each on average.
    assert max(shares) < 0.5 and sum(shares) / len(shares) >= rewordings.AGREEMENT
    found = svc.recall(QUESTION, here, alternatives=alternatives)
    assert found.hits[0].id == replicas and not found.hits[0].weak


def test_a_repeated_rewording_does_not_agree_with_itself(svc: Synapse, here: Scope) -> None:
    [replicas, *_] = remember(svc, here, *NOTES)
    # Counted once each, the repeated wording would lift the mean past AGREEMENT.
    repeated = ["quasar replicas", "Quasar replicas!", "replicas quasar", "nebula node count"]
    found = svc.recall(QUESTION, here, alternatives=repeated)
    assert [hit.id for hit in found.hits] == [replicas] and found.hits[0].weak


WORDS = ["replicas", "reporting", "dashboard", "quasar", "nebula", "lunch", "floor", "served"]


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    question=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
    others=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3), max_size=4),
)
def test_rewordings_never_make_an_answer_of_the_question_weak(
    svc: Synapse, here: Scope, question: list[str], others: list[list[str]]
) -> None:
    """A note the question alone answers (past the weak share, and not alike:
    recall/alike.py) stays an answer whatever the caller adds."""
    if not svc.recall("", here).hits:
        remember(svc, here, *NOTES)
    asked = svc.recall(" ".join(question), here, explain=True)
    strong = {c.id for c in asked.candidates if c.share >= coverage.WEAK_SHARE and not c.weak}
    found = svc.recall(
        " ".join(question), here, alternatives=[" ".join(o) for o in others], explain=True
    )
    assert not [c.id for c in found.candidates if c.id in strong and c.weak]


def test_explain_shows_what_weakness_was_judged_on(svc: Synapse, here: Scope) -> None:
    [replicas, *_] = remember(svc, here, *NOTES)
    alone = svc.recall(QUESTION, here, explain=True).explained_json()["explain"]
    assert all("evidence" not in c for c in alone)
    reworded = svc.recall(
        QUESTION, here, alternatives=["read replicas", "nebula node count"], explain=True
    ).explained_json()["explain"]
    [c] = [c for c in reworded if c["id"] == replicas]
    assert c["agreed"] is True and c["evidence"] >= coverage.WEAK_SHARE and not c["weak"]


# A rewording is a guess at a note's words: one word of it ("certificate") is held by
# a neighbour that is about something else, whatever share of the rewording it is.
NEIGHBOURS = [
    "Incident 2024-05: an expired TLS certificate took the admin host down.",
    "Coverage must stay above 85% or the CI job fails.",
    "Run the tests with pytest; integration tests need docker first.",
    "Snapshot tests for emails are updated with a flag.",
    "Shipping is free above 50 EUR; the threshold is in shipping/rules.py.",
    *(f"Lunch is served at noon on floor {n}." for n in range(6)),
]


def test_rewordings_agreeing_by_one_word_in_passing_are_a_guess(svc: Synapse, here: Scope) -> None:
    [incident, *_] = remember(svc, here, *NEIGHBOURS)
    question = "how do we renew the quasar push certificate"
    assert _shares_of(svc, here, question, ["nebula certificate"])[incident] >= 0.3
    found = svc.recall(question, here, alternatives=["nebula certificate"])
    assert [hit.id for hit in found.hits] == [incident]
    assert found.hits[0].weak


def test_rewordings_agreeing_by_the_subject_of_a_note_answer(svc: Synapse, here: Scope) -> None:
    [_, coverage_note, *_] = remember(svc, here, *NEIGHBOURS)
    # One word held, but the note opens with it and no note holds a rarer word of
    # the rewording (`test` and `threshold` are in others, as common).
    question = "minimum share of lines exercised by the suite"
    found = svc.recall(question, here, alternatives=["test coverage threshold"])
    assert found.hits[0].id == coverage_note and not found.hits[0].weak


def _shares_of(
    svc: Synapse, here: Scope, question: str, alternatives: list[str]
) -> dict[int, float]:
    found = svc.recall(question, here, alternatives=alternatives, explain=True)
    return {c.id: c.share for c in found.candidates}
