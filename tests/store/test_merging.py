"""The search indexes are merged after bulk writes (docs/store.md#merged-indexes):
`memory import`, `memory forget --import` and `memory check --repair` leave each
index in one segment, a bounded merge resumes where it stopped, and merging
changes no answer."""

from __future__ import annotations

import json
import random
import sqlite3
from contextlib import closing
from pathlib import Path

from synapse_git.service import Synapse
from synapse_git.store import database, integrity, merging
from synapse_git.store.schema import INDEXES
from synapse_git.textrules import norm_key

WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
]


def body(rng: random.Random, n: int) -> str:
    return f"note {n} " + " ".join(rng.choice(WORDS) for _ in range(30)) + f" marker{n % 7}"


def texts(rng: random.Random, first: int, count: int) -> list[str]:
    return [body(rng, first + i) for i in range(count)]


def seed_in_pieces(db: Path, pieces: int, per_piece: int, start: int = 0) -> None:
    """Rows stored in `pieces` transactions, as many remembers would: several segments."""
    rng = random.Random(start)
    conn = database.connect(db)
    try:
        for piece in range(pieces):
            with database.transaction(conn):
                conn.executemany(
                    "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                    " VALUES (?, 'seed', NULL, '2025-01-01', '2025-01-01', ?)",
                    [
                        (text, norm_key(text))
                        for text in texts(rng, start + piece * per_piece, per_piece)
                    ],
                )
    finally:
        conn.close()


def segment_counts(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as conn:
        return {index: merging.segments(conn, index) for index in INDEXES}


def answers(svc: Synapse, outside: Path) -> list[object]:
    scope = svc.scope(outside)
    return [svc.recall(word, scope).as_json() for word in ("marker3", "bravo delta", "note 17")]


def jsonl(*bodies: str) -> list[str]:
    return [json.dumps({"body": text, "project": None}) for text in bodies]


def test_an_import_of_a_fifth_of_the_store_leaves_each_index_in_one_segment(
    outside: Path, isolated_store: Path
) -> None:
    db = isolated_store / "memory.db"
    seed_in_pieces(db, pieces=6, per_piece=40)
    assert all(count > 1 for count in segment_counts(db).values())
    svc = Synapse()
    report = svc.import_lines(
        jsonl(*(f"imported note {n} about {WORDS[n % 12]}" for n in range(60)))
    )
    assert report.imported == 60
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
    with closing(database.connect(db)) as conn:
        assert integrity.check(conn).ok


def test_a_small_import_leaves_the_segments_to_fts5(outside: Path, isolated_store: Path) -> None:
    db = isolated_store / "memory.db"
    seed_in_pieces(db, pieces=6, per_piece=40)
    # 47 of 287 memories: less than a fifth, so no merge of the whole index.
    report = Synapse().import_lines(jsonl(*(f"small import {n}" for n in range(47))))
    assert report.imported == 47
    assert any(count > 1 for count in segment_counts(db).values())
    with closing(database.connect(db)) as conn:
        assert not merging.after_bulk_write(conn, 0)
        assert merging.after_bulk_write(conn, 58)
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}


def test_merging_changes_no_answer(outside: Path, isolated_store: Path) -> None:
    db = isolated_store / "memory.db"
    seed_in_pieces(db, pieces=6, per_piece=40)
    svc = Synapse()
    before = answers(svc, outside)
    with closing(database.connect(db)) as conn:
        merging.merge(conn)
        assert integrity.check(conn).ok
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
    assert answers(Synapse(), outside) == before


def test_forgetting_an_import_and_a_repair_leave_the_indexes_merged(
    outside: Path, isolated_store: Path
) -> None:
    db = isolated_store / "memory.db"
    svc = Synapse()
    report = svc.import_lines(
        jsonl(*(f"imported note {n} about {WORDS[n % 12]}" for n in range(50)))
    )
    assert report.batch is not None
    seed_in_pieces(db, pieces=5, per_piece=30)
    assert svc.forget_import(report.batch).forgotten == 50
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
    seed_in_pieces(db, pieces=5, per_piece=30, start=1000)
    assert svc.check(repair=True).ok
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
    assert not svc.recall("imported", svc.scope(outside)).hits


def test_a_merge_gives_the_old_segments_pages_back_to_the_file_system(
    outside: Path, isolated_store: Path
) -> None:
    db = isolated_store / "memory.db"
    seed_in_pieces(db, pieces=6, per_piece=40)
    with closing(sqlite3.connect(db)) as conn:
        # A store made now can return free pages; one made before keeps them for reuse.
        assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental
    Synapse().import_lines(jsonl(*(f"imported note {n} about {WORDS[n % 12]}" for n in range(80))))
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA freelist_count").fetchone()[0] == 0
        assert integrity.check(conn).ok


def test_a_merge_in_a_store_made_without_auto_vacuum_still_merges(
    outside: Path, isolated_store: Path
) -> None:
    db = isolated_store / "memory.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA auto_vacuum = NONE")
        conn.execute("CREATE TABLE made_before (x)")  # fixes the setting in the file
    seed_in_pieces(db, pieces=6, per_piece=40)
    with closing(database.connect(db)) as conn:
        assert conn.execute("PRAGMA auto_vacuum").fetchone()[0] == 0
        merging.merge(conn)
        assert integrity.check(conn).ok
    assert segment_counts(db) == {"memory": 1, "memorygram": 1}
