"""Question words (docs/recall.md, step 1): the tail of a possessive or a
contraction is no word of the question."""

from __future__ import annotations

import pytest
import test_recall
from test_recall import remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import query_terms
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("who owns the phone app's iOS release", ["owns", "phone", "app", "ios", "release"]),
        ("why doesn't one outlier trigger", ["one", "outlier", "trigger"]),
        ("what is the unit\u2019s clock drift", ["unit", "clock", "drift"]),
        ("we'll flash it; it can't boot", ["flash", "boot"]),
        # Not a contraction: the letters stay words.
        ("O'Brien rock'n'roll", ["o", "brien", "rock", "n", "roll"]),
        ("PAY-7731's refund", ["pay", "7731", "refund"]),
    ],
)
def test_a_possessive_or_contraction_tail_is_no_term(question: str, words: list[str]) -> None:
    assert [term.word for term in query_terms.parse(question).terms] == words


def test_a_possessive_does_not_find_every_note_with_one(svc: Synapse, here: Scope) -> None:
    # Every note holding `'s` or `it's` held the question's `s`, the one word of it
    # they share.
    remember(
        svc,
        here,
        "Bob's laptop runs Ubuntu; it's reinstalled every spring.",
        "The team's standup is at 10:00.",
    )
    assert not svc.recall("which shell is in Alice's dotfiles", here).hits


@pytest.mark.parametrize(
    ("question", "written_as_one"),
    [
        ("warming up the learning rate", "warmup"),
        ("backing off on retries", "backoff"),
        ("shutting down the node", "shutdown"),
        ("rolled out to everyone", "rollout"),
    ],
)
def test_a_verb_and_its_particle_are_searched_as_the_noun(
    question: str, written_as_one: str
) -> None:
    assert written_as_one in query_terms.parse(question).joined


def test_a_verb_and_its_particle_find_the_noun_written_as_one(svc: Synapse, here: Scope) -> None:
    # `warming` matches no word of the notes: it was taken for a misspelling of
    # `warning`, and the note on a warning ranked first.
    [schedule, _] = remember(
        svc,
        here,
        "LR schedule: linear warmup for 2,000 steps, then cosine decay.",
        "The null rate check is a warning, not a failure.",
    )
    [first, *_] = svc.recall("warming up the learning rate linearly", here).hits
    assert first.id == schedule and not first.weak
