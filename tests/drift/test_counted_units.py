"""A count written as a word before a unit (`six months`, `two weeks`) is an
amount of that unit, compared with one written in digits by what it comes to
(docs/drift.md, conflicts): `kept for six months` / `kept for 30 days` conflict,
`two weeks` / `14 days` and `60 seconds` / `1 minute` are one amount."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Logs are kept for six months.", "Logs are kept for 30 days."),
        ("Backups are kept for two weeks.", "Backups are kept for 30 days."),
        (
            "The session cookie expires after two hours.",
            "The session cookie expires after 30 minutes.",
        ),
        ("Artifacts are kept for three days.", "Artifacts are kept for 90 days."),
        ("The lock times out after five seconds.", "The lock times out after 30 s."),
    ],
)
def test_a_counted_unit_against_another_amount_conflicts(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # One amount written two ways.
        ("Backups are kept for two weeks.", "Backups are kept for 14 days."),
        (
            "The session cookie expires after two hours.",
            "The session cookie expires after 120 minutes.",
        ),
        ("The poll interval is 60 seconds.", "The poll interval is 1 minute."),
        ("The cache entry lives for three hours.", "The cache entry lives for 180 min."),
        # Amounts of two things.
        ("Artifacts are kept for three days.", "Logs are kept for 90 days."),
        # A count of things, not of a unit.
        ("The staging cluster has two nodes.", "The staging cluster has 2 nodes."),
    ],
)
def test_one_amount_or_two_things_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
