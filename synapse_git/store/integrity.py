"""Whole-store care: checking the indexes against the rows, rebuilding them, and
consistent online backups."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from synapse_git.errors import StoreError
from synapse_git.store import merging, output_file
from synapse_git.store.database import transaction
from synapse_git.store.schema import FTS_DDL, FTS_SHADOWS, INDEXES, TALLY_SQL


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
            _unless_damage(exc)
            problems.append(f"index {index} fails its integrity check: {exc}")
        try:
            indexed = {row[0] for row in conn.execute(f"SELECT rowid FROM {index}_docsize")}
        except sqlite3.DatabaseError as exc:
            _unless_damage(exc)
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


# Failures that say nothing about the indexes: a read-only file or folder, another
# writer holding the lock, a full or failing disk. They are reported as what they
# are (store/database.py explains them), never as damage with --repair advice.
_NOT_DAMAGE = {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR,
}


def _unless_damage(exc: sqlite3.DatabaseError) -> None:
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _NOT_DAMAGE:
        raise exc


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
        conn.execute(TALLY_SQL)
        # A rebuild leaves each index in many segments; it has read every row already,
        # so merging them all costs a fraction more (docs/store.md#merged-indexes).
        merging.optimize(conn)


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
    conn.execute(FTS_DDL[index])


def backup(conn: sqlite3.Connection, source: Path, target: Path) -> BackupReport:
    """Copy the store behind `conn` to `target` (checked by output_file.checked_target)
    with SQLite's online backup.

    The copy is made in one step, inside one read transaction: in WAL mode other
    processes keep writing meanwhile, and the copy is the store as of one instant.
    It is checked before it takes its final name, so `target` is never a half copy.
    """
    try:
        with output_file.replacing(target) as partial:
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
    except sqlite3.Error as exc:
        raise StoreError(f"backup to {target} failed ({exc}); the store is unchanged") from None
    return BackupReport(target, report.live, target.stat().st_size)
