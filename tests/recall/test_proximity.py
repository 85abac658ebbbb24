"""Words held together (docs/recall.md): a note holding the question's words far
apart ranks below the note about them, and holding one more word never ranks a
note lower."""

from __future__ import annotations

import test_recall
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import coverage, proximity, query_terms
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures


def test_words_held_far_apart_rank_below_the_note_about_the_question(
    svc: Synapse, here: Scope
) -> None:
    [about, apart] = remember(
        svc,
        here,
        "Deploys go out from main with make deploy; it builds the image first.",
        "The nightly report processed forty invoices and sent them to finance,"
        " then listed the failed deploys at the end.",
    )
    # `processed` is common: the rarer `deploy` is what the question is about.
    remember(svc, here, *(f"The queue processed {n} jobs before noon." for n in range(6)))
    found = svc.recall("deployment process", here, explain=True).candidates
    assert [c.id for c in found][:2] == [about, apart]
    # Its coverage, and with it the floor and weak evidence, is as before.
    assert found[1].share > found[0].share


def test_one_more_word_never_lowers_a_note_and_one_word_is_judged_as_before() -> None:
    terms = query_terms.parse("deployment process").terms
    weights = {"deployment": 2.0, "process": 1.0}
    texts = {
        1: "Deploys go out from main.",
        2: "Deploys go out from main; the whole long tale of it is told here, processed.",
        3: "The deployment process is in the runbook.",
    }
    held = coverage.assess(texts, terms, weights)
    ranked = proximity.shares(texts, terms, weights, held)
    assert ranked[1] == held[1].share
    assert held[1].share < ranked[2] < held[2].share
    assert ranked[3] == held[3].share == 1.0
