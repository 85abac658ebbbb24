"""A question and its rewordings read each term list and each candidate's text once."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.recall import index_ranking, query_terms, rewordings
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
    counting = f"LIMIT {index_ranking.COMMON_AT}"
    alone = _statements(conn, ["billing deploy"])
    both = _statements(conn, ["billing deploy", "deploy billing smoke"])
    lists = [sql for sql in both if counting in sql]
    # Only the rewording's new word ("smoke", and its other forms) is counted.
    assert len(lists) > len([sql for sql in alone if counting in sql])
    assert len(lists) == len(set(lists))
    texts = [sql for sql in both if "substr(CAST(body" in sql]
    read = [i for sql in texts for i in re.findall(r"\d+", sql.rsplit("IN", 1)[1])]
    assert read and len(read) == len(set(read))
