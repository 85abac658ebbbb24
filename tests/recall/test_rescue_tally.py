"""The misspelling rescue ranks the rows holding most of a misspelled word's rarest
trigrams, shorter rows first, from the index's rows and each row's length: never
bm25 over the trigram index, which reads and cuts every matching row's text again
(docs/recall.md, "The misspelling rescue within its budget")."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.recall import index_ranking, query_terms, term_counts
from synapse_git.store import database, memories

OTHER = "/work/other"
FILLER = "notes about the weekly planning meeting and the coffee machine on floor three"


def _bodies() -> list[tuple[str, str | None]]:
    bodies: list[tuple[str, str | None]] = [(f"{FILLER} number {i}", None) for i in range(60)]
    bodies += [
        (f"{FILLER}; elasticsearch is mentioned here in passing, among other things", None),
        ("The search endpoint uses Elasticsearch 8.", None),  # 62: short, the true word
        ("Elasticsearch 8 runs the product search.", OTHER),  # 63: not visible from here
        ("Elastic bands and a search party.", None),  # 64: some of the trigrams only
    ]
    return bodies


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    with closing(database.connect(tmp_path / "store.db")) as opened:
        with database.transaction(opened):
            for body, project in _bodies():
                memories.insert(opened, body, "", project)
        yield opened


def test_the_rescue_ranks_rows_holding_the_true_word_first_shorter_first(
    conn: sqlite3.Connection,
) -> None:
    notes: list[str] = []
    grams = query_terms.trigrams("elasticsaerch")
    plan = index_ranking.rescue_plan(term_counts.TermCounts(conn), grams, notes)
    asked: list[str] = []
    conn.set_trace_callback(asked.append)
    try:
        ranked = index_ranking.rank(conn, "memorygram", plan, [], 5)
    finally:
        conn.set_trace_callback(None)
    # The short note holding the word first; the short note holding most of its
    # trigrams above the long one holding the word among many others, as bm25
    # ranks them; the other project's note is not visible.
    assert ranked[:3] == [62, 64, 61]
    assert 63 not in ranked
    assert not [sql for sql in asked if "bm25(memorygram" in sql]
    # From the other project the note there is ranked first.
    assert index_ranking.rank(conn, "memorygram", plan, [OTHER], 5)[0] == 63
