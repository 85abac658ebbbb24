"""Deleting memories for good (`memory purge`, docs/store.md#purge): a secret
remembered by mistake must leave the file, not only recall.

Forgetting hides a memory and keeps its text, its versions and its index entries.
A purge removes the row, every version in `history`, its vector and its place in
other memories' supersession pointers, in one transaction with SQLite's
`secure_delete` on (freed pages are zeroed); then both full-text indexes are
merged, which rewrites their segments without the deleted entries, the freed
pages go back to the file system, and the write-ahead log is emptied, so no copy
of the text stays in the store's files. Backups made before, and team lines, are
outside the store: the caller says so.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from synapse_git.errors import BadInput, StoreError
from synapse_git.store import database, memories, merging
from synapse_git.store.memories import Memory

# Tries at emptying the write-ahead log after a purge, each waiting the busy timeout
# for readers of the store as it was before the purge to move on.
SCRUB_TRIES = 6


def check_not_shared(conn: sqlite3.Connection, found: Sequence[Memory]) -> None:
    """A shared memory's line is in the team file and the repository's history: the
    store cannot take it back from there, so it is unshared first, knowingly."""
    marks = ", ".join("?" for _ in found)
    rows = conn.execute(
        f"SELECT memory_id FROM shared WHERE memory_id IN ({marks})", [m.id for m in found]
    ).fetchall()
    if rows:
        first = int(rows[0][0])
        raise BadInput(
            f"memory {first} is shared with the team: `synapse memory unshare {first}` first"
            " (its line stays in the repository's history); nothing was purged"
        )


def purge(conn: sqlite3.Connection, found: Sequence[Memory]) -> None:
    """Delete `found` and everything that holds its text, inside the caller's
    transaction (`secure_delete` must be on for the connection)."""
    ids = [memory.id for memory in found]
    marks = ", ".join("?" for _ in ids)
    # A live memory is unindexed and uncounted by the triggers of a change of state.
    conn.execute(
        f"UPDATE memories SET state = 'forgotten' WHERE state = 'live' AND id IN ({marks})", ids
    )
    conn.execute(f"UPDATE memories SET superseded_by = NULL WHERE superseded_by IN ({marks})", ids)
    conn.execute(f"UPDATE history SET superseded_by = NULL WHERE superseded_by IN ({marks})", ids)
    conn.execute(f"DELETE FROM history WHERE memory_id IN ({marks})", ids)
    conn.execute(f"DELETE FROM vectors WHERE memory_id IN ({marks})", ids)
    conn.execute(f"DELETE FROM kept WHERE memory_id IN ({marks})", ids)
    # Memories are never deleted but here: the guard trigger is set aside for this one
    # statement and put back, inside the same transaction.
    (guard,) = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'memories_bd'"
    ).fetchone()
    conn.execute("DROP TRIGGER memories_bd")
    conn.execute(f"DELETE FROM memories WHERE id IN ({marks})", ids)
    conn.execute(guard)


def scrub(conn: sqlite3.Connection) -> None:
    """After the purge committed (`conn` in autocommit mode): merge both indexes so
    their segments are rewritten without the deleted entries, give freed pages back,
    and empty the write-ahead log into the zeroed file.

    The log cannot be emptied while another process still reads the store as it was
    before (a recall under way, an export): each try waits the busy timeout for it,
    and a log still full after SCRUB_TRIES tries is said, never passed over, since the
    purged text is then still in it."""
    merging.merge(conn)
    for _ in range(SCRUB_TRIES):
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        if not busy:
            return
    store = database.where(conn)
    log = "the write-ahead log" if store is None else str(store) + "-wal"
    raise StoreError(
        f"the memories are purged, but another process kept reading the store, so their"
        f" text stays in {log} until it lets go: close what has the store open (an MCP"
        f" server, synapse ui); the last one to close empties the log"
    )


def visible_any_state(
    conn: sqlite3.Connection, ids: Sequence[int], projects: Sequence[str]
) -> list[Memory]:
    """The memories `ids` visible from `projects`, whatever their state."""
    return [memories.require(conn, memory_id, projects) for memory_id in dict.fromkeys(ids)]
