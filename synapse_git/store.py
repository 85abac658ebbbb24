"""SQLite: connecting, the schema and its migrations, transactions, index checks (§2).

Only live memories are indexed. Both FTS5 tables read their text from the
`live` view, and triggers on `memories` keep them in step inside the very
transaction that changes a row, whatever the write.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from synapse_git.errors import BadInput, StoreError, StoreVersion

SCHEMA_VERSION = 3
BUSY_TIMEOUT_S = 10.0
INDEXES = ("memory", "memorygram")
FTS_SHADOWS = ("data", "idx", "content", "docsize", "config")

_V1 = """
CREATE TABLE memories (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    body          TEXT NOT NULL,
    source        TEXT NOT NULL DEFAULT '',
    project       TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    state         TEXT NOT NULL DEFAULT 'live'
                  CHECK (state IN ('live', 'superseded', 'forgotten')),
    superseded_by INTEGER REFERENCES memories(id),
    norm          TEXT NOT NULL,
    head_commit   TEXT,
    branch        TEXT,
    recalled      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX memories_scope ON memories (project, state, id);
CREATE INDEX memories_norm ON memories (norm);
CREATE INDEX memories_created ON memories (created_at);

CREATE TABLE history (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    memory_id     INTEGER NOT NULL REFERENCES memories(id),
    body          TEXT NOT NULL,
    source        TEXT NOT NULL,
    state         TEXT NOT NULL,
    superseded_by INTEGER,
    changed_at    TEXT NOT NULL,
    change        TEXT NOT NULL
);
CREATE INDEX history_memory ON history (memory_id, id);

CREATE TABLE projects (
    key         TEXT PRIMARY KEY,
    root_commit TEXT
);

CREATE VIEW live AS SELECT id, body, source FROM memories WHERE state = 'live';

CREATE VIRTUAL TABLE memory USING fts5 (
    body, source, content = 'live', content_rowid = 'id', tokenize = 'porter unicode61'
);
CREATE VIRTUAL TABLE memorygram USING fts5 (
    body, source, content = 'live', content_rowid = 'id', tokenize = 'trigram'
);

CREATE TRIGGER memories_ai AFTER INSERT ON memories WHEN new.state = 'live' BEGIN
    INSERT INTO memory (rowid, body, source) VALUES (new.id, new.body, new.source);
    INSERT INTO memorygram (rowid, body, source) VALUES (new.id, new.body, new.source);
END;
CREATE TRIGGER memories_ud AFTER UPDATE OF body, source, state ON memories
WHEN old.state = 'live' BEGIN
    INSERT INTO memory (memory, rowid, body, source)
        VALUES ('delete', old.id, old.body, old.source);
    INSERT INTO memorygram (memorygram, rowid, body, source)
        VALUES ('delete', old.id, old.body, old.source);
END;
CREATE TRIGGER memories_ui AFTER UPDATE OF body, source, state ON memories
WHEN new.state = 'live' BEGIN
    INSERT INTO memory (rowid, body, source) VALUES (new.id, new.body, new.source);
    INSERT INTO memorygram (rowid, body, source) VALUES (new.id, new.body, new.source);
END;
CREATE TRIGGER memories_bd BEFORE DELETE ON memories BEGIN
    SELECT RAISE(ABORT, 'memories are never deleted: forget them');
END;
"""

# Version 1 had one trigger to unindex and another to reindex an updated row, and
# SQLite fires the later-created one first, so an edit of a live memory left both
# indexes wrong. One trigger now does both, in order; the indexes are rebuilt.
_V2 = """
DROP TRIGGER memories_ud;
DROP TRIGGER memories_ui;
CREATE TRIGGER memories_au AFTER UPDATE OF body, source, state ON memories BEGIN
    INSERT INTO memory (memory, rowid, body, source)
        SELECT 'delete', old.id, old.body, old.source WHERE old.state = 'live';
    INSERT INTO memorygram (memorygram, rowid, body, source)
        SELECT 'delete', old.id, old.body, old.source WHERE old.state = 'live';
    INSERT INTO memory (rowid, body, source)
        SELECT new.id, new.body, new.source WHERE new.state = 'live';
    INSERT INTO memorygram (rowid, body, source)
        SELECT new.id, new.body, new.source WHERE new.state = 'live';
END;
INSERT INTO memory (memory) VALUES ('rebuild');
INSERT INTO memorygram (memorygram) VALUES ('rebuild');
"""

# The index definitions, as `repair` recreates them.
_FTS = {
    statement.split()[3]: statement
    for statement in (
        line for line in _V1.split(";\n") if line.strip().startswith("CREATE VIRTUAL TABLE")
    )
}

# Live memories per scope ('' = global), kept by triggers, so recall can say how
# many memories it searched without counting rows on every call.
_TALLY = """
INSERT INTO tallies (project, live)
    SELECT coalesce(project, ''), count(*) FROM memories WHERE state = 'live' GROUP BY 1;
"""
_V3 = f"""
CREATE TABLE tallies (
    project TEXT PRIMARY KEY,
    live    INTEGER NOT NULL
);
{_TALLY}
CREATE TRIGGER tallies_ai AFTER INSERT ON memories WHEN new.state = 'live' BEGIN
    INSERT INTO tallies (project, live) VALUES (coalesce(new.project, ''), 1)
        ON CONFLICT (project) DO UPDATE SET live = live + 1;
END;
CREATE TRIGGER tallies_uo AFTER UPDATE OF state, project ON memories
WHEN old.state = 'live' BEGIN
    UPDATE tallies SET live = live - 1 WHERE project = coalesce(old.project, '');
END;
CREATE TRIGGER tallies_un AFTER UPDATE OF state, project ON memories
WHEN new.state = 'live' BEGIN
    INSERT INTO tallies (project, live) VALUES (coalesce(new.project, ''), 1)
        ON CONFLICT (project) DO UPDATE SET live = live + 1;
END;
"""

# Forward migrations: MIGRATIONS[n] brings a store from version n to n + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3)


@dataclass(frozen=True)
class BackupReport:
    path: Path
    live: int
    bytes: int


@dataclass(frozen=True)
class CheckReport:
    problems: tuple[str, ...]
    live: int

    @property
    def ok(self) -> bool:
        return not self.problems


def connect(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """Open the store at `path`, creating or migrating it when needed.

    A store of a newer version is refused before anything is written to it.
    """
    if not path.exists():
        if not create:
            raise StoreError(f"no store at {path} yet: remember something first")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create data folder {path.parent}: {exc.strerror}") from None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as exc:
        raise explain(exc, path) from None
    try:
        _prepare(conn, path)
    except sqlite3.Error as exc:
        conn.close()
        raise explain(exc, path) from None
    except BaseException:
        conn.close()
        raise
    return conn


def connect_readonly(path: Path) -> sqlite3.Connection:
    """Open the store at `path` so that nothing can be written to it (evaluation)."""
    if not path.exists():
        raise StoreError(f"no store at {path} yet: remember or import something first")
    try:
        # With no write-ahead log beside it, no one has the store open: reading it
        # as immutable leaves not even the -wal and -shm files a WAL reader makes.
        wal = path.with_name(path.name + "-wal")
        flags = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
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


def explain(exc: sqlite3.Error, path: Path | None) -> StoreError:
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
            " restore a backup or move the file aside"
        )
    if primary in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_PERM, sqlite3.SQLITE_CANTOPEN):
        folder = "its folder" if path is None else str(path.parent)
        state = "" if path is None or os.access(path.parent, os.W_OK) else " (it is read-only)"
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


def _where(conn: sqlite3.Connection) -> Path | None:
    with suppress(sqlite3.Error):
        for _, name, file in conn.execute("PRAGMA database_list"):
            if name == "main" and file:
                return Path(file)
    return None


def _prepare(conn: sqlite3.Connection, path: Path) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreVersion(
            f"{path} was written by a newer Synapse (schema {version}, this one knows "
            f"{SCHEMA_VERSION}); upgrade Synapse — the store was left untouched"
        )
    conn.execute("PRAGMA foreign_keys = ON")
    # SQLite's lower() folds ASCII only; listing filters with the full Unicode fold.
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    if version < SCHEMA_VERSION:
        _migrate(conn, path)
    conn.execute("PRAGMA synchronous = NORMAL")


def _casefold(text: str | None) -> str | None:
    return None if text is None else text.casefold()


def _migrate(conn: sqlite3.Connection, path: Path) -> None:
    try:
        # WAL is a property of the file: set once, before the first write.
        conn.execute("PRAGMA journal_mode = WAL")
        with transaction(conn):
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for step in range(version, SCHEMA_VERSION):
                for statement in _statements(MIGRATIONS[step]):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except sqlite3.Error as exc:
        raise explain(exc, path) from None


def _statements(script: str) -> Iterator[str]:
    """Split a schema script into statements (triggers hold `;` inside BEGIN … END)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                yield pending.strip()
            pending = ""


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction. IMMEDIATE takes the write lock up front, so a writer
    waits for the busy timeout instead of failing on a read-to-write upgrade."""
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise explain(exc, _where(conn)) from None
    try:
        yield conn
    except sqlite3.Error as exc:
        _rollback(conn)
        raise explain(exc, _where(conn)) from None
    except BaseException:
        _rollback(conn)
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        _rollback(conn)
        raise explain(exc, _where(conn)) from None


def _rollback(conn: sqlite3.Connection) -> None:
    # A failed COMMIT or a full disk may already have ended the transaction.
    with suppress(sqlite3.Error):
        conn.execute("ROLLBACK")


def check(conn: sqlite3.Connection) -> CheckReport:
    """Compare both FTS5 indexes with the live rows; say exactly what is wrong."""
    problems: list[str] = []
    live_ids = {row[0] for row in conn.execute("SELECT id FROM memories WHERE state = 'live'")}
    for index in INDEXES:
        if (
            conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (index,)
            ).fetchone()
            is None
        ):
            problems.append(f"index {index} is missing")
            continue
        try:
            conn.execute(f"INSERT INTO {index} ({index}, rank) VALUES ('integrity-check', 1)")
        except sqlite3.DatabaseError as exc:
            problems.append(f"index {index} fails its integrity check: {exc}")
        try:
            indexed = {row[0] for row in conn.execute(f"SELECT rowid FROM {index}_docsize")}
        except sqlite3.DatabaseError as exc:
            problems.append(f"index {index} cannot be read: {exc}")
            continue
        if missing := live_ids - indexed:
            problems.append(f"index {index} lacks {len(missing)} live memories: {_ids(missing)}")
        if extra := indexed - live_ids:
            problems.append(f"index {index} holds {len(extra)} rows not live: {_ids(extra)}")
    if _tallies(conn) != {
        key: n
        for key, n in conn.execute(
            "SELECT coalesce(project, ''), count(*) FROM memories WHERE state = 'live' GROUP BY 1"
        )
    }:
        problems.append("the live counts per project (tallies) are out of step with the rows")
    return CheckReport(tuple(problems), len(live_ids))


def _tallies(conn: sqlite3.Connection) -> dict[str, int]:
    try:
        return {key: n for key, n in conn.execute("SELECT project, live FROM tallies") if n}
    except sqlite3.DatabaseError:
        return {}


def _ids(ids: set[int]) -> str:
    shown = sorted(ids)[:10]
    more = f" and {len(ids) - 10} more" if len(ids) > 10 else ""
    return ", ".join(map(str, shown)) + more


def repair(conn: sqlite3.Connection) -> None:
    """Rebuild both indexes from the live rows, recreating a dropped or broken one."""
    with transaction(conn):
        for index in INDEXES:
            conn.execute("SAVEPOINT rebuild")
            try:
                conn.execute(f"INSERT INTO {index} ({index}) VALUES ('rebuild')")
            except sqlite3.DatabaseError:
                conn.execute("ROLLBACK TO rebuild")
                _recreate(conn, index)
                conn.execute(f"INSERT INTO {index} ({index}) VALUES ('rebuild')")
            conn.execute("RELEASE rebuild")
        conn.execute("DELETE FROM tallies")
        conn.execute(_TALLY)


def _recreate(conn: sqlite3.Connection, index: str) -> None:
    """Drop `index` however broken it is, then create it empty.

    A damaged FTS5 table may fail its own constructor, which DROP TABLE needs; then
    its shadow tables go one by one and its schema row is removed directly.
    """
    try:
        conn.execute(f"DROP TABLE IF EXISTS {index}")
    except sqlite3.DatabaseError:
        for shadow in FTS_SHADOWS:
            conn.execute(f"DROP TABLE IF EXISTS {index}_{shadow}")
        conn.execute("PRAGMA writable_schema = ON")
        try:
            conn.execute("DELETE FROM sqlite_master WHERE type = 'table' AND name = ?", (index,))
        finally:
            conn.execute("PRAGMA writable_schema = RESET")
    conn.execute(_FTS[index])


def backup(conn: sqlite3.Connection, source: Path, target: Path) -> BackupReport:
    """Copy the store behind `conn` to the new file `target` with SQLite's online backup.

    The copy is made in one step, inside one read transaction: in WAL mode other
    processes keep writing meanwhile, and the copy is the store as of one instant.
    It is checked before it takes its final name, so `target` is never a half copy.
    """
    target = Path(os.path.abspath(target.expanduser()))
    if target.exists() or target.is_symlink():
        raise BadInput(f"{target} already exists: give a new file name for the backup")
    if not target.parent.is_dir():
        raise BadInput(f"cannot write {target}: folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        with closing(sqlite3.connect(partial, isolation_level=None)) as copy:
            conn.backup(copy)
            report = check(copy)
            damage = copy.execute("PRAGMA quick_check").fetchone()[0]
        if damage != "ok" or not report.ok:
            problems = "; ".join(report.problems) or damage
            raise StoreError(
                f"the copy of {source} does not check out ({problems}): run"
                " `synapse memory check` on the store; no backup was written"
            )
        with open(partial, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(partial, target)
    except sqlite3.Error as exc:
        raise StoreError(f"backup to {target} failed ({exc}); the store is unchanged") from None
    except OSError as exc:
        raise StoreError(
            f"backup to {target} failed ({exc.strerror}); the store is unchanged"
        ) from None
    finally:
        for leftover in (partial, Path(f"{partial}-wal"), Path(f"{partial}-shm")):
            with suppress(OSError):
                leftover.unlink()
    return BackupReport(target, report.live, target.stat().st_size)
