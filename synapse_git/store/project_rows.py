"""The store's projects table: each project key (a repository's main worktree) and
the root commit that tells the same repository in another folder (docs/store.md,
"Scope: the git repository"). Moving a project's memories to a new key is here too."""

from __future__ import annotations

import sqlite3

from synapse_git.store.memories import now


def rekey(conn: sqlite3.Connection, old: str, new: str, new_root: str | None) -> int:
    """Move project `old`'s memories to `new`, whose root commit is `new_root`.

    Each moved memory gets a history row, which also moves the store's version
    on, so every session snapshot taken before the move is out of date. The
    project row of `new`, when there is one, is kept as it is.
    """
    if old == new:
        # Kept in place: they belong to the repository that stands there now.
        conn.execute("UPDATE projects SET root_commit = ? WHERE key = ?", (new_root, old))
        row = conn.execute("SELECT count(*) FROM memories WHERE project = ?", (old,)).fetchone()
        return int(row[0])
    conn.execute(
        "INSERT INTO history (memory_id, body, source, state, superseded_by, changed_at, change)"
        " SELECT id, body, source, state, superseded_by, ?, ? FROM memories WHERE project = ?"
        " ORDER BY id",
        (now(), f"moved from {old}", old),
    )
    cursor = conn.execute("UPDATE memories SET project = ? WHERE project = ?", (new, old))
    conn.execute("DELETE FROM projects WHERE key = ?", (old,))
    conn.execute(
        "INSERT INTO projects (key, root_commit) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
        (new, new_root),
    )
    return cursor.rowcount


def note_project(conn: sqlite3.Connection, key: str, root_commit: str | None) -> None:
    conn.execute(
        "INSERT INTO projects (key, root_commit) VALUES (?, ?) ON CONFLICT (key) DO UPDATE"
        " SET root_commit = coalesce(excluded.root_commit, projects.root_commit)",
        (key, root_commit),
    )


def stored_root(conn: sqlite3.Connection, key: str) -> str | None:
    row = conn.execute("SELECT root_commit FROM projects WHERE key = ?", (key,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def root_known(conn: sqlite3.Connection, key: str) -> bool:
    row = conn.execute("SELECT root_commit FROM projects WHERE key = ?", (key,)).fetchone()
    return row is not None and row[0] is not None


def known_projects(conn: sqlite3.Connection) -> dict[str, str | None]:
    return {key: root for key, root in conn.execute("SELECT key, root_commit FROM projects")}
