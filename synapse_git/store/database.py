"""SQLite: connecting (creating and migrating on first use, refusing a newer store),
transactions, and turning SQLite's failures into errors a user can act on (docs/store.md)."""

from __future__ import annotations

import fcntl
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from synapse_git import file_locks
from synapse_git.errors import StoreError, StoreVersion, no_store_yet
from synapse_git.store.schema import BUSY_TIMEOUT_S, MIGRATIONS, SCHEMA_VERSION, statements
from synapse_git.textrules import norm_key

# The kept reader's page cache, in KiB (SQLite's default is 2,000). At 100,000
# memories a recall with rewordings reads more than that (bm25 reads the size of
# every match of each wording), so the next recall read many pages again; 8 MB
# measured 3-7% less CPU with rewordings, as 32 and 64 MB did (docs/recall.md).
# Pages are allocated as they are read: a one-shot CLI recall holds what it reads.
READER_CACHE_KIB = 8000
# The kept reader also reads the store through a memory map of up to this many
# bytes: bm25 reads the size of every match from pages scattered over the store,
# and past what the page cache holds each was a read() and a copy. A larger store
# reads more such pages, so this is what grew most with it (docs/recall.md, "Cost
# as the store grows"). The map is the operating system's page cache, shared and
# given back under pressure; a store larger than the map is read past it as before.
READER_MMAP_BYTES = 256 * 1024 * 1024
# Beside the store: held (flock) by a write that may outlast the busy timeout.
LONG_WRITE_SUFFIX = "-long-write"
# Beside the store: held (flock) by a transaction that read a team file until the
# files it changed are written (team/deferred.py).
TEAM_FILES_SUFFIX = "-team-files"


