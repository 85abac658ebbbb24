"""New live memories from the team file, written to the store set-based.

A first sync of a large team file is mostly new memories. Written one
`INSERT` at a time, each row's trigger updates both FTS5 indexes in a
statement of its own, and SQLite (3.40 at least) flushes FTS5's pending terms
to a new index segment at every statement's savepoint: one segment a row, then
merges to fold them. One `INSERT … SELECT` from a temporary table fires the
same triggers inside one statement, so the pending terms are written once;
the indexes end up the same (docs/team.md has the figures).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from synapse_git.store import memories
from synapse_git.team.records import Record
from synapse_git.textrules import norm_key

# Per connection, so never seen by another one; emptied after each use, and gone
# with the rest of the transaction if it rolls back.
_CREATE = """
CREATE TEMP TABLE IF NOT EXISTS team_arrivals (
    seq        INTEGER PRIMARY KEY,
    uid        TEXT NOT NULL,
    body       TEXT NOT NULL,
    source     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    norm       NOT NULL, -- untyped: the key goes in as textrules made it
    author     TEXT NOT NULL,
    line       TEXT NOT NULL,
    head_commit TEXT
)
"""


def add(
    conn: sqlite3.Connection, project: str, arrivals: Sequence[tuple[Record, str]]
) -> list[int]:
    """Insert the live `arrivals` (record, its line) as new shared memories of
    `project`, in the caller's transaction; their memory ids, in order."""
    if not arrivals:
        return []
    # Ids are given, not drawn one by one, so each shared row can name its memory
    # without a query a row; past both the highest id and AUTOINCREMENT's counter,
    # so no id is ever reused.
    first = int(
        conn.execute(
            "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'memories'), 0),"
            " coalesce((SELECT max(id) FROM memories), 0)) + 1"
        ).fetchone()[0]
    )
    stamp = memories.now()
    conn.execute(_CREATE)
    conn.executemany(
        "INSERT INTO temp.team_arrivals VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            (
                first + n,
                record.id,
                record.body,
                record.source,
                record.created_at or stamp,
                record.updated_at or record.created_at or stamp,
                norm_key(record.body),
                record.author,
                line,
                record.head_commit,
            )
            for n, (record, line) in enumerate(arrivals)
        ),
    )
    conn.execute(
        "INSERT INTO memories (id, body, source, project, created_at, updated_at, norm,"
        " head_commit) SELECT seq, body, source, ?, created_at, updated_at, norm, head_commit"
        " FROM temp.team_arrivals ORDER BY seq",
        (project,),
    )
    conn.execute(
        "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
        " SELECT seq, ?, uid, author, 'team', line FROM temp.team_arrivals ORDER BY seq",
        (project,),
    )
    conn.execute("DELETE FROM temp.team_arrivals")
    return list(range(first, first + len(arrivals)))
