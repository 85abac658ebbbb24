"""Conflict detection on a labeled set of memory pairs, and its small rules."""

from __future__ import annotations

import pytest
from conflict_cases import (
    CONFLICTS,
    NON_CONFLICTS,
    SUBJECT_CONFLICTS,
    SUBJECT_CONFLICTS_TEST,
    SUBJECT_NON_CONFLICTS,
    SUBJECT_NON_CONFLICTS_TEST,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from synapse_git.drift.conflicts import contradicts


def _flagged(older: str, newer: str) -> bool:
    # Either order must give the same verdict: drift compares pairs in store order.
    first, second = contradicts(older, newer), contradicts(newer, older)
    assert (first is None) == (second is None), (older, newer)
    return first is not None


def _measure(
    true_pairs: list[tuple[str, str]], false_pairs: list[tuple[str, str]]
) -> tuple[float, float]:
    true_pos = sum(_flagged(a, b) for a, b in true_pairs)
    false_pos = sum(_flagged(a, b) for a, b in false_pairs)
    return true_pos / max(1, true_pos + false_pos), true_pos / len(true_pairs)


def test_precision_and_recall_on_the_labeled_set(capsys: pytest.CaptureFixture[str]) -> None:
    true_pairs = CONFLICTS + SUBJECT_CONFLICTS
    false_pairs = NON_CONFLICTS + SUBJECT_NON_CONFLICTS
    assert len(SUBJECT_CONFLICTS) + len(SUBJECT_NON_CONFLICTS) >= 60
    precision, recall = _measure(true_pairs, false_pairs)
    with capsys.disabled():
        print(
            f"\nconflicts: {len(true_pairs)} true pairs, {len(false_pairs)} false pairs; "
            f"precision {precision:.3f}, recall {recall:.3f}"
        )
    assert precision >= 0.95
    assert recall >= 0.9


def test_notes_about_different_subjects_on_the_held_out_half() -> None:
    # The subject rules were tuned on the other half; this one checks they hold.
    precision, recall = _measure(SUBJECT_CONFLICTS_TEST, SUBJECT_NON_CONFLICTS_TEST)
    assert precision >= 0.95
    assert recall >= 0.9


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


def test_a_conflict_quotes_paths_as_written() -> None:
    found = contradicts(
        "Review rules are in .github/CODEOWNERS.", "Review rules are in docs/OWNERS.md."
    )
    assert found is not None
    assert (found.first, found.second) == (".github/CODEOWNERS", "docs/OWNERS.md")
    value = contradicts("Werkzeug 3.0 is the minimum.", "Werkzeug 3.1 is the minimum.")
    assert value is not None and (value.first, value.second) == ("3.0", "3.1")


_VOCABULARY = (
    "The timeout is 30 s 60 port 8080 Flask 3.1 3.0 dropped Python src/App.py "
    ".github/CODEOWNERS docs/LICENSE not enabled disabled in from main release uses "
    "Werkzeug two three Issue 5123 are checked MANIFEST.in .env never v2 "
    "--- name: description: weekly nightly every only and black ruff mypy pyright format "
    "flaky stable # - **Why:** 8.1.3 pytest==8.1.3"
)
_WORDS = st.sampled_from(_VOCABULARY.split())
_NOTE = st.lists(_WORDS | st.just("\n"), min_size=1, max_size=12).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(first=_NOTE, second=_NOTE)
def test_any_pair_gets_one_verdict_quoted_as_written(first: str, second: str) -> None:
    found = contradicts(first, second)
    assert (found is None) == (contradicts(second, first) is None)
    if found is not None and found.reason != "negation":
        # What differs is quoted as the notes write it: case and leading dots kept.
        for word in f"{found.first} {found.second}".split():
            assert word in first or word in second, (found, first, second)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "buildMode defaults to RELEASE when no flag is given.",
            "buildMode defaults to DEBUG when no flag is given.",
        ),
        ("The retry delay defaults to 2 s in tests.", "The retry delay defaults to 5 s in tests."),
    ],
)
def test_a_setting_s_default_corrected_is_a_conflict(first: str, second: str) -> None:
    # `defaults` ends the subject: it names the setting, not the value after the verb
    # too (`buildMode defaults to RELEASE when …` against `… DEBUG …` had two subjects).
    assert contradicts(first, second) is not None