def connect(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """Open the store at `path`, creating or migrating it when needed.

    A store of a newer version is refused before anything is written to it.
    """
    if not path.exists():
        if not create:
            raise StoreError(no_store_yet(path))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create data folder {path.parent}: {exc.strerror}") from None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as exc:
        raise as_store_error(exc, path) from None
    try:
        _prepare(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise as_store_error(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return conn


def connect_reader(path: Path, *, migrate: bool = True) -> sqlite3.Connection:
    """Open an existing store for reads only, at less cost than `connect`.

    A store at this schema needs no migration and a reader no write settings, so
    only the version is checked; any other store goes through `connect`, which
    migrates it or refuses it. The connection may serve other threads: its
    keeper (store/reader.py) lets one use it at a time.
    """
    if not path.exists():
        raise StoreError(no_store_yet(path))
    try:
        conn = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as exc:
        raise as_store_error(exc, path) from None
    try:
        current = execute_when_free(conn, "PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    except sqlite3.Error as exc:
        conn.close()
        raise as_store_error(exc, path) from None
    if not current:
        conn.close()
        if not migrate:
            raise StoreError(f"{path} changed schema while it was being opened: try again")
        # An older store is migrated, a newer one refused, by the full open.
        connect(path, create=False).close()
        return connect_reader(path, migrate=False)
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    conn.execute(f"PRAGMA cache_size = -{READER_CACHE_KIB}")
    conn.execute(f"PRAGMA mmap_size = {READER_MMAP_BYTES}")
    return conn


def connect_readonly(path: Path) -> sqlite3.Connection:
    """Open the store at `path` so that nothing can be written to it (evaluation)."""
    if not path.exists():
        raise StoreError(no_store_yet(path, "remember or import something first"))
    try:
        # Read as SQLite's readers read, so another process may write meanwhile: a
        # file read as immutable was read from pages cached before a writer's
        # checkpoint and pages after it, which SQLite took for a damaged store. Only
        # where no write-ahead log can be made beside it can nobody write; a reader
        # can then not make its own either, and reads the file as it stands.
        wal = path.with_name(path.name + "-wal")
        writable = wal.exists() or os.access(path.parent, os.W_OK)
        flags = "mode=ro" if writable else "mode=ro&immutable=1"
        conn = sqlite3.connect(
            f"{path.absolute().as_uri()}?{flags}", uri=True, timeout=BUSY_TIMEOUT_S
        )
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open {path} to read: {exc}") from None
    if version != SCHEMA_VERSION:
        conn.close()
        if version > SCHEMA_VERSION:
            raise StoreVersion(f"{path} was written by a newer Synapse (schema {version})")
        raise StoreError(
            f"{path} is at schema {version}; run any synapse command that writes to upgrade it"
        )
    return conn


def as_store_error(exc: sqlite3.Error, path: Path | None) -> StoreError:
    """What SQLite said about the store, as a StoreError the user can act on.

    Every write runs in one transaction that is rolled back on error, so each
    message can promise that nothing was written.
    """
    where = "the store" if path is None else str(path)
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB):
        return StoreError(
            f"{where} is damaged or not a readable Synapse store ({exc}); nothing was written:"
            " `synapse memory check` says whether `--repair` can rebuild a damaged index;"
            " otherwise restore a backup or move the file aside"
        )
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN):
        folder = "its folder" if path is None else str(path.parent)
        state = "" if path is None or os.access(path.parent, os.W_OK) else " (it is read-only)"
        if path is not None and path.exists() and not os.access(path, os.W_OK):
            return StoreError(
                f"{where} is read-only ({exc}): make the file writable for Synapse;"
                " nothing was written"
            )
        return StoreError(
            f"cannot use {where} ({exc}): Synapse needs to write in {folder}{state},"
            " beside the database; nothing was written"
        )
    if primary == sqlite3.SQLITE_FULL:
        return StoreError(f"the disk holding {where} is full; nothing was written: free space")
    if primary == sqlite3.SQLITE_IOERR:
        return StoreError(
            f"input/output error on {where} ({exc}): the disk may be full or failing;"
            " nothing was written"
        )
    if primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return StoreError(
            f"{where} stayed locked by another process for {BUSY_TIMEOUT_S:.0f} s"
            f" ({exc}); nothing was written: try again"
        )
    return StoreError(
        f"{where} failed ({exc}); nothing was written: `synapse memory check` says what is wrong"
    )


def where(conn: sqlite3.Connection) -> Path | None:
    """The file of `conn`'s store (None for one in memory)."""
    with suppress(sqlite3.Error):
        for _, name, file in conn.execute("PRAGMA database_list"):
            if name == "main" and file:
                return Path(file)
    return None


def execute_when_free(conn: sqlite3.Connection, sql: str) -> sqlite3.Cursor:
    """Run `sql`, retrying while SQLite says the store is busy, up to the busy timeout.

    The busy handler does not cover every case: changing the journal mode of a new
    store, a write-ahead log being recovered, processes racing to create the store
    all report "database is locked" at once. A writer must wait its turn, not fail.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    delay = 0.002
    while True:
        try:
            return conn.execute(sql)
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
            if code not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise
            if time.monotonic() >= deadline:
                if not _long_write_running(conn):
                    raise
                # An import or a repair holds the store: wait as long as it does.
                deadline = time.monotonic() + BUSY_TIMEOUT_S
            time.sleep(delay)
            delay = min(delay * 2, 0.1)


def long_write_path(store: Path) -> Path:
    return store.with_name(store.name + LONG_WRITE_SUFFIX)


def team_files_path(store: Path) -> Path:
    return store.with_name(store.name + TEAM_FILES_SUFFIX)


@contextmanager
def long_write(store: Path) -> Iterator[None]:
    """Held around a write that may take longer than the busy timeout (a large import,
    rebuilding the indexes): other writers that find the store busy wait for it to end
    instead of failing with "database is locked". Two long writes run one after the
    other. The lock goes with the process, so a killed import leaves nothing held."""
    with file_locks.held(long_write_path(store), StoreError):
        yield


def _long_write_running(conn: sqlite3.Connection) -> bool:
    store = where(conn)
    return store is not None and long_write_held(store)


def long_write_held(store: Path) -> bool:
    """Whether some process holds the long-write lock of `store` right now."""
    try:
        fd = os.open(long_write_path(store), os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    version = execute_when_free(conn, "PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreVersion(
            f"{path} was written by a newer Synapse (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade Synapse — the store was left untouched"
        )
    conn.execute("PRAGMA foreign_keys = ON")
    # SQLite's lower() folds ASCII only; listing filters with the full Unicode fold.
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    if version < SCHEMA_VERSION:
        _migrate(conn, path, new=version == 0)
    conn.execute("PRAGMA synchronous = NORMAL")


def _casefold(text: str | None) -> str | None:
    return None if text is None else text.casefold()


def _migrate(conn: sqlite3.Connection, path: Path, *, new: bool) -> None:
    try:
        if new:
            # A new file: free pages (the old segments a merge of the indexes
            # leaves, docs/store.md#merged-indexes) can be given back to the file
            # system only if this is set before the first table is made.
            conn.execute("PRAGMA auto_vacuum = INCREMENTAL")
        # WAL is a property of the file: set once, before the first write.
        execute_when_free(conn, "PRAGMA journal_mode = WAL")
        conn.create_function("norm_key", 1, norm_key, deterministic=True)
        if not new:
            from synapse_git.git.anchors import Inferrer  # git, only for an older store

            conn.create_function("infer_anchor", 2, Inferrer())
        else:
            conn.create_function("infer_anchor", 2, lambda project, created: None)
        with transaction(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for step in range(version, SCHEMA_VERSION):
                for statement in statements(MIGRATIONS[step]):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error as exc:
        raise as_store_error(exc, path) from None


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction. IMMEDIATE takes the write lock up front, so a writer
    waits for the busy timeout instead of failing on a read-to-write upgrade."""
    try:
        execute_when_free(conn, "BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise as_store_error(exc, where(conn)) from None
    try:
        yield conn
    except sqlite3.Error as exc:
        _rollback(conn)
        raise as_store_error(exc, where(conn)) from None
    except BaseException:
        _rollback(conn)
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        _rollback(conn)
        raise as_store_error(exc, where(conn)) from None


def _rollback(conn: sqlite3.Connection) -> None:
    # A failed COMMIT or a full disk may already have ended the transaction.
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")
