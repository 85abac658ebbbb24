"""Conflicts as a team keeps notes in a workspace of several crates (docs/drift.md,
conflicts): a bound address corrected (`127.0.0.1:3000` / `0.0.0.0:8080`), and a
list's item that another note's list leaves out (`members axum-* and examples/*` /
`checks the crates, no examples`), which says nothing opposite."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The examples bind 127.0.0.1:3000.", "The examples bind 0.0.0.0:8080."),
        ("The dev server listens on localhost:8000.", "The dev server listens on localhost:5000."),
        # A one-word subject is still a statement when a verb says something of it.
        ("The default MAX_AGE is None.", "The default MAX_AGE is 43200."),
    ],
)
def test_bound_addresses_and_values_contradict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The examples bind 127.0.0.1:3000.", "The examples bind 127.0.0.1:3000 here."),
        (
            "The workspace members are web, web-* and examples/*.",
            "The armv5te job checks the two crates only, no examples.",
        ),
    ],
)
def test_the_same_address_and_a_list_item_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
