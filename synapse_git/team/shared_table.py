"""The store's side of team memory: the `shared` table (each shared memory's stable
id, author and the canonical line last written or read) and the digest of the team
file last synced; the helpers sharing and sync both use (docs/team.md)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.team import deferred, records
from synapse_git.team.records import Record


class SharedRow:
    """One row of the `shared` table: a shared memory, its stable id, and its last line."""

    __slots__ = ("author", "line", "memory_id", "origin", "uid")

    def __init__(self, memory_id: int, uid: str, author: str, origin: str, line: str) -> None:
        self.memory_id, self.uid, self.author, self.origin, self.line = (
            memory_id,
            uid,
            author,
            origin,
            line,
        )


def shared_rows(conn: sqlite3.Connection, project: str) -> dict[str, SharedRow]:
    """Stable id -> row, for every shared memory of `project`."""
    return {
        str(uid): SharedRow(int(mid), str(uid), str(author), str(origin), str(line))
        for mid, uid, author, origin, line in conn.execute(
            "SELECT memory_id, uid, author, origin, line FROM shared WHERE project = ?", (project,)
        )
    }


def shared_ids(conn: sqlite3.Connection, project: str) -> dict[int, str]:
    """Memory id -> stable id, for every shared memory of `project`."""
    return {
        int(mid): str(uid)
        for mid, uid in conn.execute(
            "SELECT memory_id, uid FROM shared WHERE project = ?", (project,)
        )
    }


def authors(conn: sqlite3.Connection, ids: Sequence[int]) -> dict[int, str]:
    """The author of each shared memory among `ids`."""
    if not ids:
        return {}
    marks = ", ".join("?" for _ in ids)
    return {
        int(mid): str(author)
        for mid, author in conn.execute(
            f"SELECT memory_id, author FROM shared WHERE memory_id IN ({marks})", list(ids)
        )
    }


def file_digest(data: bytes) -> str:
    """The digest kept for a team file, to tell whether it changed since the last sync."""
    import hashlib  # here: reading commands load this module, and hashlib loads OpenSSL

    return hashlib.sha256(data).hexdigest()


def to_record(memory: Memory, uid: str, author: str, supersedes: str | None) -> Record:
    """The team-file record of `memory`."""
    return Record(
        id=uid,
        body=memory.body,
        source=memory.source,
        author=author,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        supersedes=supersedes,
        state=memory.state,
        head_commit=memory.head_commit,
    )


def read_clean(conn: sqlite3.Connection, root: Path) -> tuple[dict[str, Record], list[bytes]]:
    """The team file's records, as this transaction will have left it, and its bad
    lines, kept as they are when the file is written again (a teammate's line that
    cannot be read is theirs to fix, not ours to drop). BadInput when the file is
    no regular file inside the worktree, or too large."""
    deferred.hold(conn)
    held = deferred.pending(conn, root, records.FILE)
    if held is not None:
        found, errors = records.parse_lines(held.split(b"\n"))
    else:
        found, errors = records.read_team(root)
    return found, [error.raw for error in errors if error.raw]


def superseded_uid(conn: sqlite3.Connection, memory: Memory, uids: dict[int, str]) -> str | None:
    """The stable id of the shared memory `memory` replaced, if any."""
    projects = () if memory.project is None else (memory.project,)
    replaced = (uids.get(old) for old in memories.superseded(conn, memory.id, projects))
    return next((uid for uid in replaced if uid is not None), None)


def publish(
    conn: sqlite3.Connection,
    project: str,
    root: Path,
    current: dict[str, Record],
    kept: list[bytes],
) -> None:
    """Write the team file once the transaction commits, and keep its digest now, so
    the next sync skips it."""
    data = records.render(current.values()).encode("utf-8") + b"".join(
        line + b"\n" for line in kept
    )
    deferred.write(conn, root, records.FILE, data)
    conn.execute(
        "INSERT INTO team_files (project, digest) VALUES (?, ?)"
        " ON CONFLICT (project) DO UPDATE SET digest = excluded.digest",
        (project, file_digest(data)),
    )
