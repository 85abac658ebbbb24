"""What tests are run on (`runs the tests on stable`, `tested against beta`) is one
entry of a matrix that may hold others, as `tested on Go 1.20` is (docs/drift.md,
conflicts): two notes naming two such entries do not conflict; what is built or
run on one toolchain, not tested, still names the one toolchain of its slot."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "The test-versions job in CI runs the whole workspace's tests on stable.",
            "The test-versions job in CI runs the whole workspace's tests on beta.",
        ),
        (
            "The matrix job runs the tests on ubuntu-latest.",
            "The matrix job runs the tests on windows-latest.",
        ),
        (
            "Nightly CI runs the integration tests with chromium.",
            "Nightly CI runs the integration tests with firefox.",
        ),
        ("The wasm job runs its tests under node.", "The wasm job runs its tests under deno."),
        ("The MSRV job is tested on stable.", "The MSRV job is tested on nightly."),
    ],
)
def test_two_entries_of_what_tests_run_on_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Built or run on, not tested: the one toolchain.
        ("The docs job builds on stable.", "The docs job builds on nightly."),
        ("The release build runs on stable.", "The release build runs on beta."),
        ("Deploy from main.", "Deploy from release."),
    ],
)
def test_what_is_built_or_run_on_one_toolchain_still_conflicts(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None
