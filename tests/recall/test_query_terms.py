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
