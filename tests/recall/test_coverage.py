"""Coverage's word checks: the quick path through ASCII text finds exactly what
cutting the text into unicode61 words finds."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_git.recall import coverage, query_terms, word_forms
from synapse_git.recall.query_terms import Term

TEXTS = [
    "Deployment runs from main; we deploy on Fridays.",
    "The deployments carried on: carry the config (configuration) forward.",
    "quasar-7 and quasars, QUASAR_ID=9, quasarx is not it",
    "Café crème: the naïve resolver drops the accent; cafe is the ASCII form.",
    "Zone done none Clone: one stands alone here.",
    "src/app/db.py holds the pool; PAY-7731 tracks it.",
]
QUESTIONS = [
    "deploy process",
    "carry configure",
    "quasar 7 id",
    "café naive",
    "one",
    "db pay",
    "deplyoment qasar",
]


def _reference(text: str, term: Term, misspelled: bool) -> float:
    """The level, from every folded word of the text."""
    words = {query_terms.fold(token) for token in query_terms.tokens(text)}
    if term.word in words:
        return coverage.EXACT
    if word_forms.family(term.word) in {word_forms.family(word) for word in words}:
        return coverage.STEM
    if misspelled and any(word_forms.close(term.word, word) for word in words):
        return coverage.TYPO
    if term.substring and (term.raw in text.lower() or term.word in query_terms.fold(text)):
        return coverage.SUBSTRING
    return 0.0


@pytest.mark.parametrize("text", TEXTS)
def test_a_word_is_held_as_the_whole_word_list_would_say(text: str) -> None:
    words = coverage.Words(text)
    for question in QUESTIONS:
        for term in query_terms.parse(question).terms:
            for misspelled in (False, True):
                expected = _reference(text, term, misspelled)
                assert words.level(term, misspelled) == expected, (text, term)


@pytest.mark.parametrize("question", QUESTIONS)
def test_misspellings_judged_once_for_all_texts_give_each_text_its_own_level(
    question: str,
) -> None:
    # assess compares each distinct word with a misspelled term once across the
    # texts (coverage.Near); every text must still get the level its own words give.
    terms = query_terms.parse(question).terms
    texts = dict(enumerate(TEXTS))
    weights = {term.word: 1.0 for term in terms}
    held = coverage.assess(texts, terms, weights, [term.word for term in terms])
    for memory_id, text in texts.items():
        expected = tuple(_reference(text, term, True) for term in terms)
        assert held[memory_id].levels == expected, (text, question)


@given(
    st.text(alphabet="abeAB1 -_.", max_size=60), st.text(alphabet="abe1", min_size=1, max_size=6)
)
def test_the_quick_word_search_finds_what_the_word_list_holds(text: str, word: str) -> None:
    # The patterns look behind a word after finding it (coverage._standing,
    # _starting) and an ASCII text is cut by a simpler pattern: anywhere in the
    # text they must agree with the words unicode61 would cut.
    words = {query_terms.fold(token) for token in query_terms.tokens(text)}
    held = coverage.Words(text)
    assert held.has(word) is (word in words)
    assert held.words == words
    key = word_forms.family(word)
    assert held.has_family(word) is (key in {word_forms.family(w) for w in words})


def test_a_misspelled_term_is_compared_with_a_bounded_number_of_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(coverage, "NEAR_WORDS", 3)
    compared: list[str] = []
    close_among = word_forms.close_among

    def counted(term: str, words: Iterable[str]) -> list[str]:
        words = list(words)
        compared.extend(words)
        return close_among(term, words)

    monkeypatch.setattr(word_forms, "close_among", counted)
    near = coverage.Near()
    assert near.any_in("kuberentes", {"kubernetes", "alpha", "beta"})
    assert not near.any_in("kuberentes", {"gamma", "delta", "kubernetez"})
    assert len(compared) == 3
    # A misspelling judged before the bound is still found in other texts.
    assert near.any_in("kuberentes", {"kubernetes", "epsilon"})


def test_the_rescue_s_best_matches_are_judged_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    """With room for few comparisons, the misspelled word is still found in the note the
    trigram rescue ranks first, ahead of many notes holding another word of the question."""
    import json
    from pathlib import Path

    from synapse_git.service import Synapse

    monkeypatch.setattr(coverage, "NEAR_WORDS", 40)
    svc = Synapse()
    filler = [
        f"Namespaces note {n}: alpha{n} beta{n} gamma{n} delta{n} omega{n}." for n in range(60)
    ]
    notes = [*filler, "The cluster runs Kubernetes 1.29; namespaces are shop-staging."]
    svc.import_lines(json.dumps({"body": body, "project": None}) for body in notes)
    found = svc.recall("kuberentes namespaces", svc.scope(Path(str(tmp_path))))
    assert "Kubernetes 1.29" in found.hits[0].body and not found.hits[0].weak
