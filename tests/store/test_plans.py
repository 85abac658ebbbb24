"""The query plan of every hot query, pinned.

Each test runs the real function over a store of 12,000 memories in three
scopes, records every statement it sends to SQLite (with its parameters bound)
and asks SQLite how it would run each one. A test asserts the index a query
must use, not the whole plan, so a harmless rewrite passes while a dropped
index, or a query rewritten so that it misses its index, fails. Synapse never
runs ANALYZE, so the planner decides on its built-in estimates, as here; the
duplicate check is also pinned on an analyzed copy, where it once went wrong.
"""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.drift import commit_check
from synapse_git.drift.conflict_candidates import Candidates
from synapse_git.git.git_command import Change
from synapse_git.git.project_scope import Scope
from synapse_git.recall import query_terms, ranking
from synapse_git.store import database, memories, pages, readonly
from synapse_git.textrules import norm_key

SIZE = 12_000
SCOPES = (None, "/work/a", "/work/b")
RARE = "quokkaish"  # in every 1,000th memory
COMMON = "deploy"  # in every memory


def _body(rng: random.Random, words: list[str], i: int) -> str:
    parts = [COMMON, *rng.sample(words, 24), f"src/mod{i % 40}/file{i}.py"]
    if i % 1000 == 0:
        parts.append(RARE)
    return " ".join(parts)


def _seed(path: Path) -> None:
    rng = random.Random(15)
    words = [f"w{n}x" for n in range(4000)]
    with closing(database.connect(path)) as conn, database.transaction(conn):
        conn.executemany(
            "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
            " VALUES (?, 'notes.md', ?, ?, ?, ?)",
            (
                (body, SCOPES[i % 3], f"2025-01-01T00:00:{i:06d}", "x", norm_key(body))
                for i in range(1, SIZE + 1)
                for body in [_body(rng, words, i)]
            ),
        )
        # Some hidden rows, as a store that has lived a while has.
        conn.execute("UPDATE memories SET state = 'forgotten' WHERE id % 50 = 7")


@pytest.fixture(scope="module")
def stores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("plans")
    plain, analyzed = folder / "plain.db", folder / "analyzed.db"
    _seed(plain)
    with closing(sqlite3.connect(plain)) as source, closing(sqlite3.connect(analyzed)) as copy:
        source.backup(copy)
        copy.execute("ANALYZE")
    return {"plain": plain, "analyzed": analyzed}


@pytest.fixture
def conn(stores: dict[str, Path]) -> Iterator[sqlite3.Connection]:
    with closing(database.connect(stores["plain"])) as opened:
        yield opened


