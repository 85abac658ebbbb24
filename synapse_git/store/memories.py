"""Rows of the `memories` table: writes that keep history, and scoped reads.

Every function takes an open connection; writers expect to run inside
`store.transaction`, so one operation is one transaction.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from synapse_git.errors import NotFound
from synapse_git.store.listing_filter import EVERYTHING, ListFilter
from synapse_git.textrules import key_of, norm_key, normalize

if TYPE_CHECKING:
    from synapse_git.answers import ForgetOut, MemoryOut

# SQLite integers are 64-bit: anything larger is no id and no offset it holds.
MAX_INT = 2**63 - 1

COLUMNS = (
    "id, body, source, project, created_at, updated_at, state, superseded_by, head_commit, branch"
)


# The opening of a body drift reads (drift/findings.py), refreshes and conflict
# candidates included: a megabyte note costs no more than its opening.
DRIFT_OPENING = 16_384


def opening_columns(chars: int) -> str:
    """COLUMNS with the body cut by SQLite to its first `chars` characters: a reader
    that needs only a body's opening never holds a long one whole."""
    return COLUMNS.replace("body", f"substr(body, 1, {int(chars)})", 1)


@dataclass(frozen=True)
class Memory:
    id: int
    body: str
    source: str
    project: str | None
    created_at: str
    updated_at: str
    state: str = "live"
    superseded_by: int | None = None
    head_commit: str | None = None
    branch: str | None = None

    @property
    def live(self) -> bool:
        return self.state == "live"

    def as_json(self) -> MemoryOut:
        return {
            "id": self.id,
            "project": self.project,
            "source": self.source,
            "body": self.body,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "state": self.state,
            "superseded_by": self.superseded_by,
        }

    def state_json(self) -> ForgetOut:
        """Where a memory stands after a change of state."""
        return {"id": self.id, "project": self.project, "state": self.state}


@dataclass(frozen=True)
class Version:
    body: str
    source: str
    state: str
    superseded_by: int | None
    changed_at: str
    change: str


def replaced_by(version: Version) -> int | None:
    """The id a version's change names as its replacement ("superseded by N")."""
    prefix = "superseded by "
    rest = version.change.removeprefix(prefix)
    return int(rest) if version.change.startswith(prefix) and rest.isdigit() else None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def in_scope_sql(projects: Sequence[str], alias: str = "") -> tuple[str, list[str]]:
    """SQL and parameters for "global, or one of `projects`"."""
    col = f"{alias}project"
    if not projects:
        return f"{col} IS NULL", []
    marks = ", ".join("?" for _ in projects)
    return f"({col} IS NULL OR {col} IN ({marks}))", list(projects)


def live_with_counts(
    conn: sqlite3.Connection, projects: Sequence[str], opening: int
) -> list[tuple[int, str, str | None, str, int, int]]:
    """(id, opening, project, created_at, recalled, size) of every live memory
    `projects` see: the body's first `opening` characters and its size in UTF-8
    bytes, so that a store of long bodies is never held whole."""
    where, params = in_scope_sql(projects)
    rows = conn.execute(
        "SELECT id, substr(body, 1, ?), project, created_at, recalled,"
        f" length(CAST(body AS BLOB)) FROM memories WHERE state = 'live' AND {where}",
        (opening, *params),
    )
    return [(int(a), str(b), c, str(d), int(e or 0), int(f)) for a, b, c, d, e, f in rows]


def _memory(row: sqlite3.Row | tuple[object, ...]) -> Memory:
    return Memory(*row)


def insert(
    conn: sqlite3.Connection,
    body: str,
    source: str,
    project: str | None,
    *,
    head_commit: str | None = None,
    branch: str | None = None,
    created_at: str | None = None,
    updated_at: str | None = None,
    import_id: int | None = None,
    everywhere: bool = False,
) -> int:
    stamp = created_at or now()
    cursor = conn.execute(
        "INSERT INTO memories (body, source, project, created_at, updated_at, norm, head_commit,"
        " branch, import_id, everywhere) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            body,
            source,
            project,
            stamp,
            updated_at or stamp,
            norm_key(body),
            head_commit,
            branch,
            import_id,
            int(everywhere),
        ),
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def mark_everywhere(conn: sqlite3.Connection, memory_id: int) -> None:
    """A project memory said to hold on every branch (docs/branches.md)."""
    conn.execute("UPDATE memories SET everywhere = 1 WHERE id = ? AND everywhere = 0", (memory_id,))


