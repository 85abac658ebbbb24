"""The new rows of an import, held and then written many to one statement
(docs/store.md#import-and-export).

The triggers that index a memory (store/schema.py) run inside the statement
that inserts it, and SQLite opens a savepoint for every such statement, at
which FTS5 writes out the words it holds as a new segment of each index. One
INSERT a row therefore left a segment a row, which FTS5's own merging then
rewrote again and again: half of what an import cost. Written up to 2,000
rows to a statement, FTS5 gathers their words in memory and writes them as
one segment.

Rows held here are not in the table yet: a duplicate of one of them is found
here, the others by `memories.find_normal`.
"""

from __future__ import annotations

import sqlite3

# Rows a statement writes at most. Past about a thousand the cost hardly falls,
# and the rows are held in memory until written.
ROWS = 2000
# Body bytes held at most before they are written, whatever the number of rows:
# a body may be a megabyte.
HELD_BYTES = 8 * 1024 * 1024
_COLUMNS = "body, source, project, created_at, updated_at, norm, head_commit, import_id, everywhere"
_WIDTH = _COLUMNS.count(",") + 1
_ROW_MARKS = "(" + ", ".join(["?"] * _WIDTH) + ")"

Row = tuple[str, str, str | None, str, str, int, str | None, int, int]


class Staged:
    """New memories of one import, in line order, written when enough are held and
    at `write`. The caller's transaction holds every write, so a bad line later
    in the import still takes back every row."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.rows: list[Row] = []
        # (project, norm) -> the normalized bodies held under that key.
        self.held: dict[tuple[str | None, int], list[str]] = {}
        self.size = 0
        # An older SQLite allows 999 parameters a statement; a newer one 32,766.
        limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
        self.per_statement = max(1, min(ROWS, limit // _WIDTH))

    def holds(self, normal: str, key: int, project: str | None) -> bool:
        """Whether a row held here has this normalized body in this scope."""
        return normal in self.held.get((project, key), ())

    def add(
        self,
        body: str,
        source: str,
        project: str | None,
        *,
        created_at: str,
        updated_at: str,
        normal: str,
        key: int,
        head_commit: str | None,
        import_id: int,
        everywhere: bool,
    ) -> None:
        row = (body, source, project, created_at, updated_at, key, head_commit, import_id)
        self.rows.append((*row, int(everywhere)))
        self.held.setdefault((project, key), []).append(normal)
        self.size += len(body)
        if len(self.rows) >= self.per_statement or self.size >= HELD_BYTES:
            self.write()

    def write(self) -> None:
        """Every row held, written by one statement, in the order they came."""
        if not self.rows:
            return
        marks = ", ".join([_ROW_MARKS] * len(self.rows))
        self.conn.execute(
            f"INSERT INTO memories ({_COLUMNS}) VALUES {marks}",
            [value for row in self.rows for value in row],
        )
        self.rows.clear()
        self.held.clear()
        self.size = 0
