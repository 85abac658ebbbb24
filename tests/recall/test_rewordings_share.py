"""A question and its rewordings read each term list and each candidate's text once,
and share the misspellings judged for their candidates (recall/coverage.py, Near)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.recall import query_terms, ranking, rewordings, term_counts
from synapse_git.store import database
from synapse_git.textrules import norm_key

BODIES = [
    "Deploy the billing service from the release branch after the smoke tests pass.",
    "The billing service retries a failed charge three times before it gives up.",
    "Smoke tests run against staging before any deploy of the ledger.",
    "Rotate the ledger signing key every quarter.",
]


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    with closing(database.connect(tmp_path / "store.db")) as opened:
        with database.transaction(opened):
            opened.executemany(
                "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                " VALUES (?, '', NULL, ?, 'x', ?)",
                [(b, f"2025-01-01T00:00:0{i}", norm_key(b)) for i, b in enumerate(BODIES)],
            )
        yield opened


def _statements(conn: sqlite3.Connection, texts: list[str]) -> list[str]:
    sent: list[str] = []
    conn.set_trace_callback(sent.append)
    try:
        rewordings.search(conn, [query_terms.parse(text) for text in texts], [])
    finally:
        conn.set_trace_callback(None)
    return sent


def test_a_rewording_with_the_questions_words_reads_nothing_again(
    conn: sqlite3.Connection,
) -> None:
    counting = f"LIMIT {term_counts.COMMON_AT}"
    alone = _statements(conn, ["billing deploy"])
    both = _statements(conn, ["billing deploy", "deploy billing smoke"])
    lists = [sql for sql in both if counting in sql]
    # Only the rewording's new word ("smoke", and its other forms) is counted.
    assert len(lists) > len([sql for sql in alone if counting in sql])
    assert len(lists) == len(set(lists))
    texts = [sql for sql in both if "substr(CAST(body" in sql]
    read = [i for sql in texts for i in re.findall(r"\d+", sql.rsplit("IN", 1)[1])]
    assert read and len(read) == len(set(read))


def test_forms_the_stemmer_takes_for_the_word_are_not_searched(
    conn: sqlite3.Connection,
) -> None:
    # Porter stems `deploye`, `deployment` and `deployal` alike: one look-up serves all.
    sent = _statements(conn, ["deploy"])
    counted = [sql for sql in sent if f"LIMIT {term_counts.COMMON_AT}" in sql]
    alike = ('"deploye"', '"deployment"', '"deployal"')
    assert len([sql for sql in counted if any(form in sql for form in alike)]) == 1


def test_another_form_still_finds_what_the_word_does_not(conn: sqlite3.Connection) -> None:
    with database.transaction(conn):
        conn.execute(
            "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
            " VALUES ('Each deployment is logged.', '', NULL, '2025-01-02', 'x', 'k')"
        )
    ranked = rewordings.search(conn, [query_terms.parse("deploy")], [])
    assert sorted(c.id for c in ranked.candidates) == [1, 3, 5]


def test_a_rewording_is_ranked_less_deep_than_the_question(conn: sqlite3.Connection) -> None:
    sent = _statements(conn, ["billing", "ledger"])
    limits = [
        int(m) for sql in sent for m in re.findall(r"bm25\(memory, 1.0, 0.3\).*LIMIT (\d+)", sql)
    ]
    assert limits == [ranking.DEPTH * 2, rewordings.REWORDED_DEPTH * 2]


def test_misspellings_judged_for_the_question_serve_its_rewordings_unchanged(
    conn: sqlite3.Connection,
) -> None:
    # "biling" matches nothing as written: its misspellings are judged once for
    # the question and kept for the rewording, which still covers what it does alone.
    texts = ["biling retries", "biling deploy smoke"]
    both = rewordings.search(conn, [query_terms.parse(text) for text in texts], [], floor=False)
    best: dict[int, float] = {}
    for text in texts:
        alone = rewordings.search(conn, [query_terms.parse(text)], [], floor=False)
        for c in alone.candidates:
            best[c.id] = max(best.get(c.id, 0.0), c.share)
    assert {c.id: c.share for c in both.candidates} == best
    assert any("biling" in c.held for c in both.candidates)
