"""A version tested alone is one entry of a matrix, and a tool said to be no longer
used contradicts a note that uses it (docs/drift.md, conflicts): in a repository
whose CI matrix grew and whose test runner and linter were replaced, the drift
check names the corrections and not the matrix entries."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# Each as written at the commit its history had then (labels written with them).
FIRST = {
    "package.json": '{"scripts": {"test": "mocha test/"}}\n',
    ".github/workflows/ci.yml": "strategy:\n  matrix:\n    node: [18]\n",
    ".golangci.yaml": "linters: {}\n",
}
NOTES_FIRST = [
    "Tests are written for mocha with supertest.",
    "CI tests Node 18 on ubuntu.",
    "Lint is golangci-lint with the settings in .golangci.yaml.",
]
SECOND = {
    "package.json": '{"scripts": {"test": "jest"}}\n',
    ".github/workflows/ci.yml": "strategy:\n  matrix:\n    node: [18, 20]\n",
    "staticcheck.conf": 'checks = ["all"]\n',
}
NOTES_SECOND = [
    "CI tests Node 20 on ubuntu.",
    "Tests are written for jest; mocha is not used any more.",
    "Lint is staticcheck through `make lint`; golangci-lint is not used any more.",
]


@pytest.mark.slow
def test_corrections_are_conflicts_and_matrix_entries_are_not(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "app", FIRST)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    for name, text in SECOND.items():
        (repo / name).write_text(text, encoding="utf-8")
    git(repo, "rm", "-q", ".golangci.yaml")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "jest, staticcheck and Node 20 in the matrix")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    pairs = conflict_pairs(repo)
    assert pairs == {
        (ids[NOTES_SECOND[1]], ids[NOTES_FIRST[0]]),
        (ids[NOTES_SECOND[2]], ids[NOTES_FIRST[2]]),
    }


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The package is tested on Node 18.", "The package is tested on Node 20."),
        ("We moved from mocha to jest.", "mocha is not used any more."),
        ("mocha is not used any more.", "jest is not used any more."),
        ("CI tests Node 18 and Node 20.", "CI tests Node 20."),
        # A release line (`1.19.x`) is a version: one entry of the matrix too.
        ("CI tests Go 1.19.x on ubuntu-latest.", "CI tests Go 1.20.x on ubuntu-latest."),
        ("The build uses Python 3.0.", "The build uses Python 3."),
        (
            "pre-commit hooks (isort, black, flake8) are pinned in .pre-commit-config.yaml.",
            "Code is formatted with ruff format; black is not used.",
        ),
    ],
)
def test_matrix_entries_and_migrations_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("CI tests Node 18 only.", "CI tests Node 20 only."),
        ("CI tests Go 1.19 and 1.20.", "CI tests Go 1.21 and 1.22."),
        ("Tests require Python 3.11.", "Tests require Python 3.12."),
        # A zero inside a version part counts: 1.2 is not 1.20, nor v1 v10.
        ("The build uses Go 1.2.", "The build uses Go 1.20."),
        ("Requires Python 3.1.", "Requires Python 3.10."),
        ("The API is served under v1.", "The API is served under v10."),
        ("The build uses Node 18.x.", "The build uses Node 20.x."),
        # A release line in the slot of a name is still a replacement of it.
        ("Fixes for 2.x are merged into main.", "Fixes for 2.x are merged into the 2.x branch."),
        (
            "Assertions in tests use testify.",
            "Assertions in tests use the standard library; testify is not used.",
        ),
    ],
)
def test_whole_matrices_requirements_and_dropped_tools_contradict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None
