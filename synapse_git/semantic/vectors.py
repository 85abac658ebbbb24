"""The `vectors` table (docs/semantic.md): one vector per memory, tied to the
body it was computed from, and the in-memory matrix a long-lived process keeps.

A vector is written only if the memory still has the body it was computed
from (the model runs outside the write transaction), and the `vectors_body`
trigger drops it when the body changes. `seq` grows with every write, so the
matrix reads only the rows written since it last looked.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, cast

from synapse_git.store.memories import in_scope_sql

if TYPE_CHECKING:
    from synapse_git.answers import CoverageOut
    from synapse_git.semantic.model import Matrix


def body_hash(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def put(conn: sqlite3.Connection, model: str, rows: Sequence[tuple[int, str, bytes]]) -> int:
    """Store (memory id, body embedded, vector) rows whose memory still has that body;
    returns how many were stored. Call inside a transaction."""
    stored = 0
    for memory_id, body, blob in rows:
        current = conn.execute("SELECT body FROM memories WHERE id = ?", (memory_id,)).fetchone()
        if current is None or current[0] != body:
            continue
        # A new row, not an update: its larger seq tells readers it changed.
        conn.execute("DELETE FROM vectors WHERE memory_id = ?", (memory_id,))
        conn.execute(
            "INSERT INTO vectors (memory_id, model, body_hash, vector) VALUES (?, ?, ?, ?)",
            (memory_id, model, body_hash(body), blob),
        )
        stored += 1
    return stored


def missing(
    conn: sqlite3.Connection, model: str, *, after: int = 0, limit: int = 64
) -> list[tuple[int, str]]:
    """Live memories past id `after` with no vector of `model`, oldest first."""
    rows = conn.execute(
        "SELECT m.id, m.body FROM memories m LEFT JOIN vectors v"
        " ON v.memory_id = m.id AND v.model = ?"
        " WHERE m.state = 'live' AND m.id > ? AND v.memory_id IS NULL ORDER BY m.id LIMIT ?",
        (model, after, limit),
    )
    return [(int(i), str(body)) for i, body in rows]


def other_model(conn: sqlite3.Connection, model: str) -> str | None:
    """The name of another model that wrote a stored vector (a store embedded
    before the model changed), or None."""
    row = conn.execute("SELECT model FROM vectors WHERE model != ? LIMIT 1", (model,)).fetchone()
    return None if row is None else str(row[0])[:80]


@dataclass(frozen=True)
class Coverage:
    """How many live memories have a current vector, lack one, or have an outdated one."""

    live: int
    current: int
    missing: int
    outdated: int

    def as_json(self) -> CoverageOut:
        return cast("CoverageOut", asdict(self))


# A vector as `put` stores it: a BLOB of one signed byte a dimension. Anything else
# in the column (a TEXT value, a short or long BLOB, written by another program or a
# damaged page) is never current: `check --repair` and `embed` replace it.
WELL_FORMED = "typeof(v.vector) = 'blob' AND length(v.vector) = 384"


def coverage(conn: sqlite3.Connection, model: str) -> Coverage:
    """Compare every live memory's body with its vector (`memory check`)."""
    live = current = outdated = 0
    rows = conn.execute(
        f"SELECT m.body, v.model, v.body_hash, {WELL_FORMED} FROM memories m"
        " LEFT JOIN vectors v ON v.memory_id = m.id WHERE m.state = 'live'"
    )
    for body, made_by, stamp, formed in rows:
        live += 1
        if made_by is None:
            continue
        if formed and made_by == model and stamp == body_hash(body):
            current += 1
        else:
            outdated += 1
    return Coverage(live, current, live - current - outdated, outdated)


def drop_outdated(conn: sqlite3.Connection, model: str) -> int:
    """Delete vectors of another model or of a body that is no longer the memory's."""
    stale = [
        memory_id
        for memory_id, made_by, stamp, body, formed in conn.execute(
            f"SELECT v.memory_id, v.model, v.body_hash, m.body, {WELL_FORMED} FROM vectors v"
            " JOIN memories m ON m.id = v.memory_id"
        )
        if not formed or made_by != model or stamp != body_hash(body)
    ]
    conn.executemany("DELETE FROM vectors WHERE memory_id = ?", [(i,) for i in stale])
    return len(stale)


def visible_live(conn: sqlite3.Connection, ids: Sequence[int], projects: Sequence[str]) -> set[int]:
    """Which of `ids` are live memories the scope can see."""
    if not ids:
        return set()
    where, params = in_scope_sql(projects)
    marks = ",".join(str(int(i)) for i in ids)
    rows = conn.execute(
        f"SELECT id FROM memories WHERE id IN ({marks}) AND state = 'live' AND {where}", params
    )
    return {int(row[0]) for row in rows}


