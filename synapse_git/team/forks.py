"""Shared memories the merge driver kept twice: the pairs drift reports as conflicts."""

from __future__ import annotations

import sqlite3

from synapse_git.team.merge import forked_from


def live_forks(conn: sqlite3.Connection, project: str | None) -> list[tuple[int, int]]:
    """(fork, original) memory ids of `project` where both versions are still live."""
    if project is None:
        return []
    rows = conn.execute(
        "SELECT s.memory_id, s.uid FROM shared s JOIN memories m ON m.id = s.memory_id"
        " WHERE s.project = ? AND m.state = 'live' AND instr(s.uid, '~') > 0",
        (project,),
    ).fetchall()
    pairs: list[tuple[int, int]] = []
    for memory_id, uid in rows:
        base = forked_from(str(uid))
        found = conn.execute(
            "SELECT s.memory_id FROM shared s JOIN memories m ON m.id = s.memory_id"
            " WHERE s.project = ? AND s.uid = ? AND m.state = 'live'",
            (project, base),
        ).fetchone()
        if found is not None:
            pairs.append((int(memory_id), int(found[0])))
    return pairs