def plans(conn: sqlite3.Connection, action: Callable[[], object]) -> list[tuple[str, list[str]]]:
    """Every query `action` runs, with SQLite's plan for it (one detail line a step)."""
    sent: list[str] = []
    conn.set_trace_callback(sent.append)
    try:
        action()
    finally:
        conn.set_trace_callback(None)
    found = []
    for sql in sent:
        if re.match(r"\s*(SELECT|WITH|UPDATE|DELETE)\b", sql, re.IGNORECASE):
            found.append((sql, [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")]))
    assert found, "the action ran no query"
    return found


def no_table_scan(found: list[tuple[str, list[str]]]) -> None:
    """No query reads the whole memories or history table (FTS5 scans are index reads)."""
    for sql, steps in found:
        scans = [s for s in steps if re.match(r"SCAN (memories|m|history)\b(?! VIRTUAL)", s)]
        assert not scans, f"{sql[:120]}\n  reads a whole table: {steps}"


def using(found: list[tuple[str, list[str]]], pattern: str) -> list[str]:
    """The queries whose plan has a step matching `pattern`."""
    return [sql for sql, steps in found if any(re.search(pattern, s) for s in steps)]


def _live_id(conn: sqlite3.Connection, project: str | None) -> int:
    row = conn.execute(
        "SELECT max(id) FROM memories WHERE project IS ? AND state = 'live'", (project,)
    ).fetchone()
    return int(row[0])


@pytest.mark.parametrize("kind", ["plain", "analyzed"])
@pytest.mark.parametrize("project", SCOPES)
def test_duplicate_check_reads_the_norm_index(
    stores: dict[str, Path], kind: str, project: str | None
) -> None:
    with closing(database.connect(stores[kind])) as conn:
        memory_id = _live_id(conn, project)
        body = conn.execute("SELECT body FROM memories WHERE id = ?", (memory_id,)).fetchone()[0]
        found = plans(conn, lambda: memories.find_duplicate(conn, body, project))
        assert memories.find_duplicate(conn, body, project) == memory_id
    no_table_scan(found)
    assert using(found, r"^SEARCH memories USING (COVERING )?INDEX memories_norm \(norm=")
    assert not using(found, "memories_scope"), "the scope index reads every memory of the scope"


def test_visibility_reads_one_row_by_id(conn: sqlite3.Connection) -> None:
    memory_id = _live_id(conn, "/work/a")
    found = plans(conn, lambda: memories.get(conn, memory_id, ["/work/a"]))
    no_table_scan(found)
    assert using(found, r"^SEARCH memories USING INTEGER PRIMARY KEY")


def test_page_read_reads_one_row_by_id(conn: sqlite3.Connection) -> None:
    memory_id = _live_id(conn, None)
    found = plans(
        conn, lambda: pages.read_page(conn, memory_id, ["/work/a"], offset=0, page_bytes=64)
    )
    no_table_scan(found)
    assert using(found, r"^SEARCH memories USING INTEGER PRIMARY KEY")


@pytest.mark.parametrize("query", [RARE, f"{RARE} file", COMMON, "w17x w18x"])
def test_both_rankings_read_the_fts_indexes_and_rows_by_id(
    conn: sqlite3.Connection, query: str
) -> None:
    parsed = query_terms.parse(query)
    found = plans(conn, lambda: ranking.search(conn, parsed, ["/work/a"]))
    no_table_scan(found)
    assert using(found, r"^SCAN memory VIRTUAL TABLE INDEX \d+:M")
    if query == "w17x w18x":
        # Identifier fragments are matched inside longer tokens too: the trigram index.
        assert using(found, r"^SCAN memorygram VIRTUAL TABLE INDEX \d+:M")
    for sql, steps in found:
        if re.search(r"\bmemory(gram)? MATCH", sql):
            assert any(re.match(r"SCAN memory(gram)? VIRTUAL TABLE INDEX \d+:M", s) for s in steps)
        if "memories" in sql and "max(id)" not in sql:
            # Every row of memories a ranking reads, it reads by id.
            assert any("INTEGER PRIMARY KEY" in s for s in steps), (sql[:120], steps)


def test_many_substring_matches_are_ranked_without_rescoring(conn: sqlite3.Connection) -> None:
    """Past GRAM_SCORED matches, the trigram ranking takes the ids its counting pass
    read, newest first, by id: no second pass over the trigram index."""
    parsed = query_terms.parse("w17x w18x")
    found = plans(conn, lambda: ranking.search(conn, parsed, ["/work/a"]))
    gram = [sql for sql, _ in found if "memorygram MATCH" in sql]
    # One counting pass a substring, none ranking: no bm25, no window of rowids.
    assert len(gram) == len([t for t in parsed.terms if t.substring])
    assert not [sql for sql in gram if "bm25(" in sql or "rowid >" in sql]
    ranked = ranking.search(conn, parsed, ["/work/a"])
    assert ranked.candidates and all(c.held for c in ranked.candidates)


def test_recent_list_walks_the_scope_index_newest_first(conn: sqlite3.Connection) -> None:
    found = plans(conn, lambda: ranking.newest(conn, ["/work/a"], 8))
    no_table_scan(found)
    assert len(using(found, r"^SEARCH memories USING COVERING INDEX memories_scope")) == 2
    assert not using(found, "TEMP B-TREE"), "newest first must come from the index, not a sort"


def test_counts_read_the_tallies_and_the_scope_index(conn: sqlite3.Connection) -> None:
    found = plans(conn, lambda: ranking.searched(conn, ["/work/a"]))
    assert using(found, r"^SEARCH tallies USING .*INDEX")
    found = plans(conn, lambda: memories.counts(conn, "/work/a"))
    no_table_scan(found)
    assert using(found, r"^SEARCH memories USING COVERING INDEX memories_scope \(project=")


def test_conflict_candidates_read_word_lists_and_rows_by_id(conn: sqlite3.Connection) -> None:
    memory = memories.get(conn, _live_id(conn, "/work/a"), ["/work/a"])
    assert memory is not None
    scope = Scope(Path("/work/a"), "/work/a", None, None, None)
    found = plans(conn, lambda: Candidates(conn, scope, newer_only=False).many([memory]))
    no_table_scan(found)
    assert using(found, r"^SCAN memory VIRTUAL TABLE INDEX \d+:M")
    for sql, steps in found:
        if "FROM memories" in sql and "max(id)" not in sql:
            assert any("INTEGER PRIMARY KEY" in s for s in steps), (sql[:120], steps)


def test_commit_path_lookup_reads_the_trigram_index_within_the_project(
    stores: dict[str, Path],
) -> None:
    change = Change("D", "src/mod3/file3.py")
    with closing(readonly.open_readonly(stores["plain"])) as conn:  # type: ignore[type-var]
        found = plans(
            conn,
            lambda: commit_check.broken_memories(
                conn,
                "/work/a",
                "/work",
                [change],
                find_paths=lambda text: re.findall(r"src/\S+", text),
                still_tracked=lambda folders: set(folders),
                staged_files=lambda: [],
            ),
        )
        version = plans(conn, lambda: readonly.store_version(conn))
    no_table_scan(found)
    assert using(found, r"^SCAN memorygram VIRTUAL TABLE INDEX \d+:M")
    assert using(found, r"^SEARCH memories USING (INTEGER PRIMARY KEY|INDEX memories_scope)")
    no_table_scan(version)


@pytest.mark.parametrize(
    ("state", "walks"),
    # Most memories visible: the first page walks the created index, newest first, and
    # stops; a few visible (the forgotten ones): those few are sorted.
    [(None, True), ("forgotten", False)],
)
def test_a_listing_page_walks_the_created_index_when_most_memories_match(
    conn: sqlite3.Connection, state: str | None, walks: bool
) -> None:
    from synapse_git.store import listing_filter

    narrow = listing_filter.make(state=state)
    for limit, offset in ((50, 0), (20, 30)):
        found = plans(
            conn,
            lambda limit=limit, offset=offset: memories.listing(
                conn, ["/work/a"], limit=limit, offset=offset, narrow=narrow
            ),
        )
        assert bool(using(found, r"^SCAN memories USING INDEX memories_created")) == walks
        assert bool(using(found, "TEMP B-TREE FOR ORDER BY")) == (not walks)
        # The same rows as every match sorted.
        total, page = memories.listing(conn, ["/work/a"], limit=limit, offset=offset, narrow=narrow)
        total_all, every = memories.listing(conn, ["/work/a"], narrow=narrow)
        assert total == total_all > limit
        assert [m.id for m in page] == [m.id for m in every[offset : offset + limit]]
