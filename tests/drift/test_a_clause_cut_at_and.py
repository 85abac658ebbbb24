"""A clause cut at `and` with no subject of its own goes on about the subject of the
clause before it (docs/drift.md, conflicts): `The CI workflow is ci.yml and runs on
every push` says that the CI workflow runs on every push, so it is about another
thing than `Lighthouse CI runs weekly`, where read alone `runs on every push` was
about anything at all."""

from __future__ import annotations

import pytest

from synapse_git.drift.conflicts import contradicts


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "The CI workflow is .github/workflows/ci.yml and runs on every push.",
            "Lighthouse CI runs weekly on the production URL.",
        ),
        # A joined phrase with no verb is of the clause before it, too.
        (
            "The CI workflow .github/workflows/ci.yml runs on every push and every pull request.",
            "Coverage is not collected on pull requests.",
        ),
        (
            "The docs site is built by mkdocs and runs on every tag.",
            "The Helm chart job runs nightly.",
        ),
        (
            "The worker image is python:3.12-slim and takes 10 minutes to build.",
            "The docs image takes 30 minutes to build.",
        ),
        (
            "The staging cluster runs on k3s and listens on port 8443.",
            "The metrics exporter listens on port 9100.",
        ),
        (
            "The release job builds the binaries and never uploads them to S3.",
            "Nightly builds upload them to S3.",
        ),
        (
            "Storybook lives in packages/ui and is not deployed.",
            "The marketing site is deployed.",
        ),
    ],
)
def test_a_clause_cut_at_and_keeps_the_subject_before_it(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # The subject carried is the other clause's: still one thing, two values.
        (
            "The CI workflow is .github/workflows/ci.yml and runs weekly.",
            "The CI workflow runs nightly.",
        ),
        (
            "The dev server uses Vite and listens on port 5173.",
            "The dev server listens on port 3000.",
        ),
        # A clause with its own subject after `and` is read as before.
        (
            "Builds use cargo and the MSRV is 1.70.",
            "The MSRV is 1.74.",
        ),
        # A carried subject against a clause that has none compares as before.
        (
            "The worker is started by systemd and restarts every 10 minutes.",
            "Restarts every 30 minutes.",
        ),
    ],
)
def test_a_carried_subject_still_conflicts_with_its_own_thing(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None
