"""Substring lookups on the trigram index without positions (store/substrings.py)
give what the index with positions gave: the same rows, in the same bm25 order.

Each test builds a real store, and beside its trigram index a twin with
positions (`detail=full`, the index before schema 8) over the same rows, and
compares the two answers for substrings of every kind: identifiers, paths,
repeated and overlapping text, mixed case, accents, CJK, a hit in the source.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from support import old_store

from synapse_git.recall import index_ranking, term_counts
from synapse_git.store import database, fts, integrity, schema, substrings
from synapse_git.textrules import norm_key

PIECES = [
    "parse_config",
    "parseXconfig",
    "100% done",
    "100x done",
    "back\\slash",
    "seXco se_ e_c _co",  # every trigram of `se_co`, and LIKE's `se_co` unescaped
    "abXXcd ab% b%c %cd",
    "PARSE_CONFIG",
    "ParseConfig",
    "src/app/db.py",
    "PAY-7731",
    "東京都庁",
    "東京",
    "データベース",
    "ÉCOLE",
    "école",
    "\u017ftraße",
    "aaaa",
    "abab",
    "deploy",
    "\u03c2 \u03c3 \u03a3",
    "\u13a0",
    "fig",
    "con",
]
QUERIES = [
    "parse_config",
    "se_co",  # `_` and `%` are themselves, never LIKE's wildcards
    "ab%cd",
    "100% d",
    "k\\s",
    "config",
    "arse_c",
    "app/db",
    "pay-77",
    "東京都",
    "京都庁",
    "データ",
    "école",
    "ÉCOLE",
    "straß",
    "stra",  # ASCII, held by "\u017ftraße" as the tokenizer folds it
    "PARSE_c",
    "aaa",
    "aaaa",
    "aaaaa",
    "bab",
    "abab",
    "\u03c3 \u03c3",
    "\uab70",
    "eploy",
    "nothing-like-it",
    'qu"ote',
]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[sqlite3.Connection]:
    path = tmp_path_factory.mktemp("substrings") / "memory.db"
    rng = random.Random(8)
    with closing(database.connect(path)) as conn:
        with database.transaction(conn):
            for _ in range(600):
                body = " ".join(rng.choice(PIECES) for _n in range(rng.randint(1, 9)))
                source = rng.choice(["", "notes.md", "src/app/db.py", "東京.md", "aaaa.txt"])
                conn.execute(
                    "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                    " VALUES (?, ?, NULL, 't', 't', ?)",
                    (body, source, norm_key(body)),
                )
            conn.execute("UPDATE memories SET state = 'forgotten' WHERE id % 11 = 0")
            conn.execute(
                "CREATE VIRTUAL TABLE twin USING fts5 (body, source, content = 'live',"
                " content_rowid = 'id', tokenize = 'trigram')"
            )
            conn.execute("INSERT INTO twin (twin) VALUES ('rebuild')")
        yield conn


def _twin(conn: sqlite3.Connection, item: str) -> list[int]:
    rows = conn.execute("SELECT rowid FROM twin WHERE twin MATCH ?", (fts.quote(item),))
    return [int(row[0]) for row in rows]


@pytest.mark.parametrize("item", QUERIES)
def test_confirmed_candidates_are_the_phrase_matches(store: sqlite3.Connection, item: str) -> None:
    assert list(substrings.holding(store, [item])) == _twin(store, item)


@pytest.mark.parametrize(
    "items",
    [
        ["parse_config"],
        ["東京都"],
        ["aaaa", "abab"],
        ["école", "app/db"],
        ["aaa"],
        ["\u03c3 \u03c3", "bab"],
    ],
)
def test_the_substring_ranking_is_the_phrase_bm25(
    store: sqlite3.Connection, items: list[str]
) -> None:
    matched = sorted({i for item in items for i in _twin(store, item)})
    assert matched
    hits = [len(_twin(store, item)) for item in items]
    expected = store.execute(
        "SELECT rowid, bm25(twin, 1.0, 0.3) FROM twin WHERE twin MATCH ? ORDER BY 2, 1 DESC",
        (fts.any_of(items),),
    ).fetchall()
    assert substrings.ranked(store, matched, items, hits) == [int(r[0]) for r in expected]


def test_every_and_the_counts_agree_with_the_phrase_index(store: sqlite3.Connection) -> None:
    counts = term_counts.TermCounts(store)
    for item in QUERIES:
        assert counts("memorygram", item) == len(_twin(store, item)), item
        assert index_ranking.every(store, "memorygram", [item], []) == set(_twin(store, item))


def test_folding_is_the_tokenizer_s_own(tmp_path: Path) -> None:
    # Characters whose folding differs between Python and SQLite's tables.
    text = "\u017f µ \u03c2 ϐ \u037f İ K Å \u13a0 Ა ᲀ ǅ ẞ ÉCOLE"
    with closing(sqlite3.connect(tmp_path / "fold.db")) as conn:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5 (c, tokenize = 'trigram')")
        conn.execute("CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance')")
        conn.executemany("INSERT INTO t (c) VALUES (?)", [(ch * 3,) for ch in text])
        folded = [str(term)[0] for term, _ in conn.execute("SELECT term, doc FROM v ORDER BY doc")]
    assert substrings.fold(text) == "".join(folded)


def test_a_version_7_store_gets_the_trigram_index_without_positions(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    bodies = ["Deploy with make deploy", "the cache key is CACHE_TTL_SECONDS", "東京都庁の設定"]
    with closing(old_store(path, 7)) as conn:
        for body in bodies:
            conn.execute(
                "INSERT INTO memories (body, source, created_at, updated_at, norm)"
                " VALUES (?, 'notes.md', 't', 't', ?)",
                (body, norm_key(body)),
            )
        conn.execute("UPDATE memories SET state = 'forgotten' WHERE id = 1")
        before = conn.execute("SELECT * FROM memories ORDER BY id").fetchall()
        assert _twin_ddl(conn) and "detail" not in _twin_ddl(conn)
    with closing(database.connect(path)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
        assert "detail = none" in _twin_ddl(conn)
        after = conn.execute("SELECT * FROM memories ORDER BY id").fetchall()
        # Version 9 adds anchor_inferred (0: these global memories get no anchor) and
        # version 10 `everywhere` (0 until asked for).
        assert [row[:-2] for row in after] == before
        assert {row[-2:] for row in after} == {(0, 0)}
        assert integrity.check(conn).ok
        assert index_ranking.every(conn, "memorygram", ["cache_ttl"], []) == {2}
        assert index_ranking.every(conn, "memorygram", ["京都庁"], []) == {3}
        assert index_ranking.every(conn, "memorygram", ["deploy"], []) == set()
        # The triggers write to the new index.
        with database.transaction(conn):
            conn.execute("UPDATE memories SET state = 'live' WHERE id = 1")
        assert index_ranking.every(conn, "memorygram", ["deploy"], []) == {1}
        assert integrity.check(conn).ok


def _twin_ddl(conn: sqlite3.Connection) -> str:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'memorygram'").fetchone()
    return str(row[0])
