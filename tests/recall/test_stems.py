"""Porter stems asked of a table in memory (recall/stems.py) agree with the store's
porter index: a form is left out only when the index takes it for the word."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synapse_git.recall import stems, word_forms
from synapse_git.store import database, fts
from synapse_git.textrules import norm_key

WORDS = ["deploy", "configure", "experiment", "migrate", "token", "quasar", "running", "cache"]


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    with closing(database.connect(tmp_path / "store.db")) as opened:
        yield opened


def test_the_tokenizer_is_the_porter_index_s(conn: sqlite3.Connection) -> None:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'memory'").fetchone()
    assert f"tokenize = '{stems.TOKENIZE}'" in row[0]


@pytest.mark.parametrize("word", WORDS)
def test_a_form_is_left_out_only_when_the_index_finds_it_as_the_word(
    conn: sqlite3.Connection, word: str
) -> None:
    with database.transaction(conn):
        conn.execute(
            "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
            " VALUES (?, '', NULL, 'c', 'u', ?)",
            (f"The {word} note.", norm_key(word)),
        )
    forms = word_forms.variants(word)
    kept = stems.apart(word, forms)
    for form in forms:
        found = conn.execute(
            "SELECT count(*) FROM memory WHERE memory MATCH ?", (fts.quote(form),)
        ).fetchone()[0]
        assert (stems.stem(form) == stems.stem(word)) == bool(found)
        if form not in kept:
            assert any(stems.stem(form) == stems.stem(other) for other in [word, *kept])


def test_words_asked_together_get_each_its_own_stem() -> None:
    asked = ["unstemmedword", "deployments", "deployment", "configurations", "unstemmedword"]
    assert stems.stems(asked) == [stems.stem(word) for word in asked]
    assert stems.stem("deployments") == stems.stem("deployment")
    assert stems.stem("configurations") == ("configur",)


def test_stems_past_the_keep_are_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stems, "KEEP", 3)
    stems.stems(["alpha", "beta"])
    assert stems.stems(["alpha", "gamma", "delta"]) == [("alpha",), ("gamma",), ("delta",)]


@given(st.text(max_size=40))
def test_any_text_has_a_stem(text: str) -> None:
    assert isinstance(stems.stem(text), tuple)
    assert stems.apart(text, [text]) == []


def test_words_one_token_in_the_porter_index_are_asked_once() -> None:
    # A word's synonyms `schedule`, `scheduler`, `scheduled` are one porter token:
    # asked side by side, bm25 would score a note holding it three times.
    assert stems.distinct(["nightly", "cron", "schedule", "scheduler", "scheduled"]) == [
        "nightly",
        "cron",
        "schedule",
    ]
