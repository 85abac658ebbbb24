"""Word forms (docs/recall.md, "Stems that meet"): families, identifier shapes, edit distance."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_git.recall import word_forms
from synapse_git.recall.query_terms import parse

FAMILIES = [
    ("deploy", "deployment", "deploying", "deploys", "deployed"),
    ("experiment", "experimental", "experiments"),
    ("configure", "configuration", "configuring", "configured"),
    ("migrate", "migration", "migrations", "migrating"),
    ("run", "running", "runs"),
    ("use", "used"),
    # A Latin base that changes its last letters in the derivation.
    ("resume", "resumption", "resuming", "resumed"),
    ("consume", "consumption", "consumer"),
    ("describe", "description", "descriptions", "described"),
    ("subscribe", "subscription", "subscribers"),
]


@pytest.mark.parametrize("members", FAMILIES)
def test_a_family_shares_one_key(members: tuple[str, ...]) -> None:
    assert len({word_forms.family(word) for word in members}) == 1


@pytest.mark.parametrize(
    ("word", "derived"),
    [
        ("deploy", "deployment"),
        ("experiment", "experimental"),
        ("configure", "configuration"),
        ("migrate", "migration"),
    ],
)
def test_a_base_and_its_derivation_are_searched_as_each_other(word: str, derived: str) -> None:
    assert derived in word_forms.variants(word)
    assert word in word_forms.variants(derived)


def test_a_derivation_whose_base_changes_searches_its_base() -> None:
    assert "resume" in word_forms.variants("resumption")
    assert "describe" in word_forms.variants("descriptions")
    assert word_forms.family("script") != word_forms.family("description")


def test_unrelated_words_stay_apart() -> None:
    assert word_forms.family("access") == "access" and word_forms.family("status") == "status"
    assert word_forms.family("deploy") != word_forms.family("depot")


@pytest.mark.parametrize(
    ("term", "word", "close"),
    [
        ("passwrod", "password", True),
        ("kuberentes", "kubernetes", True),
        ("grafanna", "grafana", True),
        ("postgress", "postgresql", True),
        ("email", "remains", False),
        ("password", "pass", False),
        ("zone", "done", False),
        # Misspelled in one form, written in another: the families are one edit apart.
        ("publsihing", "published", True),
        ("publsihing", "publish", True),
        ("confgiuring", "configured", True),
        ("retreiving", "retrieved", True),
        ("publsihing", "public", False),
        ("emial", "remains", False),
        # One letter changed, added or dropped in a family is another word too often.
        ("charge", "charts", False),
        ("moderated", "models", False),
        ("produces", "production", False),
    ],
)
def test_a_misspelling_must_be_a_small_edit_away(term: str, word: str, close: bool) -> None:
    assert word_forms.close(term, word) is close


def test_only_identifier_like_or_long_words_match_inside_other_words() -> None:
    query = parse("one red zone 09 deployment cacheTtl 连接池")
    terms = {term.word: term.substring for term in query.terms}
    assert terms == {
        "one": False,
        "red": False,
        "zone": False,
        "09": False,  # two characters: too short for any trigram
        "deployment": False,
        "cachettl": True,
        "连接池": True,
    }


@given(st.text(max_size=40))
def test_word_forms_take_any_text(text: str) -> None:
    for word in text.split():
        key = word_forms.family(word)
        assert len(key) <= len(word) + 1
        assert all(word_forms.family(form) == key for form in word_forms.variants(word))
        assert word_forms.distance(word, key, 2) >= 0


# Letters that make the endings family() strips (-ed, -er, -ing, -ion, -ment, -al...).
_LETTERS = st.text(alphabet="abdegilmnort", min_size=3, max_size=10)


def _by_table(term: str, word: str) -> bool:
    """close() by the edit tables alone: the words, else their families."""
    if len(term) < 5:
        return False
    most = 1 if len(term) <= 6 else 2
    if len(word) >= 4 and word_forms.distance(term, word, most) <= most:
        return True
    root, other = word_forms.family(term), word_forms.family(word)
    return len(root) >= word_forms.SWAPPED_AT and word_forms.swapped(root, other)


@given(_LETTERS, _LETTERS)
def test_the_letter_test_before_the_table_turns_away_no_misspelling(term: str, word: str) -> None:
    # close() turns most words away by the letters the two lack and by their
    # lengths; the edit tables alone must agree with it on every pair.
    assert word_forms.close(term, word) is _by_table(term, word)


@given(_LETTERS, st.lists(_LETTERS, max_size=12))
def test_the_misspellings_among_words_are_the_table_s(term: str, words: list[str]) -> None:
    # Recall compares a misspelled term with many words at once (close_among): the
    # same words as the edit tables alone find, one by one, in their order.
    by_table = [word for word in words if _by_table(term, word)]
    assert word_forms.close_among(term, words) == by_table
