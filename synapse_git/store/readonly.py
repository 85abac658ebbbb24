"""Read-only looks into the store for the hook paths.

A hook must never create the store, migrate it or take a write lock on a
commit, so it opens the file read-only (WAL readers never wait for writers)
and reads what it needs with a few bound queries.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from synapse_git.errors import StoreError, StoreVersion
from synapse_git.store.schema import BUSY_TIMEOUT_S, SCHEMA_VERSION


def open_readonly(path: Path) -> sqlite3.Connection | None:
    """The store at `path` opened read-only, or None when there is none yet."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(
            f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S
        )
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path}: {exc}") from None
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(f"{path} is not a readable Synapse store ({exc})") from None
    if version == 0:
        conn.close()
        return None
    if version > SCHEMA_VERSION:
        conn.close()
        raise StoreVersion(
            f"{path} was written by a newer Synapse (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade Synapse"
        )
    return conn


# The schema version that added the `kept` table (store/schema.py).
KEPT_SINCE = 10


def store_version(conn: sqlite3.Connection) -> str:
    """A stamp that changes whenever any memory changes.

    Every write adds a memory row or a history row (edits, supersessions,
    forgetting and restoring keep the previous version) and ids are never
    reused, so the two largest ids move on every change; both are O(1) reads.
    """
    row = conn.execute(
        "SELECT (SELECT max(id) FROM memories), (SELECT max(id) FROM history)"
    ).fetchone()
    schema = conn.execute("PRAGMA user_version").fetchone()[0]
    stamp = f"{schema}:{row[0] or 0}:{row[1] or 0}"
    if schema < KEPT_SINCE:
        return stamp
    # Keeping a finding, or taking it back, changes what drift reports: the stamp too.
    kept = conn.execute("SELECT count(*), max(kept_at) FROM kept").fetchone()
    return f"{stamp}:{kept[0]}:{kept[1] or ''}"
