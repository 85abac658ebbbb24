"""Words of the same meaning (docs/recall.md): the developer-vocabulary table, both
ways, below the word itself, and the answer a question word asks for."""

from __future__ import annotations

import pytest
import test_recall
from hypothesis import given
from hypothesis import strategies as st
from test_recall import ids, remember

from synapse_git.git.project_scope import Scope
from synapse_git.recall import coverage, vocabulary, word_forms
from synapse_git.service import Synapse

svc, here = test_recall.svc, test_recall.here  # the same fixtures


@pytest.mark.parametrize(
    ("body", "query"),
    [
        ("The database is PostgreSQL 15.", "which db"),
        ("The db runs on a managed host.", "database engine"),
        ("Clone the repository with --recursive.", "repo clone"),
        ("Settings live in app.toml.", "where is the config"),
        ("Login uses OAuth2 with PKCE.", "auth flow"),
        ("Production deploys need an approval.", "prod deploy approval"),
        ("The checkout page has high latency at peak.", "why is checkout slow"),
        ("Deleted accounts are purged after 30 days.", "account removal"),
        ("Users sign in with a hardware key.", "login hardware"),
        ("Every timestamp is stored in UTC.", "which zone do dates use"),
        ("Invoices are sent on the first of the month.", "when do bills go out"),
        ("The traceback is attached to every report.", "where is the stacktrace"),
    ],
)
def test_a_word_finds_a_note_that_says_it_another_way(
    svc: Synapse, here: Scope, body: str, query: str
) -> None:
    [memory, _] = remember(svc, here, body, "Unrelated note about lunch.")
    assert ids(svc, query, here) == [memory]


def test_the_word_itself_ranks_above_a_word_of_the_same_meaning(svc: Synapse, here: Scope) -> None:
    [synonym, exact] = remember(
        svc, here, "The database is backed up nightly.", "The db is backed up nightly."
    )
    found = svc.recall("db backup", here, explain=True)
    assert [c.id for c in found.candidates] == [exact, synonym]
    assert found.candidates[1].share < found.candidates[0].share


def test_a_function_word_is_no_evidence(svc: Synapse, here: Scope) -> None:
    # `unless` and `otherwise` say nothing about a topic: a note holding them and
    # nothing else of the question is no answer to it.
    [answer, _] = remember(
        svc, here, "Cached values expire after 300 seconds.", "Deploys are frozen unless approved."
    )
    found = svc.recall("how long do cached values live unless told otherwise", here, explain=True)
    assert [c.id for c in found.candidates] == [answer]


def test_how_long_asks_for_a_duration(svc: Synapse, here: Scope) -> None:
    [duration, _] = remember(
        svc, here, "Access tokens expire after 15 minutes.", "Access tokens are signed JWTs."
    )
    assert ids(svc, "how long are access tokens valid", here)[0] == duration


def test_a_short_form_key_does_not_join_unrelated_words() -> None:
    # `settings` stems to `set`, which must not make `set` a word for configuration.
    assert vocabulary.equivalents("set") == ()
    assert "configuration" in vocabulary.equivalents("settings")
    assert "settings" in vocabulary.equivalents("configuration")


def test_the_table_works_both_ways() -> None:
    for group in set(vocabulary._table().values()):
        for a in group:
            for b in group:
                if " " not in a and word_forms.family(a) != word_forms.family(b):
                    assert b in vocabulary.equivalents(a), (a, b)


def test_a_synonym_weighs_less_than_any_form_of_the_word() -> None:
    assert coverage.SUBSTRING < coverage.SYNONYM < coverage.TYPO < coverage.STEM < coverage.EXACT


@given(st.text(max_size=40), st.frozensets(st.sampled_from(["how", "what", "when"])))
def test_equivalents_take_any_word(word: str, asked: frozenset[str]) -> None:
    found = vocabulary.equivalents(word, asked)
    assert word not in found and len(found) <= vocabulary.MAX_EQUIVALENTS
