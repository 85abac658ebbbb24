"""Alike candidates (docs/recall.md, "Alike candidates are no answer"): notes near
one another in score, each holding another part of the question and no word of
it that another candidate lacks, are neighbours of the question, not its answer
(recall/alike.py)."""

from __future__ import annotations

import test_recall
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures

NOTES = [
    "Rate limiting: 100 requests per minute per IP on the public API.",
    "Horizontal pod autoscaling targets 65% CPU for the api deployment.",
    "Gunicorn runs 4 workers per api pod.",
    "Connection pool size is 20 per api pod.",
    "The partner API daily limit resets at midnight UTC.",
    "Deploys go out from main with make deploy.",
    "Nightly backups run at 02:00 UTC and are kept for 35 days.",
    "Translations live in web/locales; German and French are complete.",
]


def test_notes_each_holding_part_of_the_question_are_no_answer(svc: Synapse, here: Scope) -> None:
    remember(svc, here, *NOTES)
    # `limit` and `api` in two notes, `api` and `pods` in three, `memory` in none:
    # no note is singled out by a word of the question, and none stands clear.
    found = svc.recall("what is the memory limit for the api pods", here, explain=True)
    assert found.hits and all(hit.weak for hit in found.hits)
    alike = [c for c in found.candidates if c.alike]
    assert alike and all(c.weak and c.why_weak.startswith("alike") for c in alike)


def test_a_word_only_one_note_holds_singles_it_out(svc: Synapse, here: Scope) -> None:
    [_, _, gunicorn, *_] = remember(svc, here, *NOTES)
    # The same neighbours, but `gunicorn` is in one note only: it is the answer.
    found = svc.recall("how many gunicorn workers run in the api pods", here)
    assert found.hits[0].id == gunicorn and not found.hits[0].weak


def test_a_question_of_one_word_held_alike_is_answered(svc: Synapse, here: Scope) -> None:
    [rate, *_] = remember(svc, here, *NOTES)
    # Every note holds the same word: none holds a part the others lack.
    found = svc.recall("rate limiting", here)
    assert found.hits[0].id == rate and not found.hits[0].weak


def test_rewordings_make_no_answer_of_alike_notes(svc: Synapse, here: Scope) -> None:
    remember(svc, here, *NOTES)
    found = svc.recall(
        "what is the memory limit for the api pods",
        here,
        alternatives=["api pod memory limit", "kubernetes memory limits api deployment"],
    )
    assert found.hits and all(hit.weak for hit in found.hits)


def test_explain_names_alike_candidates(svc: Synapse, here: Scope) -> None:
    remember(svc, here, *NOTES)
    found = svc.recall("what is the memory limit for the api pods", here, explain=True)
    shown = found.explained_json()["explain"]
    assert any(c.get("alike") is True and c["weak"] is True for c in shown)


def test_a_decoy_holding_more_of_the_question_leaves_the_answer_one(
    svc: Synapse, here: Scope
) -> None:
    [_, answer, *_] = remember(
        svc,
        here,
        "The search index gets rebuilt from the product table, not from the logs.",
        "The search index is rebuilt every night by the reindex job.",
        "A full search index rebuild must not run while a sale is on.",
        "Pods get their secrets from Vault through the sidecar.",
        *NOTES,
    )
    # The first note holds every word the answer holds and `get`, but no time: a
    # decoy (weak), not a rival holding another part of the question.
    found = svc.recall("how often does the search index get rebuilt", here)
    assert found.hits[0].id == answer and not found.hits[0].weak
