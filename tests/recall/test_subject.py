"""The subject of a note (docs/recall.md): a question word in a memory's opening
words ranks it above a memory holding the word only later."""

from __future__ import annotations

import test_recall
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import subject
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures


def test_the_note_about_a_word_ranks_above_one_naming_it_in_passing(
    svc: Synapse, here: Scope
) -> None:
    [about, passing] = remember(
        svc,
        here,
        "Deploys go out from main with make deploy; staging first.",
        "Horizontal autoscaling targets 65% CPU for the api deployment.",
    )
    found = svc.recall("deployment process", here, explain=True)
    assert [c.id for c in found.candidates] == [about, passing]
    assert found.candidates[0].about > 0 == found.candidates[1].about


def test_a_word_in_a_file_name_at_the_end_is_a_detail(svc: Synapse, here: Scope) -> None:
    [passing, about] = remember(
        svc,
        here,
        "Shipping is free above 50 EUR; the threshold is in shipping/rules.py.",
        "Migrations are written with Alembic; never edit a migration on main.",
    )
    assert [c.id for c in svc.recall("migrating rules", here, explain=True).candidates][:2] == [
        about,
        passing,
    ]


def test_an_opening_word_does_not_make_weak_evidence_strong(svc: Synapse, here: Scope) -> None:
    [note] = remember(svc, here, "Deploys need an approval in the release channel.")
    [candidate] = svc.recall("deploy wifi printer badge office", here, explain=True).candidates
    assert candidate.id == note and candidate.about > 0 and candidate.weak
    assert subject.opening("The main database is PostgreSQL 15.") == "the main database"
