"""A subject that is only `you` names the reader, as `we` and `I` name the people
keeping the notes (docs/drift.md, conflicts): `You can mount Sidekiq::Web without
a Rack session` is about Sidekiq::Web, and compared with what another note says
of it. Another pronoun (`they`) still stands for a thing named before it."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "You stay on Kotlin 1.9.24 until KSP2 is stable.",
            "The Kotlin version is pinned to 2.0.0.",
        ),
        (
            "You can mount Sidekiq::Web without a Rack session.",
            "Sidekiq::Web needs a Rack session in front of it.",
        ),
    ],
)
def test_what_you_do_is_about_what_follows_the_verb(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("You can skip the lint job with [skip lint].", "The lint job runs on every push."),
        (
            "You stay on Kotlin 1.9.24 until KSP2 is stable.",
            "The Gradle version is pinned to 8.7.",
        ),
        ("They only run nightly.", "The e2e tests run on every push."),
        ("You can run the worker without Redis.", "The API server requires Redis."),
    ],
)
def test_look_alikes_about_other_things_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
