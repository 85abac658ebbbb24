"""Team files written only once the store's transaction has committed.

A share, an edit of a shared memory or an unshare changes the store and the
team file together. The new file content is worked out inside the transaction
(and the store keeps its digest), but written only after COMMIT: a failure
anywhere before leaves the store and the file as they were. Reads inside the
transaction see the content still to be written, so two changes in one
transaction (a correction that is then shared) build on each other.

Between that COMMIT and the write the store's lock is free while the file is
still the old one. A transaction that reads a team file therefore first takes
an advisory lock beside the store (`hold`), kept until its own writes are on
disk: a second share, or a sync, waits for the first one's file instead of
reading the old file and writing over the first one's line (docs/team.md).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from synapse_git import file_locks
from synapse_git.errors import StoreError
from synapse_git.store import database
from synapse_git.team import paths

# Per open transaction (keyed by its connection): (root, relative path) -> bytes.
_PENDING: dict[int, dict[tuple[Path, str], bytes]] = {}
# Per open transaction that holds the lock: its descriptor.
_HELD: dict[int, int] = {}


@contextmanager
def after_commit(conn: sqlite3.Connection) -> Iterator[None]:
    """Hold the team-file writes made inside the block; write them when it ends
    without an error. Put it outside the transaction, so the block's end is the commit."""
    key = id(conn)
    _PENDING[key] = {}
    try:
        try:
            yield
        except BaseException:
            _PENDING.pop(key, None)
            raise
        writes = _PENDING.pop(key, {})
        for (root, rel), data in writes.items():
            paths.write_bytes(root, rel, data)
    finally:
        held = _HELD.pop(key, None)
        if held is not None:
            os.close(held)  # closing the descriptor lets the next one in


def hold(conn: sqlite3.Connection) -> None:
    """Before a transaction reads a team file: wait until no other transaction on this
    store has committed a change to a team file it has not yet written. Taken inside
    the store's write lock, so the holder never waits for that lock in turn."""
    key = id(conn)
    if key not in _PENDING or key in _HELD:
        return
    store = database.where(conn)
    if store is None:
        return
    _HELD[key] = file_locks.take(database.team_files_path(store), StoreError)


def write(conn: sqlite3.Connection, root: Path, rel: str, data: bytes) -> None:
    """Write `rel` inside `root` after the commit (at once when no transaction
    holds writes back)."""
    held = _PENDING.get(id(conn))
    if held is None:
        paths.write_bytes(root, rel, data)
    else:
        held[(root, rel)] = data


def pending(conn: sqlite3.Connection, root: Path, rel: str) -> bytes | None:
    """What this transaction will write to `rel`, if anything."""
    held = _PENDING.get(id(conn))
    return None if held is None else held.get((root, rel))
