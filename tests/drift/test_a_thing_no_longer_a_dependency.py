"""A named thing one note says is no longer a dependency, against a note whose
work goes through it (docs/drift.md, conflicts): `the faraday gem is no longer a
dependency` against `every HTTP call goes through the faraday gem`. `No longer a
dependency` says the thing is not used as `not used any more` does, and going
through the thing by its whole name uses it as `use` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from conflict_runs import conflict_pairs, remember
from support import git, make_repo

from synapse_git.drift.conflicts import contradicts

# A Ruby gem calling a web service, as the first notes were written at it.
FILES = {
    "client.gemspec": 'Gem::Specification.new do |s|\n  s.add_dependency "faraday"\nend\n',
    "lib/client.rb": 'require "faraday"\n',
    "lib/client/http.rb": "module Client\n  class Http\n  end\nend\n",
}
NOTES_FIRST = [
    "Every HTTP call goes through the faraday gem, with one connection per host.",
    "Retries go through the retriable gem around each request.",
]
NOTES_SECOND = [
    "The client speaks HTTP through Net::HTTP now; the faraday gem is no longer a dependency.",
    "The retriable-extra gem is not a dependency of the client.",
]


@pytest.mark.slow
def test_a_thing_no_longer_a_dependency_against_a_note_going_through_it(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "client", FILES)
    ids = {body: remember(repo, body) for body in NOTES_FIRST}
    (repo / "client.gemspec").write_text("Gem::Specification.new do |s|\nend\n", encoding="utf-8")
    git(repo, "commit", "-q", "-am", "plain Net::HTTP")
    ids |= {body: remember(repo, body) for body in NOTES_SECOND}
    assert conflict_pairs(repo) == {(ids[NOTES_SECOND[0]], ids[NOTES_FIRST[0]])}


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "Every HTTP call goes through the faraday gem.",
            "The faraday gem is no longer a dependency.",
        ),
        ("Requests go through nginx.", "nginx is not a dependency any more."),
        ("Use the faraday gem for HTTP.", "The faraday gem is not a dependency."),
    ],
)
def test_no_longer_a_dependency_contradicts_going_through_it(first: str, second: str) -> None:
    assert contradicts(first, second) is not None
    assert contradicts(second, first) is not None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        # Through another thing whose name holds the same words.
        (
            "The client talks to the API through the faraday-retry gem.",
            "The faraday gem is no longer a dependency.",
        ),
        # Through more than the thing: another of its kind, its words apart.
        (
            "Calls go through the faraday gem's adapter for typhoeus.",
            "The typhoeus gem is no longer a dependency.",
        ),
        # Naming it without going through it.
        ("The faraday gem is pinned in the Gemfile.", "The faraday gem is no longer a dependency."),
        # Both say it is gone.
        ("Nothing goes through the faraday gem.", "The faraday gem is no longer a dependency."),
    ],
)
def test_no_longer_a_dependency_and_other_uses_contradict_nothing(first: str, second: str) -> None:
    assert contradicts(first, second) is None
    assert contradicts(second, first) is None
