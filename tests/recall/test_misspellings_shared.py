"""A question and its rewordings share the misspellings judged for their candidates
(recall/coverage.py, Near), and each wording still gets the coverage it gets alone."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.recall import query_terms, rewordings
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
