"""Teammates' changes to shared memories the store already holds, applied set-based.

A sync that changes many lines at once (a teammate's mass edit, a checkout of
a branch whose team file lacks many lines) would otherwise change memories
one statement each, and every such statement makes both FTS5 indexes write
their pending terms out (see team/arrivals.py). Here the changes go into a
temporary table and each kind of change is one statement: the old versions
into `history`, the edits, the changes of state, the shared rows. What each
memory ends up as, and the history it keeps, is what one change at a time
gave.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

from synapse_git.store import memories
from synapse_git.team.records import Record
from synapse_git.textrules import norm_key

# Per connection and emptied after use; rolled back with the transaction.
# `body` is NULL for a memory whose line was removed: its text stays, it is only
# forgotten (when live) and stops having a line.
_CREATE = """
CREATE TEMP TABLE IF NOT EXISTS team_changes (
    memory_id INTEGER PRIMARY KEY,
    body      TEXT,
    source    TEXT,
    norm,     -- untyped: the key goes in as textrules made it
    state     TEXT NOT NULL,
    change    TEXT NOT NULL,
    author    TEXT,
    line      TEXT NOT NULL,
    edit      INTEGER NOT NULL DEFAULT 0,
    restate   INTEGER NOT NULL DEFAULT 0
)
"""
_EDITED = "c.body IS NOT NULL AND (m.body IS NOT c.body OR m.source IS NOT c.source)"
# A line never makes a memory superseded by itself: that takes the memory that
# supersedes it (sync's second pass). A removed line forgets only a live memory.
_RESTATED = (
    "m.state IS NOT c.state AND c.state != 'superseded'"
    " AND (c.body IS NOT NULL OR m.state = 'live')"
)


class Changed(NamedTuple):
    updated: list[int]
    forgotten: list[int]


def apply(
    conn: sqlite3.Connection,
    project: str,
    changed: Sequence[tuple[int, Record, str]],
    dropped: Sequence[int] = (),
) -> Changed:
    """Make the memories say what their new lines say (`changed`: memory id, record,
    line), and forget the `dropped` ones whose lines are gone, in the caller's
    transaction. Which memories were updated (edited, or brought back) and which
    forgotten, in id order."""
    if not changed and not dropped:
        return Changed([], [])
    stamp = memories.now()
    conn.execute(_CREATE)
    conn.executemany(
        "INSERT INTO temp.team_changes (memory_id, body, source, norm, state, change, author,"
        " line) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            *(
                (
                    mid,
                    r.body,
                    r.source,
                    norm_key(r.body),
                    r.state,
                    f"{r.state} by the team",
                    r.author,
                    line,
                )
                for mid, r, line in changed
            ),
            *(
                (mid, None, None, None, "forgotten", "no longer shared by the team", None, "")
                for mid in dropped
            ),
        ],
    )
    for flag, test in (("edit", _EDITED), ("restate", _RESTATED)):
        # Flagged first, so no write below reads the rows it is changing.
        conn.execute(
            f"UPDATE temp.team_changes SET {flag} = 1 WHERE memory_id IN (SELECT c.memory_id"
            " FROM temp.team_changes AS c JOIN memories AS m ON m.id = c.memory_id"
            f" WHERE m.project = ? AND {test})",
            (project,),
        )
    _keep_versions(conn, "edit", "'edit'", stamp)
    conn.execute(
        "UPDATE memories SET"
        " body = (SELECT body FROM temp.team_changes WHERE memory_id = memories.id),"
        " source = (SELECT source FROM temp.team_changes WHERE memory_id = memories.id),"
        " norm = (SELECT norm FROM temp.team_changes WHERE memory_id = memories.id),"
        " updated_at = ?"
        " WHERE id IN (SELECT memory_id FROM temp.team_changes WHERE edit)",
        (stamp,),
    )
    _keep_versions(conn, "restate", "c.change", stamp)
    conn.execute(
        "UPDATE memories SET"
        " state = (SELECT state FROM temp.team_changes WHERE memory_id = memories.id),"
        " superseded_by = NULL, updated_at = ?"
        " WHERE id IN (SELECT memory_id FROM temp.team_changes WHERE restate)",
        (stamp,),
    )
    conn.execute(
        "UPDATE shared SET"
        " line = (SELECT line FROM temp.team_changes WHERE memory_id = shared.memory_id),"
        " author = coalesce("
        "(SELECT author FROM temp.team_changes WHERE memory_id = shared.memory_id), author)"
        " WHERE memory_id IN (SELECT memory_id FROM temp.team_changes)"
    )
    rows = conn.execute(
        "SELECT memory_id, edit, restate, state FROM temp.team_changes"
        " WHERE edit OR restate ORDER BY memory_id"
    ).fetchall()
    conn.execute("DELETE FROM temp.team_changes")
    return Changed(
        [mid for mid, edit, restate, state in rows if edit or state != "forgotten"],
        [mid for mid, _, restate, state in rows if restate and state == "forgotten"],
    )


def _keep_versions(conn: sqlite3.Connection, flag: str, change: str, stamp: str) -> None:
    """Each flagged memory's current version into `history`, as memories.py keeps one."""
    conn.execute(
        "INSERT INTO history (memory_id, body, source, state, superseded_by, changed_at, change)"
        f" SELECT m.id, m.body, m.source, m.state, m.superseded_by, ?, {change}"
        f" FROM temp.team_changes AS c JOIN memories AS m ON m.id = c.memory_id"
        f" WHERE c.{flag} ORDER BY m.id",
        (stamp,),
    )
