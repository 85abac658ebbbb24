"""Keeping the two FTS5 indexes merged after bulk writes (docs/store.md#merged-indexes).

FTS5 writes each transaction's words as a new segment and merges segments only
a few at a time, so a large import leaves each index in about ten segments.
Every look-up of a word seeks it in each segment: drift about recall's hits
makes some thirty such look-ups, and they cost about one and a half times as
much over ten segments as over one (docs/benchmarks.md). FTS5's `merge` command with a
negative page count merges every segment into one, like `optimize`, but stops
after writing about that many pages and resumes where it stopped on the next
call; so the work after an import is bounded by the import's own size.
"""

from __future__ import annotations

import sqlite3
from contextlib import suppress

from synapse_git.store.schema import INDEXES

# Pages of merging allowed per memory written, per index. A page costs about
# 50 µs of CPU to merge, so this adds at most ~0.05 CPU s per 1,000 imported notes
# per index, against the import's own ~0.2; an import of a fifth of the store or
# more still merges fully (the trigram index takes about 0.17 pages a memory).
PAGES_PER_MEMORY = 1
LEAST_PAGES = 64  # even a one-line import finishes merging a small store
STEP_PAGES = 500  # pages one merge command writes; each is its own transaction


def budget(written: int) -> int:
    """Pages each index may merge after `written` memories were stored or forgotten."""
    return LEAST_PAGES + max(0, written) * PAGES_PER_MEMORY


def after_bulk_write(conn: sqlite3.Connection, written: int) -> None:
    """The bounded merge after `written` memories were committed at once. Its failure
    (a full disk) is not the write's: that is already committed and must not be
    reported as failed, and the next bulk write resumes the merge."""
    with suppress(sqlite3.Error):
        merge(conn, budget(written))


def merge(conn: sqlite3.Connection, pages: int) -> bool:
    """Merge each index toward one segment, writing about `pages` pages at most in
    each; True when both are fully merged. `conn` must be in autocommit mode: each
    step commits on its own, so an interrupted merge keeps what it did."""
    done = True
    for index in INDEXES:
        left, merged = pages, False
        while left > 0 and not merged:
            step = min(STEP_PAGES, left)
            merged = _step(conn, index, step)
            left -= step
        # With the budget spent, a one-page step tells whether anything is left.
        done = (merged or _step(conn, index, 1)) and done
    return done


def _step(conn: sqlite3.Connection, index: str, pages: int) -> bool:
    """One merge command of about `pages` pages; True when it found nothing to merge."""
    before = conn.total_changes
    conn.execute(f"INSERT INTO {index} ({index}, rank) VALUES ('merge', ?)", (-pages,))
    # FTS5's own signal: a merge that changed fewer than two rows had nothing to do.
    return conn.total_changes - before < 2


def optimize(conn: sqlite3.Connection) -> None:
    """Merge each index into one segment, whatever it costs (after a rebuild, which
    already read every row)."""
    for index in INDEXES:
        conn.execute(f"INSERT INTO {index} ({index}) VALUES ('optimize')")


def segments(conn: sqlite3.Connection, index: str) -> int:
    """How many segments `index` is in; reads its whole segment index (tests, benchmarks)."""
    if index not in INDEXES:
        raise ValueError(f"not a search index: {index}")
    return int(conn.execute(f"SELECT count(DISTINCT segid) FROM {index}_idx").fetchone()[0])