# Rows multiplied at a time: each block is widened to float32 for BLAS, and a block
# this size (1.5 MB widened) stays in the cache between the widening and the product.
BLOCK = 1024


class VectorMatrix:
    """Every stored vector of one model as rows of an int8 matrix (the stored bytes as
    they are, a quarter of float32's size) with each row's inverse length, kept in
    step with the table by reading only rows written (or removed) since the last look."""

    def __init__(self, model: str) -> None:
        from synapse_git.semantic.model import DIMENSIONS, numpy_module

        np = numpy_module()
        self._np = np
        self.model = model
        self.rows: Matrix = np.zeros((0, DIMENSIONS), dtype=np.int8)
        # 1 / the row's length, so that a row's product with a unit query is the cosine;
        # 0 for a removed or malformed row, which so scores 0.
        self.scale: Matrix = np.zeros(0, dtype=np.float32)
        self.ids = np.zeros(0, dtype=np.int64)
        self.where: dict[int, int] = {}
        self.used = 0
        # The last seq of `vectors` and of `vectors_gone` read.
        self.stamp: tuple[int, int] = (-1, -1)
        # Widened rows, reused by every product.
        self._wide: Matrix = np.zeros((BLOCK, DIMENSIONS), dtype=np.float32)

    def refresh(self, conn: sqlite3.Connection) -> int:
        """Bring the matrix up to date; returns how many rows were read."""
        # AUTOINCREMENT keeps each table's last seq in sqlite_sequence: one cheap read
        # tells whether anything was written or removed since the last look.
        stamps = dict(
            conn.execute(
                "SELECT name, seq FROM sqlite_sequence WHERE name IN ('vectors', 'vectors_gone')"
            ).fetchall()
        )
        stamp = (int(stamps.get("vectors", 0)), int(stamps.get("vectors_gone", 0)))
        if stamp == self.stamp:
            return 0
        gone = [
            int(row[0])
            for row in conn.execute(
                "SELECT memory_id FROM vectors_gone WHERE seq > ?", (self.stamp[1],)
            )
        ]
        # A memory whose vector went may have a new one since: its row is read again.
        marks = ",".join(str(i) for i in dict.fromkeys(gone))
        again = f" OR memory_id IN ({marks})" if gone else ""
        fresh = conn.execute(
            f"SELECT memory_id, vector FROM vectors WHERE model = ? AND (seq > ?{again})",
            (self.model, self.stamp[0]),
        )
        for memory_id in gone:
            at = self.where.pop(memory_id, None)
            if at is not None:
                self.rows[at] = 0
                self.scale[at] = 0.0
        read = self._place(fresh)
        self.stamp = stamp
        return read

    def _place(self, fresh: Iterable[tuple[int, object]]) -> int:
        """Put the rows read in place: each (memory id, vector) a new row or its memory's
        own; returns how many were read."""
        from synapse_git.semantic.model import DIMENSIONS

        np = self._np
        # The vectors joined and read as one array: a row at a time costs several times
        # more. A malformed one (a TEXT value, a BLOB of another length) is read as a
        # zero row, no vector, never as an error; checked here rather than in SQL,
        # where the test cost a quarter of the read.
        ids: list[int] = []
        joined = bytearray()
        empty = bytes(DIMENSIONS)
        for memory_id, blob in fresh:
            ids.append(memory_id)
            joined += blob if type(blob) is bytes and len(blob) == DIMENSIONS else empty
        if not ids:
            return 0
        block = np.frombuffer(joined, dtype=np.int8).reshape(len(ids), DIMENSIONS)
        # memory_id is unique in the table: each id comes once.
        new = [i for i in ids if i not in self.where]
        if self.used + len(new) > len(self.rows):
            self._grow(self.used + len(new))
        start = self.used
        self.ids[start : start + len(new)] = new
        self.where.update(zip(new, range(start, start + len(new)), strict=True))
        self.used += len(new)
        at = np.fromiter((self.where[i] for i in ids), dtype=np.int64, count=len(ids))
        lengths = np.sqrt(np.einsum("ij,ij->i", block, block, dtype=np.float32))
        self.rows[at] = block
        self.scale[at] = np.where(lengths > 0, 1.0 / np.maximum(lengths, 1e-12), 0.0)
        return len(ids)

    def _grow(self, wanted: int) -> None:
        np = self._np
        # The first read is sized to the store; later growth leaves an eighth spare.
        size = max(BLOCK, wanted + wanted // 8 if self.used else wanted)
        rows = np.zeros((size, self.rows.shape[1]), dtype=np.int8)
        rows[: self.used] = self.rows[: self.used]
        scale = np.zeros(size, dtype=np.float32)
        scale[: self.used] = self.scale[: self.used]
        ids = np.zeros(size, dtype=np.int64)
        ids[: self.used] = self.ids[: self.used]
        self.rows, self.scale, self.ids = rows, scale, ids

    def products(self, queries: Matrix) -> Matrix:
        """The cosine of every row with each (unit) column of `queries`, one row of the
        result a stored row; removed rows score 0. A block of rows at a time is widened
        to float32: numpy has no fast int8 product, and widening all at once would hold
        a float32 copy of the whole matrix."""
        np = self._np
        out: Matrix = np.empty((self.used, queries.shape[1]), dtype=np.float32)
        for start in range(0, self.used, BLOCK):
            end = min(start + BLOCK, self.used)
            wide = self._wide[: end - start]
            np.copyto(wide, self.rows[start:end], casting="unsafe")
            np.matmul(wide, queries, out=out[start:end])
        out *= self.scale[: self.used, None]
        return out

    def cosines(self, query: Matrix) -> Matrix:
        """Cosine of the (unit) query with every row; removed rows score 0."""
        result: Matrix = self.products(query[:, None])[:, 0]
        return result

    def of(self, query: Matrix, ids: Sequence[int]) -> dict[int, float]:
        """Cosines of the query with the given memories that have a vector."""
        np = self._np
        known = [(i, self.where[i]) for i in ids if i in self.where]
        if not known:
            return {}
        at = np.array([place for _, place in known], dtype=np.int64)
        values = (self.rows[at].astype(np.float32) @ query) * self.scale[at]
        return {i: float(value) for (i, _), value in zip(known, values, strict=True)}

    def nearest(
        self,
        conn: sqlite3.Connection,
        query: Matrix,
        projects: Sequence[str],
        *,
        least: float,
        count: int,
    ) -> list[tuple[int, float]]:
        """The `count` visible live memories nearest the query, at cosine `least` or more."""
        return self.nearest_each(conn, query[None, :], projects, least=least, count=count)[0]

    def nearest_each(
        self,
        conn: sqlite3.Connection,
        queries: Matrix,
        projects: Sequence[str],
        *,
        least: float,
        count: int,
    ) -> list[list[tuple[int, float]]]:
        """`nearest` for each row of `queries` (a question and its rewordings), from
        one product with the matrix: reading the rows once costs less than once a
        wording."""
        return self.nearest_in(conn, self.scored(queries), projects, least=least, count=count)

    def scored(self, queries: Matrix) -> Matrix:
        """The cosine of every row with each row of `queries`, one column a query:
        numpy alone, no SQLite, so it may run on another thread than the store's."""
        np = self._np
        if not self.used:
            none: Matrix = np.zeros((0, len(queries)), dtype=np.float32)
            return none
        every: Matrix = self.products(np.ascontiguousarray(queries.T))
        return every

    def nearest_in(
        self,
        conn: sqlite3.Connection,
        every: Matrix,
        projects: Sequence[str],
        *,
        least: float,
        count: int,
    ) -> list[list[tuple[int, float]]]:
        """`nearest` for each column of `every` (scored's product)."""
        np = self._np
        if not self.used:
            return [[] for _ in range(every.shape[1])]
        return [
            self._top(conn, np.ascontiguousarray(every[:, n]), projects, least, count)
            for n in range(every.shape[1])
        ]

    def _top(
        self,
        conn: sqlite3.Connection,
        scores: Matrix,
        projects: Sequence[str],
        least: float,
        count: int,
    ) -> list[tuple[int, float]]:
        np = self._np
        # Out-of-scope and hidden memories keep their vectors: take a few times as
        # many as wanted, and more while too few of them are visible.
        wanted = count * 4
        while True:
            if wanted < self.used:
                top = np.argpartition(-scores, wanted)[:wanted]
            else:
                top = np.arange(self.used)
            top = top[scores[top] >= least]
            top = top[np.argsort(-scores[top], kind="stable")]
            ids = [int(i) for i in self.ids[top]]
            seen = visible_live(conn, ids, projects)
            found = [(i, float(scores[at])) for i, at in zip(ids, top, strict=True) if i in seen]
            if len(found) >= count or len(top) < wanted or wanted >= self.used:
                return found[:count]
            wanted *= 4
