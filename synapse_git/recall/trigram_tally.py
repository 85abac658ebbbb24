"""The misspelling rescue's ranking (docs/recall.md, "The misspelling rescue within
its budget"): the rows holding the most of a misspelled word's rarest trigrams.

bm25 in the trigram index (`detail=none`, no positions) reads and cuts each
matching row's text again to count the trigrams in it, about 5 µs a row: over the
rescue's budget of matches, the most of a recall in a large store, where a store a
tenth the size has a tenth of the matches. Reading the trigrams' rows from the
index and each row's length costs a third of that. A row is scored as bm25 would
score it holding each trigram once: a misspelled word's trigrams are rarely held
twice in one note, so the count is all bm25 would add.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence

from synapse_git.store import fts
from synapse_git.store.memories import in_scope_sql

# bm25's usual k1 and b.
K1 = 1.2
B = 0.75


def ranked(
    conn: sqlite3.Connection,
    grams: Sequence[str],
    held: Sequence[int],
    projects: Sequence[str],
    depth: int,
) -> list[int]:
    """The `depth` visible rows best holding `grams` (single trigrams; `held`: how many
    rows hold each), each trigram weighing by its rarity and each row by its length
    against the mean of the rows that match, best first (newest first among equals)."""
    if not grams:
        return []
    (top,) = conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()
    parts = " UNION ALL ".join(
        f"SELECT rowid AS id, {math.log(1 + (int(top) + 1) / (n + 1))!r} AS w"
        " FROM memorygram WHERE memorygram MATCH ?"
        for n in held
    )
    where, params = in_scope_sql(projects, "m.")
    rows = conn.execute(
        f"SELECT id, s / (1 + {K1} * ({1 - B} + {B} * n / avg(n) OVER ())) FROM ("
        " SELECT t.id AS id, t.s AS s, length(CAST(m.body AS BLOB)) + 1 AS n FROM"
        f" (SELECT id, sum(w) AS s FROM ({parts}) GROUP BY id) AS t"
        f" JOIN memories m ON m.id = t.id WHERE {where})"
        f" ORDER BY 2 DESC, 1 DESC LIMIT {int(depth)}",
        [*(fts.holding_any([gram]) for gram in grams), *params],
    )
    return [int(row[0]) for row in rows]
