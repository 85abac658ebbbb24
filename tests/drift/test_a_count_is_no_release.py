"""A plain number written right before a word counts what the word names (`two
nodes`, `3 Ubuntu runners`); a release is written after its name (`Node 22`,
`Ubuntu 24`). So a count and a release of one name are two kinds of value, and
never conflict (docs/drift.md, conflicts); two counts, and two releases, still do."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Integration tests run on two Postgres replicas.",
            "Integration tests run on Postgres 16.",
        ),
        ("The e2e job runs on three Node workers.", "The e2e job runs on Node 20."),
        ("The queue runs on 4 Celery workers.", "The queue runs on Celery 5."),
        ("The build runs on 3 Ubuntu runners.", "The build runs on Ubuntu 24."),
        ("Load tests run with 50 Java threads.", "Load tests run with Java 21."),
        ("Preview deploys run with 2 Node instances.", "Preview deploys run with Node 22."),
    ],
)
def test_a_count_of_a_name_and_a_release_of_it_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The staging cluster has two nodes.", "The staging cluster has three nodes."),
        ("The API runs 4 gunicorn workers.", "The API runs 8 gunicorn workers."),
        ("The e2e job runs on Node 18.", "The e2e job runs on Node 20."),
        # Not written together: a value, and then what it is of.
        ("The toolchain JDK is 21 (jdk in the version catalog).", "Build with JDK 17."),
    ],
)
def test_two_counts_or_two_releases_still_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None
