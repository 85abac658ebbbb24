"""Taken out of the whole project (`removed from the project`, `deleted from the
repo`) is taken out, no place named (docs/drift.md, conflicts): such a clause
contradicts a note saying the thing does something, as `… was removed` does;
taken out of a part of it (`from the project's CI image`, `from the CLI crate`)
says where."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "django-debug-toolbar was removed from the project.",
            "django-debug-toolbar is enabled in dev settings at /__debug__/.",
        ),
        (
            "The Makefile was deleted from the repo.",
            "The Makefile target `make tailwind` rebuilds the CSS.",
        ),
        ("insta was removed from the codebase.", "Snapshot tests use insta."),
        (
            "The seed script is gone from the repository.",
            "The seed script loads the demo fixtures.",
        ),
    ],
)
def test_a_thing_taken_out_of_the_project_contradicts_its_use(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "django-debug-toolbar was removed from the project's CI image.",
            "django-debug-toolbar is enabled in dev settings.",
        ),
        ("insta was removed from the CLI crate.", "Snapshot tests use insta."),
        ("The Makefile was deleted from the repo.", "The old Makefile ran the tailwind build."),
        ("The seed script is gone from the staging repo.", "The seed script loads the fixtures."),
    ],
)
def test_taken_out_of_a_part_of_it_says_where(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
