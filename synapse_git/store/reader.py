"""One connection kept open for the reads of a long-lived caller (docs/store.md).

Opening a store costs far more than reading a page from it: SQLite parses the
schema on every new connection. A connection in autocommit mode holds no lock
between statements, so keeping one for reads blocks no writer, in this process
or another. It is opened afresh when the file was replaced (a restored backup),
when its schema moved on (a newer Synapse migrated it) and after an error.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from synapse_git.errors import StoreError, no_store_yet
from synapse_git.store import database
from synapse_git.store.schema import SCHEMA_VERSION


class Reader:
    """The kept read connection to the store at `path`, one thread at a time (a
    thread may nest uses: it gets the same connection)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int, int] | None = None
        self._lock = threading.RLock()
        self._depth = 0

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            # A nested use must not close the connection its caller is reading from.
            conn = self._current() if self._depth == 0 or self._conn is None else self._conn
            self._depth += 1
            try:
                yield conn
            except sqlite3.Error as exc:
                self._close()
                raise database.as_store_error(exc, self.path) from None
            except StoreError:
                self._close()
                raise
            finally:
                self._depth -= 1

    def close(self) -> None:
        with self._lock:
            self._close()

    def is_kept(self, conn: sqlite3.Connection) -> bool:
        """Whether `conn` is the kept connection (so its users are one at a time)."""
        return conn is self._conn

    def keep_open(self) -> None:
        """Have the connection open, if the store can be read. While it is, closing
        a writer's connection is not the store's last close, which would copy the
        WAL into the file and wait for the disk after every write; SQLite still
        does that every 1,000 pages of WAL (its automatic checkpoint)."""
        with self._lock:
            if self._conn is None:
                with suppress(StoreError, sqlite3.Error):
                    self._current()

    def _current(self) -> sqlite3.Connection:
        try:
            found = os.stat(self.path)
        except OSError:
            self._close()
            raise StoreError(no_store_yet(self.path)) from None
        # A restore or a move replaces the file; a checkpoint rewrites it in place.
        # Either way the next read opens afresh, which costs one open, not more.
        file = (found.st_dev, found.st_ino, found.st_mtime_ns)
        if self._conn is not None and file == self._file:
            try:
                version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error:
                version = None
            if version == SCHEMA_VERSION:
                return self._conn
        self._close()
        self._conn = database.connect_reader(self.path)
        self._file = file
        return self._conn

    def _close(self) -> None:
        if self._conn is not None:
            conn, self._conn, self._file = self._conn, None, None
            conn.close()


class KeptWhileUnchanged:
    """What a long-lived caller keeps of the store between calls through the kept
    connection: forgotten (`forget`) when it is asked through another connection
    or when, since the last call, any other connection committed a change, in this
    process or another (SQLite's data_version, which the kept connection reads and
    never changes itself, as it never writes)."""

    def __init__(self) -> None:
        self._conn: sqlite3.Connection | None = None
        self._version = -1

    def follow(self, conn: sqlite3.Connection) -> None:
        version = int(conn.execute("PRAGMA data_version").fetchone()[0])
        if conn is not self._conn or version != self._version:
            self._conn, self._version = conn, version
            self.forget()

    def forget(self) -> None:
        raise NotImplementedError