def find_duplicate(conn: sqlite3.Connection, body: str, project: str | None) -> int | None:
    """The live memory of exactly this scope whose normalized body equals `body`'s."""
    text = normalize(body)
    return find_normal(conn, text, key_of(text), project)


def find_normal(conn: sqlite3.Connection, normal: str, key: int, project: str | None) -> int | None:
    """`find_duplicate` of a body already normalized (`normal`, its key `key`)."""
    # `+project` and `+state` keep the planner off the (project, state, id) index,
    # which would read every live memory of the scope: the norm index finds the few
    # rows with this body, whatever the store's size (tests/store/test_plans.py).
    # `norm` is a 64-bit hash: a row with the same key but other text is a collision,
    # never a duplicate.
    rows = conn.execute(
        "SELECT id, body FROM memories WHERE norm = ? AND +project IS ? AND +state = 'live'"
        " ORDER BY id",
        (key, project),
    )
    return next((int(row[0]) for row in rows if normalize(row[1]) == normal), None)


def get(
    conn: sqlite3.Connection, memory_id: int, projects: Sequence[str], *, hidden: bool = False
) -> Memory | None:
    """The memory if it is visible from `projects`; hidden (superseded or forgotten)
    records only when the caller is an owner-facing command."""
    if not 0 < memory_id <= MAX_INT:
        return None
    where, params = in_scope_sql(projects)
    state = "" if hidden else " AND state = 'live'"
    row = conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE id = ? AND {where}{state}",
        (memory_id, *params),
    ).fetchone()
    return None if row is None else _memory(row)


def not_readable(conn: sqlite3.Connection, memory_id: int, projects: Sequence[str]) -> str:
    """Why a memory cannot be read from `projects`: replaced, forgotten, or not there."""
    found = get(conn, memory_id, projects, hidden=True)
    if found is not None and found.state == "superseded" and found.superseded_by is not None:
        newer = get(conn, found.superseded_by, projects, hidden=True)
        if newer is not None:
            return (
                f"memory {memory_id} is superseded by {newer.id}: read {newer.id}, or see"
                f" `synapse memory history {memory_id}`"
            )
    if found is not None and found.state != "live":
        return (
            f"memory {memory_id} is {found.state}: `synapse memory restore {memory_id}`"
            " brings it back"
        )
    return str(NotFound.memory(memory_id))


def require(
    conn: sqlite3.Connection, memory_id: int, projects: Sequence[str], *, hidden: bool = True
) -> Memory:
    found = get(conn, memory_id, projects, hidden=hidden)
    if found is None:
        raise NotFound.memory(memory_id)
    return found


def _keep_version(conn: sqlite3.Connection, old: Memory, change: str, stamp: str) -> None:
    conn.execute(
        "INSERT INTO history (memory_id, body, source, state, superseded_by, changed_at, change)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (old.id, old.body, old.source, old.state, old.superseded_by, stamp, change),
    )


def update_text(conn: sqlite3.Connection, old: Memory, body: str, source: str) -> None:
    stamp = now()
    _keep_version(conn, old, "edit", stamp)
    conn.execute(
        "UPDATE memories SET body = ?, source = ?, norm = ?, updated_at = ? WHERE id = ?",
        (body, source, norm_key(body), stamp, old.id),
    )


def set_state(
    conn: sqlite3.Connection, old: Memory, state: str, superseded_by: int | None, change: str
) -> None:
    stamp = now()
    _keep_version(conn, old, change, stamp)
    conn.execute(
        "UPDATE memories SET state = ?, superseded_by = ?, updated_at = ? WHERE id = ?",
        (state, superseded_by, stamp, old.id),
    )


def versions(conn: sqlite3.Connection, memory_id: int) -> list[Version]:
    """Earlier versions, oldest first (the row itself is the current one)."""
    rows = conn.execute(
        "SELECT body, source, state, superseded_by, changed_at, change FROM history"
        " WHERE memory_id = ? ORDER BY id",
        (memory_id,),
    )
    return [Version(*row) for row in rows]


def superseded(conn: sqlite3.Connection, memory_id: int, projects: Sequence[str]) -> list[int]:
    """Ids of the memories visible from `projects` that `memory_id` superseded."""
    where, params = in_scope_sql(projects)
    rows = conn.execute(
        f"SELECT id FROM memories WHERE superseded_by = ? AND {where} ORDER BY id",
        (memory_id, *params),
    )
    return [int(row[0]) for row in rows]


