"""`not installed` and `not supported` say a thing is not used, as `not used` and
`no longer a dependency` do (docs/drift.md, conflicts): `pytest-xdist is not
installed` contradicts `Run the suite in parallel using pytest-xdist`. Said of a
place or of a default (`not installed there`, `not installed by default`, `not
supported on Windows`), they say more, for tools as for other things."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("mypy is not installed.", "Type checks use mypy."),
        ("pytest-xdist is not installed.", "Run the suite in parallel using pytest-xdist."),
        ("Python 3.8 is not supported.", "Tests use Python 3.8."),
        ("cross is not installed.", "Release builds use cross for aarch64."),
        (
            "The legacy v1 client is no longer supported.",
            "The mobile app uses the legacy v1 client.",
        ),
    ],
)
def test_not_installed_or_supported_contradicts_a_use(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "pytest-xdist is not installed by default.",
            "Run the suite in parallel using pytest-xdist.",
        ),
        ("Python 3.8 is not supported on Windows.", "Tests use Python 3.8."),
        ("Python 3.7 is not supported.", "Tests use Python 3.8."),
        ("mypy is not installed there.", "Type checks use mypy."),
        ("mypy is not used there.", "Type checks use mypy."),
        ("mypy is not installed in the dev environment.", "Type checks use mypy."),
        ("cross is not installed.", "Use the cross-compile script for ARM builds."),
        ("Docker is not supported on the CI runners.", "Integration tests use Docker."),
    ],
)
def test_not_installed_or_supported_somewhere_says_more(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
