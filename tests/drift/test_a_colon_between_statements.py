"""A colon between two statements, each with its verb, cuts a clause as a
semicolon does (docs/drift.md, conflicts): `Celery tasks run eagerly in tests:
CELERY_TASK_ALWAYS_EAGER is True` says two things, the second comparable alone.
A label before a colon (`Step 3:`, `Spell check:`) has no verb, and a colon
followed by a list gives examples: neither is cut."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Celery tasks run eagerly in tests: "
            "CELERY_TASK_ALWAYS_EAGER is True in settings/test.py.",
            "Tests never run Celery tasks eagerly; "
            "CELERY_TASK_ALWAYS_EAGER is False in settings/test.py.",
        ),
        (
            "Run tests with `pytest -n auto`; the full suite takes about 4 minutes.",
            "Do not run pytest with -n: pytest-xdist is not installed here.",
        ),
        (
            "Uploads are stored in S3 in production: USE_S3 is True in settings/prod.py.",
            "USE_S3 is False in settings/prod.py.",
        ),
        (
            "Do not run the e2e suite with --headed: the CI runners have no display.",
            "Run the e2e suite with --headed.",
        ),
    ],
)
def test_a_statement_after_a_colon_is_compared_alone(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # A colon followed by a list: examples of what the sentence says.
        (
            'Routes are get/post blocks in web/application.rb: the dashboard is get "/", '
            'the graphs get "/stats".',
            "The dashboard is dashboard.erb.",
        ),
        # A statement after a colon keeps its own subject.
        (
            "Tests run with pytest: the unit suite takes 4 minutes.",
            "The lint suite takes 2 minutes.",
        ),
        # A label before a colon.
        ("Step 3: run the migrations with make migrate.", "Step 4: run the seeds with make seed."),
    ],
)
def test_a_list_or_a_label_after_a_colon_is_not_cut(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
