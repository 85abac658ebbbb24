"""A clause saying only that its subject is not used (`Celery beat is no longer
used`) against a clause opening with the same thing and saying it is at work
(`Celery beat runs the nightly export`), as a thing said gone is (docs/drift.md,
conflicts). Said of what the subject uses (`CI does not use it`), of a place
(`not used in tests`), or against what the thing is, holds or did, it is not."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Celery beat is no longer used.", "Celery beat runs the nightly export."),
        (
            "Celery beat is not used; periodic jobs run from cron on the worker host.",
            "Celery beat schedules the nightly invoice export; its schedule is in celery.py.",
        ),
        ("The cron worker is not used any more.", "The cron worker sends the weekly digest."),
        ("The nginx sidecar is no longer used.", "The nginx sidecar serves the static files."),
        (
            "The preview deploy job is not used.",
            "The preview deploy job deploys every branch to Vercel.",
        ),
    ],
)
def test_a_thing_said_unused_contradicts_it_at_work(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # What the subject does not use, not the subject itself unused.
        ("CI does not use it any more.", "CI runs cargo hack check on every feature."),
        # Unused, it may still be and do what a note says of it.
        ("The v1 API is no longer used.", "The v1 API returns XML."),
        ("The nginx sidecar is not used.", "The nginx sidecar is configured in deploy/nginx.conf."),
        # A word of work that is no verb of the thing: the build box.
        ("The nginx sidecar is not used.", "The nginx sidecar is installed on the build box."),
        # Where it is not used.
        ("Celery beat is not used there.", "Celery beat runs the nightly export."),
        ("Celery beat is not used in tests.", "Celery beat runs the nightly export."),
        # What it did, not what it does; another thing.
        ("The cron worker is not used.", "The cron worker ran the weekly digest until March."),
        ("The old worker is not used any more.", "The new worker runs the exports."),
        ("The old deploy script is gone.", "The new deploy script runs on every tag."),
    ],
)
def test_look_alikes_of_a_thing_unused_at_work_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