def chain(conn: sqlite3.Connection, memory: Memory, projects: Sequence[str]) -> list[int]:
    """The supersession chain through `memory`, oldest first: every memory it replaced,
    directly or not, then itself, then each memory that replaced it in turn. Only
    memories visible from `projects` take part."""
    seen = {memory.id}
    before: list[int] = []
    frontier = [memory.id]
    while frontier:
        found = [old for new in frontier for old in superseded(conn, new, projects)]
        frontier = [old for old in found if old not in seen]
        seen.update(frontier)
        before.extend(frontier)
    after: list[int] = []
    current = memory
    while current.superseded_by is not None and current.superseded_by not in seen:
        following = get(conn, current.superseded_by, projects, hidden=True)
        if following is None:
            break
        seen.add(following.id)
        after.append(following.id)
        current = following
    return [*sorted(before), memory.id, *after]


def listing(
    conn: sqlite3.Connection,
    projects: Sequence[str],
    *,
    contains: str | None = None,
    limit: int | None = None,
    offset: int = 0,
    narrow: ListFilter = EVERYTHING,
) -> tuple[int, list[Memory]]:
    """Visible memories (live ones unless `narrow` names a state), newest first,
    optionally those holding `contains` (ignoring case, Unicode-aware) and those
    `narrow` keeps, with the total before `limit`; `offset` skips the newest."""
    where, params = in_scope_sql(projects)
    kept, kept_params = narrow.sql()
    sql = f"FROM memories WHERE {narrow.state_sql()} AND {where} AND {kept}"
    params += kept_params
    if contains:
        sql += " AND (instr(casefold(body), ?) > 0 OR instr(casefold(source), ?) > 0)"
        params += [contains.casefold(), contains.casefold()]
    total = int(conn.execute(f"SELECT count(*) {sql}", params).fetchone()[0])
    tail = "" if limit is None else f" LIMIT {min(int(limit), MAX_INT)}"
    if offset:
        tail = f"{tail or ' LIMIT -1'} OFFSET {min(int(offset), MAX_INT)}"
    if limit is not None and _newest_first(conn, total, int(limit) + int(offset)):
        sql = sql.replace("FROM memories", "FROM memories INDEXED BY memories_created", 1)
    rows = conn.execute(f"SELECT {COLUMNS} {sql} ORDER BY created_at DESC, id DESC{tail}", params)
    return total, [_memory(row) for row in rows]


def _newest_first(conn: sqlite3.Connection, matching: int, wanted: int) -> bool:
    """Whether walking every memory newest first reaches the `wanted` newest of the
    `matching` ones sooner than sorting all of those: the same rows either way, but a
    page of a store where most memories are visible (the first page of `memory
    list`) costs a few rows instead of every one of them sorted."""
    if matching == 0 or wanted >= matching:
        return False
    # Ids are distinct positive numbers: the largest is at least the number of rows.
    rows = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
    # Expected rows walked: `wanted` of them in every rows/matching.
    if wanted * rows >= matching * matching:
        return False
    # A store whose index was dropped is still listed, by sorting.
    found = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'memories_created'"
    ).fetchone()
    return found is not None


def kept(conn: sqlite3.Connection, ids: Sequence[int], narrow: ListFilter) -> list[int]:
    """Those of `ids` that `narrow` keeps, in the order given."""
    if narrow.empty or not ids:
        return list(ids)
    clause, params = narrow.sql()
    keep: set[int] = set()
    for start in range(0, len(ids), 500):
        chunk = list(ids[start : start + 500])
        marks = ", ".join("?" for _ in chunk)
        rows = conn.execute(
            f"SELECT id FROM memories WHERE id IN ({marks}) AND {clause}", [*chunk, *params]
        )
        keep.update(int(row[0]) for row in rows)
    return [memory_id for memory_id in ids if memory_id in keep]


def live_rows(conn: sqlite3.Connection) -> Iterator[tuple[Memory, bool]]:
    """Every live memory of every project, oldest first, and whether it holds on every
    branch (export): one statement, so the flag is the row's as it was read, not one
    another process changed between two reads."""
    sql = f"SELECT {COLUMNS}, everywhere FROM memories WHERE state = 'live' ORDER BY id"
    for row in conn.execute(sql):
        yield _memory(row[:-1]), bool(row[-1])


def counts(conn: sqlite3.Connection, project: str | None) -> dict[str, int]:
    rows = conn.execute(
        "SELECT state, count(*) FROM memories WHERE project IS ? GROUP BY state", (project,)
    )
    found = {state: int(n) for state, n in rows}
    return {state: found.get(state, 0) for state in ("live", "superseded", "forgotten")}
