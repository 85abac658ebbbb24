"""A requirement one note states and another denies (docs/drift.md, conflicts):
`Extractor impls must be annotated with #[async_trait]` against `Extractor impls
no longer need #[async_trait]`, `Integration tests require Docker` against
`Integration tests run without Docker`. What the denial names must stand whole
after the requirement, ending a phrase there; the clauses are about one thing."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Extractor impls must be annotated with #[async_trait].",
            "Extractor impls no longer need #[async_trait]; write the async fn directly.",
        ),
        (
            "Sidekiq::Web needs a Rack session in front of it.",
            "Sidekiq::Web works without a Rack session.",
        ),
        ("The API server requires a running Redis.", "The API server runs without Redis."),
        ("Migrations require a superuser role.", "Migrations do not need a superuser role."),
        ("Integration tests require Docker.", "Integration tests no longer need Docker."),
        ("Integration tests require Docker.", "Integration tests run without Docker."),
    ],
)
def test_a_requirement_denied_conflicts(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Another thing needed, or the denial says where.
        (
            "Releases require a signed tag.",
            "Releases no longer require a changelog entry.",
        ),
        ("Integration tests require Docker.", "Integration tests run without Docker on CI."),
        ("The worker needs Redis.", "The worker runs without Redis in tests."),
        # A longer name is another thing.
        ("Integration tests require Docker Desktop.", "Integration tests run without Docker."),
        ("Sidekiq::Web needs a Rack session cookie.", "Sidekiq::Web works without a Rack session."),
        # Another release of it.
        ("The build needs Node 20.", "The build works without Node 18."),
        # Two things needing it.
        ("Integration tests require Docker.", "Unit tests run without Docker."),
        # The denial names no thing, or another.
        ("Integration tests require Docker.", "Run without Docker."),
        ("The API server requires Redis.", "Run the worker without Redis."),
        # Both deny it.
        ("Unit tests do not need Postgres.", "Unit tests run without Postgres."),
    ],
)
def test_look_alikes_of_a_requirement_denied_do_not_conflict(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
