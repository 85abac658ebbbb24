"""A thing one note says was taken out of the project, against a note that uses it
(docs/drift.md, conflicts): `insta was removed` against `Snapshot tests use
insta`, `alpine was tried and dropped` against `The image is built on alpine`,
`cross is no longer used` against `Release builds use cross`. The clause taken
out says nothing else of its subject; the using clause names it whole right
after `use` or `built on`."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "The Docker image builds on debian:12-slim; alpine was tried and dropped.",
            "The Docker image is built on alpine with musl for a smaller static binary.",
        ),
        (
            "insta was removed; snapshots are plain files compared in tests/cli.rs.",
            "Snapshot tests use insta; update them with `cargo insta review`.",
        ),
        ("The ignore crate walks the tree; walkdir was removed.", "Use walkdir for traversal."),
        (
            "cross is no longer used; aarch64 builds run natively on the arm runner.",
            "Release builds use cross for aarch64-unknown-linux-musl.",
        ),
        ("Jest was removed; every package uses Vitest now.", "Unit tests use Jest with ts-jest."),
        ("The sidecar container has been deleted.", "Deploys use the sidecar container for TLS."),
    ],
)
def test_a_thing_taken_out_contradicts_its_use(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Tried is no more than a trial.
        ("alpine was tried for the image.", "The Docker image is built on alpine."),
        # Taken out of one place, or at one release: more than that it went.
        ("insta was removed from the CLI crate.", "Snapshot tests use insta."),
        ("The cache was removed in 2.0.", "Tests use the cache."),
        # The name is only the start of another thing's.
        ("cross was removed.", "Use the cross-compile script for ARM builds."),
        ("The cache was dropped.", "Tests use the cache fixture from conftest.py."),
        # The using note tells of the change.
        ("Jest was removed.", "We moved from Jest to Vitest; use Vitest for new tests."),
        # What it did, not what it does.
        ("Celery beat was dropped.", "Celery beat used to run the export."),
    ],
)
def test_look_alikes_of_a_thing_taken_out_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
