"""Import batches: every `memory import` is one, so it can be taken back as a whole."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from synapse_git.errors import NotFound
from synapse_git.store import memories


@dataclass(frozen=True)
class Undone:
    batch: int
    forgotten: int  # live memories of the batch, forgotten now
    left: int  # already superseded or forgotten: left as they were


def start(conn: sqlite3.Connection) -> int:
    """A new batch; the caller's transaction makes it and its memories one write."""
    cursor = conn.execute("INSERT INTO imports (imported_at) VALUES (?)", (memories.now(),))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def forget(conn: sqlite3.Connection, batch: int) -> Undone:
    """Forget every live memory batch `batch` imported, keeping each one's history."""
    if (
        not 0 < batch <= memories.MAX_INT
        or not conn.execute("SELECT 1 FROM imports WHERE id = ?", (batch,)).fetchone()
    ):
        raise NotFound(f"no import batch {batch}: `memory import` prints the batch it made")
    rows = conn.execute(
        f"SELECT {memories.COLUMNS} FROM memories WHERE import_id = ? ORDER BY id", (batch,)
    ).fetchall()
    found = [memories.Memory(*row) for row in rows]
    live = [memory for memory in found if memory.live]
    for memory in live:
        memories.set_state(conn, memory, "forgotten", None, f"forgotten with import {batch}")
    return Undone(batch, len(live), len(found) - len(live))
