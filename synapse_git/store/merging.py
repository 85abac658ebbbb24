"""Keeping the two FTS5 indexes merged after bulk writes (docs/store.md#merged-indexes).

FTS5 writes each transaction's words as new segments and merges segments only
a few at a time, so a large import leaves each index in about ten segments.
Every look-up of a word seeks it in each segment: drift about recall's hits
makes some thirty such look-ups, and they cost about one and a half times as
much over ten segments as over one (docs/benchmarks.md). Merging into one
segment rewrites the whole index, so it is done only after a write large
against the store, whose own cost it then stays within.
"""

from __future__ import annotations

import sqlite3
from contextlib import suppress

from synapse_git.store.schema import INDEXES

# A bulk write of at least 1/FULL_SHARE of the live memories merges both indexes
# fully: a merge costs about 50 µs of CPU a page and the indexes take about 0.2
# pages a memory, so that adds at most ~0.05 CPU s per 1,000 memories written. A
# smaller write leaves FTS5's own merging alone: stopping a full merge part way (a
# bounded merge) left later imports into 1,000,000 memories in 40-60 segments,
# each costing four times as much.
FULL_SHARE = 5
STEP_PAGES = 500  # pages one merge command writes; each is its own transaction


def after_bulk_write(conn: sqlite3.Connection, written: int) -> bool:
    """Merge both indexes into one segment each when `written` memories, just
    committed at once, are a large enough share of the store; True when it did.
    A failure (a full disk) is not the write's, which is committed and must not be
    reported as failed; the indexes stay as they were, and answer the same."""
    live = int(conn.execute("SELECT coalesce(sum(live), 0) FROM tallies").fetchone()[0])
    if written <= 0 or written * FULL_SHARE < live:
        return False
    with suppress(sqlite3.Error):
        merge(conn)
        return True
    return False


def merge(conn: sqlite3.Connection) -> None:
    """Merge each index into one segment. `conn` must be in autocommit mode: each
    step of STEP_PAGES commits on its own, so the write lock is let go between
    steps and an interrupted merge keeps what it did."""
    for index in INDEXES:
        while not _step(conn, index, STEP_PAGES):
            pass
    # A whole merge frees the pages of every old segment: in a store made with
    # auto_vacuum (every store this version makes: store/database.py), they go back
    # to the file system instead of staying in the file until later writes reuse them.
    # (One step of this pragma frees one page: run as a script, it runs to the end.)
    conn.executescript("PRAGMA incremental_vacuum;")


def _step(conn: sqlite3.Connection, index: str, pages: int) -> bool:
    """One merge command of about `pages` pages; True when it found nothing to merge.
    A negative count merges every segment, not only those of one level."""
    before = conn.total_changes
    conn.execute(f"INSERT INTO {index} ({index}, rank) VALUES ('merge', ?)", (-pages,))
    # FTS5's own signal: a merge that changed fewer than two rows had nothing to do.
    return conn.total_changes - before < 2


def optimize(conn: sqlite3.Connection) -> None:
    """Merge each index into one segment in one command (after a rebuild, inside its
    transaction: it has read every row already)."""
    for index in INDEXES:
        conn.execute(f"INSERT INTO {index} ({index}) VALUES ('optimize')")


def segments(conn: sqlite3.Connection, index: str) -> int:
    """How many segments `index` is in; reads its whole segment index (tests, benchmarks)."""
    if index not in INDEXES:
        raise ValueError(f"not a search index: {index}")
    return int(conn.execute(f"SELECT count(DISTINCT segid) FROM {index}_idx").fetchone()[0])
