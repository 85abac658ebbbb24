"""Conflicts as a team keeps notes in a workspace of several crates (docs/drift.md,
conflicts): a bound address corrected (`127.0.0.1:3000` / `0.0.0.0:8080`), a value
corrected by a note that shares only the slot's word with the first (`Our MSRV is
1.66` / `The MSRV was bumped to 1.75`), and a list's item that another note's
list leaves out (`members axum-* and examples/*` / `checks the crates, no
examples`), which says nothing opposite."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# A workspace of two crates and an example, as the notes were written at it.
FILES = {
    "Cargo.toml": '[workspace]\nmembers = ["web", "web-*", "examples/*"]\n',
    "web/Cargo.toml": '[package]\nname = "web"\nrust-version = "1.66"\n',
    "web/src/lib.rs": "pub fn serve() {}\n",
    "web-core/Cargo.toml": '[package]\nname = "web-core"\n',
    "web-core/src/lib.rs": "pub trait FromRequest {}\n",
    "examples/hello/Cargo.toml": '[package]\nname = "hello"\n',
    "examples/hello/src/main.rs": 'fn main() { bind("127.0.0.1:3000") }\n',
    ".github/workflows/CI.yml": "env:\n  MSRV: '1.66'\n",
}
NOTES_FIRST = [
    "The root Cargo.toml is a workspace of web, web-* and examples/*; default-members is"
    " only the crates, so a plain cargo build at the root skips the examples.",
    "Our MSRV is 1.66; do not use anything stabilised after it.",
    "The examples bind 127.0.0.1:3000.",
]
NOTES_SECOND = [
    "The armv5te job checks the two crates only, no examples, with CC=clang.",
    "The MSRV was bumped to 1.75 so async fn in traits can be used.",
    "The examples bind 0.0.0.0:8080 so they work inside containers.",
]


@pytest.mark.slow
def test_corrections_in_a_workspace_are_conflicts_and_lists_are_not(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "workspace", FILES)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    (repo / ".github/workflows/CI.yml").write_text("env:\n  MSRV: '1.75'\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "MSRV 1.75")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    pairs = conflict_pairs(repo)
    assert pairs == {
        (ids[NOTES_SECOND[1]], ids[NOTES_FIRST[1]]),
        (ids[NOTES_SECOND[2]], ids[NOTES_FIRST[2]]),
    }


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
        ("The examples bind 127.0.0.1:3000.", "The examples bind 127.0.0.1:3000 by default."),
        (
            "The workspace members are web, web-* and examples/*.",
            "The armv5te job checks the two crates only, no examples.",
        ),
    ],
)
def test_the_same_address_and_a_list_item_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
