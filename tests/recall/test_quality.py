"""Recall that answers the question (docs/recall.md): stems that meet, coverage,
substrings only where they help, close misspellings, excerpts around the rarest
word, weak evidence marked, and the caller's rewordings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import test_recall
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_cli
from test_recall import ids, remember

from synapse_git.errors import BadInput
from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures


@pytest.mark.parametrize(
    ("body", "query"),
    [
        ("Deploys go out with make deploy.", "deployment"),
        ("The deployment checklist is in the wiki.", "deploy"),
        ("Experiments on pricing run two weeks.", "experimental"),
        ("An experimental flag turns it on.", "experiment"),
        ("Configure the relay with RELAY_HOST.", "configuration"),
        ("The configuration lives in relay.toml.", "configure"),
        ("Migrate the schema with alembic.", "migration"),
        ("A migration must never be edited.", "migrate"),
    ],
)
def test_derivations_reach_each_other_both_ways(
    svc: Synapse, here: Scope, body: str, query: str
) -> None:
    [memory, _] = remember(svc, here, body, "Unrelated note about lunch.")
    found = svc.recall(query, here)
    assert [hit.id for hit in found.hits] == [memory]
    assert not found.hits[0].weak


def test_a_short_plain_word_does_not_match_inside_others(svc: Synapse, here: Scope) -> None:
    remember(svc, here, "The zone is done; none left.", "Shared and stored as required.")
    assert ids(svc, "one", here) == []
    assert ids(svc, "red", here) == []


def test_a_misspelling_is_rescued_only_by_a_close_word(svc: Synapse, here: Scope) -> None:
    [_, password] = remember(svc, here, "Nothing remains of it.", "The password is rotated.")
    assert ids(svc, "emial", here) == []
    assert ids(svc, "passwrod", here) == [password]


@pytest.mark.parametrize(
    ("answer", "decoy", "query"),
    [
        (
            "The docs are published with MkDocs on every merge.",
            "MkDocs reads its navigation from mkdocs.yml.",
            "mkdocs publsihing",
        ),
        (
            "Retries of the relay are configured in settings.toml.",
            "The relay retries failed webhooks.",
            "confgiuring relay retries",
        ),
    ],
)
def test_a_word_misspelled_in_another_form_is_rescued(
    svc: Synapse, here: Scope, answer: str, decoy: str, query: str
) -> None:
    # The question misspells a form the note does not use (publishing / published):
    # the words are too many edits apart, their families one.
    [memory, _] = remember(svc, here, answer, decoy)
    found = svc.recall(query, here)
    assert found.hits[0].id == memory
    assert not found.hits[0].weak


def test_more_of_the_question_ranks_above_fewer_exact_words(svc: Synapse, here: Scope) -> None:
    [decoy, answer] = remember(
        svc,
        here,
        "Nightly backups of the cache.",
        "Backup retention for the postgres database dumps is 35 days.",
    )
    found = svc.recall("postgres backups retention", here, explain=True)
    assert [c.id for c in found.candidates] == [answer, decoy]


def test_an_excerpt_shows_the_rarest_matched_word(svc: Synapse, here: Scope) -> None:
    body = "Initialization sequence. " * 60 + "The quasar flag must be set first. " + "x " * 400
    [memory] = remember(svc, here, body, *[f"initialization note {n}" for n in range(5)])[:1]
    [hit] = [
        h for h in svc.recall("initialization quasar", here, budget="lean").hits if h.id == memory
    ]
    assert hit.abridged and "quasar flag" in hit.body


def test_a_question_nothing_answers_gets_weak_hits_at_most(svc: Synapse, here: Scope) -> None:
    remember(
        svc,
        here,
        *[f"The office printer {n} is on floor {n}." for n in range(6)],
        "Passwords are hashed with argon2id.",
    )
    found = svc.recall("what is the office wifi password", here, explain=True)
    assert found.hits and all(hit.weak for hit in found.hits)
    assert len(found.hits) <= 2
    data = found.as_json()
    assert all(hit["weak"] is True for hit in data["hits"])
    assert data["cut"]["weak"] + data["cut"]["floor"] + len(found.hits) == 7
    assert any(c.verdict.startswith("weak") for c in found.candidates)


def test_an_answer_is_not_weak(svc: Synapse, here: Scope) -> None:
    remember(svc, here, "Passwords are hashed with argon2id.", "The office has wifi.")
    found = svc.recall("password hashing", here).as_json()
    assert "weak" not in found["hits"][0] and found["cut"]["weak"] == 0


def test_rewordings_find_what_the_question_words_miss(svc: Synapse, here: Scope) -> None:
    [token, _] = remember(
        svc, here, "Access tokens expire after 15 minutes.", "Login page uses the brand colors."
    )
    # ("how long" would find it alone: it asks for a duration, recall/vocabulary.py)
    question = "when must a login be renewed"
    assert token not in ids(svc, question, here)
    found = ids(svc, question, here, alternatives=["access token expiry", "token lifetime"])
    assert found[0] == token


def test_the_question_weighs_more_than_a_rewording(svc: Synapse, here: Scope) -> None:
    [cache, redis] = remember(svc, here, "The cache TTL is 300 s.", "Redis holds the sessions.")
    assert ids(svc, "cache ttl", here, alternatives=["redis sessions"])[0] == cache
    assert ids(svc, "redis sessions", here, alternatives=["cache ttl"])[0] == redis


def test_more_than_four_rewordings_is_bad_input(svc: Synapse, here: Scope) -> None:
    remember(svc, here, "anything")
    with pytest.raises(BadInput, match="at most 4"):
        svc.recall("anything", here, alternatives=["a", "b", "c", "d", "e"])


def test_cli_also_passes_rewordings(svc: Synapse, here: Scope, outside: Path) -> None:
    [token] = remember(svc, here, "Access tokens expire after 15 minutes.")
    done = run_cli(
        "memory",
        "recall",
        "how long is a login valid",
        "--also",
        "access token expiry",
        "--json",
        cwd=outside,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hits"][0]["id"] == token
    many = ["--also", "x"] * 5
    bad = run_cli("memory", "recall", "q", *many, cwd=outside)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert (
        bad.stderr.strip().splitlines()[-1] == "synapse: 5 rewordings given; at most 4 are searched"
    )


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    query=st.text(max_size=60),
    alternatives=st.lists(st.text(max_size=60), max_size=4),
)
def test_any_question_and_rewordings_answer_within_the_budget(
    svc: Synapse, here: Scope, query: str, alternatives: list[str]
) -> None:
    if not svc.recall("", here).hits:
        remember(svc, here, "Deploys go out with make deploy.", "PAY-7731 needs two approvers.")
    try:
        found = svc.recall(query, here, budget="lean", alternatives=alternatives)
    except BadInput:
        return  # text that is not valid UTF-8 (lone surrogates)
    data = found.as_json()
    assert len(json.dumps(data, ensure_ascii=False)) <= svc.config.budget("lean").response_chars
    assert all(hit.get("weak", True) is True for hit in data["hits"])
