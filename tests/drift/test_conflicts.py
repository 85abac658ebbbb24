"""Conflict detection on a labeled set of memory pairs, and its small rules."""

from __future__ import annotations

import pytest
from conflict_cases import CONFLICTS, NON_CONFLICTS

from synapse_git.drift.conflicts import contradicts


def _flagged(older: str, newer: str) -> bool:
    # Either order must give the same verdict: drift compares pairs in store order.
    first, second = contradicts(older, newer), contradicts(newer, older)
    assert (first is None) == (second is None), (older, newer)
    return first is not None


def test_precision_and_recall_on_the_labeled_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(CONFLICTS) >= 30 and len(NON_CONFLICTS) >= 30
    true_pos = sum(_flagged(a, b) for a, b in CONFLICTS)
    false_pos = sum(_flagged(a, b) for a, b in NON_CONFLICTS)
    precision = true_pos / (true_pos + false_pos)
    recall = true_pos / len(CONFLICTS)
    with capsys.disabled():
        print(
            f"\nconflicts: {len(CONFLICTS)} true pairs, {len(NON_CONFLICTS)} false pairs; "
            f"precision {precision:.3f}, recall {recall:.3f}"
        )
    assert precision >= 0.9
    assert recall >= 0.8


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The cache TTL is 5 minutes.", "The cache TTL is 300 s."),
        ("Timeout is 1 hour.", "Timeout is 60 min."),
        ("Use Python 3.12.", "Use python 3.12 everywhere."),
        ("Never push to main.", "Never push to main directly."),
        ("Don't disable the cache.", "Enable the cache."),
    ],
)
def test_equal_values_and_agreeing_statements_are_quiet(first: str, second: str) -> None:
    assert contradicts(first, second) is None


def test_a_contradiction_says_what_differs() -> None:
    found = contradicts("The API listens on port 8080.", "The API listens on port 8081.")
    assert found is not None
    assert (found.reason, found.first, found.second) == ("value", "8080", "8081")
    negated = contradicts("Squash when merging.", "Never squash when merging.")
    assert negated is not None and negated.reason == "negation"
    flipped = contradicts("Telemetry is enabled.", "Telemetry is disabled.")
    assert flipped is not None and flipped.reason == "antonym"
    branch = contradicts("Deploy from main.", "Deploy from release.")
    assert branch is not None and (branch.first, branch.second) == ("main", "release")
