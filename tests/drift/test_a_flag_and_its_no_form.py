"""One command's long flag and its `--no-` form (`pnpm install --frozen-lockfile`
/ `pnpm install --no-frozen-lockfile`) say opposite things (docs/drift.md,
conflicts), as enabled / disabled do: the same word right before each, neither
clause denying what it says, and the clauses about one thing."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Install with `pnpm install --frozen-lockfile` in CI.",
            "CI installs with `pnpm install --no-frozen-lockfile` because Renovate updates "
            "the lockfile in the same job.",
        ),
        (
            "Merge pull requests with `git merge --no-ff`.",
            "Merge pull requests with `git merge --ff`.",
        ),
        ("Run the tests with pytest --no-cov locally.", "Run the tests with pytest --cov locally."),
        ("Push with git push --no-verify.", "Push with git push --verify."),
    ],
)
def test_a_flag_and_its_no_form_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Two commands.
        (
            "Commit with git commit --no-verify when hooks are slow.",
            "Check tags with git tag --verify.",
        ),
        # One clause denies its flag: the two agree.
        (
            "Never run pnpm install --no-frozen-lockfile in CI.",
            "CI runs pnpm install --frozen-lockfile.",
        ),
        # Two jobs.
        (
            "The Renovate job runs pnpm install --no-frozen-lockfile.",
            "The release job runs pnpm install --frozen-lockfile.",
        ),
        # Two flags that only start alike.
        ("Run pytest --no-cov for quick runs.", "Run pytest --cov-report=html for coverage."),
        (
            "Build the image with docker build --no-cache.",
            "Build the image with docker build --cache-from ghcr.io/acme/app.",
        ),
    ],
)
def test_look_alikes_of_a_flag_and_its_no_form_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
