"""Conflicts as a team keeps notes in a workspace of several crates (docs/drift.md,
conflicts): a bound address corrected (`127.0.0.1:3000` / `0.0.0.0:8080`)."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The examples bind 127.0.0.1:3000.", "The examples bind 0.0.0.0:8080."),
        ("The dev server listens on localhost:8000.", "The dev server listens on localhost:5000."),
    ],
)
def test_bound_addresses_contradict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


def test_the_same_address_contradicts_nothing() -> None:
    first, second = "The examples bind 127.0.0.1:3000.", "The examples bind 127.0.0.1:3000 here."
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
