"""Sharing memories into the tracked team file: share, unshare, and following a local
change to a shared memory into its line, each in the caller's one transaction
(docs/team.md)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.team import records, secrets
from synapse_git.team.shared_table import (
    authors,
    publish,
    read_clean,
    shared_ids,
    superseded_uid,
    to_record,
)


@dataclass
class ShareReport:
    file: str
    shared: list[int] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    attributes_added: bool = False

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "shared": self.shared,
            "already": self.already,
            "warnings": self.warnings,
        }


def share(
    conn: sqlite3.Connection,
    project: str,
    root: Path,
    ids: Iterable[int],
    author: str,
    *,
    force: bool = False,
) -> ShareReport:
    """Share the live project memories `ids` through `root`'s team file."""
    path = root / records.FILE
    report = ShareReport(str(path))
    uids = shared_ids(conn, project)
    chosen: list[Memory] = []
    for memory_id in dict.fromkeys(ids):
        memory = memories.require(conn, memory_id, [project])
        if memory.project is None:
            raise BadInput(f"memory {memory_id} is global: only project memories are shared")
        if not memory.live:
            raise BadInput(f"memory {memory_id} is {memory.state}: only live memories are shared")
        found = secrets.secrets_in(memory.body + "\n" + memory.source)
        if found and not force:
            raise BadInput(
                f"memory {memory_id} seems to hold {', '.join(found)}: not shared "
                "(edit it, or pass --force if it is not secret)"
            )
        if secrets.home_paths_in(memory.body + "\n" + memory.source):
            report.warnings.append(
                f"memory {memory_id} names a path under your home folder; teammates will not "
                "have it"
            )
        if memory.id in uids:
            report.already.append(memory.id)
        else:
            chosen.append(memory)
    if not chosen:
        return report
    current = read_clean(path)
    for memory in chosen:
        uid = uuid.uuid4().hex
        uids[memory.id] = uid
        record = to_record(memory, uid, author, superseded_uid(conn, memory, uids))
        current[uid] = record
        conn.execute(
            "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
            " VALUES (?, ?, ?, ?, 'here', ?)",
            (memory.id, project, uid, author, record.line()),
        )
        report.shared.append(memory.id)
    publish(conn, project, path, current)
    report.attributes_added = records.ensure_attributes(root)
    return report


def unshare(conn: sqlite3.Connection, project: str, root: Path, ids: Iterable[int]) -> list[int]:
    """Take memories out of the team file; the memories themselves stay as they are."""
    path = root / records.FILE
    uids = shared_ids(conn, project)
    gone = [memory_id for memory_id in dict.fromkeys(ids) if memory_id in uids]
    for memory_id in ids:
        memories.require(conn, memory_id, [project])
    if not gone:
        return []
    current = read_clean(path)
    for memory_id in gone:
        current.pop(uids[memory_id], None)
        conn.execute("DELETE FROM shared WHERE memory_id = ?", (memory_id,))
    publish(conn, project, path, current)
    return gone


def follow(
    conn: sqlite3.Connection,
    project: str | None,
    root: Path | None,
    ids: Iterable[int],
    author: Callable[[], str],
) -> None:
    """After a local change to memories `ids`: rewrite the lines of those that are shared,
    and share the correction of a shared memory along with it."""
    if project is None or root is None:
        return
    touched = list(dict.fromkeys(ids))
    marks = ", ".join("?" for _ in touched)
    # Most changes touch no shared memory: one indexed look settles that.
    if (
        not touched
        or not conn.execute(
            f"SELECT 1 FROM shared WHERE memory_id IN ({marks}) LIMIT 1", touched
        ).fetchone()
    ):
        return
    uids = shared_ids(conn, project)
    path = root / records.FILE
    current = read_clean(path)
    author_of = authors(conn, list(uids))
    for memory_id in touched:
        memory = memories.get(conn, memory_id, [project], hidden=True)
        if memory is None:
            continue
        if memory_id not in uids:
            # A memory that replaces a shared one is shared too, or teammates would keep
            # the outdated fact with nothing to say it was corrected.
            replaced = superseded_uid(conn, memory, uids)
            if replaced is None:
                continue
            found = secrets.secrets_in(memory.body + "\n" + memory.source)
            if found:
                raise BadInput(
                    f"memory {memory_id} corrects a shared memory, so it would be shared, but "
                    f"it seems to hold {', '.join(found)}: nothing was changed"
                )
            uids[memory_id] = uuid.uuid4().hex
            author_of[memory_id] = author()
            record = to_record(memory, uids[memory_id], author_of[memory_id], replaced)
            conn.execute(
                "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
                " VALUES (?, ?, ?, ?, 'here', ?)",
                (memory_id, project, uids[memory_id], author_of[memory_id], record.line()),
            )
        else:
            old = current.get(uids[memory_id])
            record = to_record(
                memory,
                uids[memory_id],
                author_of.get(memory_id, ""),
                old.supersedes if old is not None else superseded_uid(conn, memory, uids),
            )
            conn.execute(
                "UPDATE shared SET line = ? WHERE memory_id = ?", (record.line(), memory_id)
            )
        current[record.id] = record
    publish(conn, project, path, current)
