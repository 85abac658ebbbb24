"""What the words around a name or a claim decide (docs/drift.md): a product with
its version, a contrast after a comma, a release written with and without its minor
number, and a weekday as a schedule."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts
from synapse_git.drift.paths import find_paths


def test_a_product_with_its_version_is_no_file() -> None:
    text = "Old runtimes (io.js 1.8, Bun.js v1) are tested; the entry is server.js 8080."
    assert find_paths(text) == ["server.js"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("The service supports Deno 1.46 and newer.", "The service supports Deno 2 and newer."),
        ("The backup job runs every Sunday.", "The backup job runs every day."),
    ],
)
def test_releases_and_weekdays_are_values_of_one_slot(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("We use Python 3.", "We use Python 3.12."),
        (
            "Parsing helpers are in utils.py under src, not the test fixtures.",
            "The test fixtures load_user and make_order are in tests/fixtures.py.",
        ),
        ("The backup job runs every Sunday.", "The backup job runs weekly."),
    ],
)
def test_a_contrast_and_a_major_release_deny_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
