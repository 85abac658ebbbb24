"""Sharing memories into the tracked team file: share, unshare, and following a local
change to a shared memory into its line, each in the caller's one transaction
(docs/team.md)."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.team import deferred, records, secrets
from synapse_git.team.shared_table import (
    publish,
    read_clean,
    shared_ids,
    superseded_uid,
    to_record,
)

if TYPE_CHECKING:
    from synapse_git.answers import ShareOut


@dataclass
class ShareReport:
    file: str
    shared: list[int] = field(default_factory=list)
    already: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> ShareOut:
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
    current, kept = read_clean(conn, root)
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
        if uids.get(memory.id) in current:
            report.already.append(memory.id)
        else:
            chosen.append(memory)
    if not chosen:
        return report
    # Checked (and the new text worked out) before anything is written.
    attributes = records.attributes_with_driver(root)
    here = {mid: uid for mid, uid in uids.items() if uid in current}
    for memory in chosen:
        # A memory shared before (on another branch, or unshared since) keeps its id,
        # so a checkout that has its old line finds the same memory, not a copy.
        uid = uids.get(memory.id) or uuid.uuid4().hex
        uids[memory.id] = here[memory.id] = uid
        record = to_record(
            memory, uid, _author_of(conn, memory, author), superseded_uid(conn, memory, here)
        )
        current[uid] = record
        _keep_row(conn, project, memory.id, record, "here")
        report.shared.append(memory.id)
    publish(conn, project, root, current, kept)
    if attributes is not None:
        deferred.write(conn, root, records.ATTRIBUTES, attributes)
    return report


def _author_of(conn: sqlite3.Connection, memory: Memory, author: str) -> str:
    """Who wrote this version of `memory`: the author of its last line when the text is
    still that line's, else the one sharing it now."""
    row = conn.execute(
        "SELECT author, line FROM shared WHERE memory_id = ?", (memory.id,)
    ).fetchone()
    if row is not None and row[1]:
        try:
            last = records.parse_line(str(row[1]))
        except ValueError:
            return author
        if (last.body, last.source) == (memory.body, memory.source):
            return str(row[0])
    return author


def _keep_row(
    conn: sqlite3.Connection, project: str, memory_id: int, record: records.Record, origin: str
) -> None:
    conn.execute(
        "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (memory_id) DO UPDATE SET"
        " uid = excluded.uid, author = excluded.author, line = excluded.line",
        (memory_id, project, record.id, record.author, origin, record.line()),
    )


def unshare(conn: sqlite3.Connection, project: str, root: Path, ids: Iterable[int]) -> list[int]:
    """Take memories out of the team file; the memories themselves stay as they are.
    Each keeps its stable id, so a branch whose file still has its line shows the same
    memory, never a copy."""
    uids = shared_ids(conn, project)
    for memory_id in ids:
        memories.require(conn, memory_id, [project])
    current, kept = read_clean(conn, root)
    gone = [memory_id for memory_id in dict.fromkeys(ids) if uids.get(memory_id) in current]
    if not gone:
        return []
    for memory_id in gone:
        current.pop(uids[memory_id], None)
        conn.execute("UPDATE shared SET line = '' WHERE memory_id = ?", (memory_id,))
    publish(conn, project, root, current, kept)
    return gone


def follow(
    conn: sqlite3.Connection,
    project: str | None,
    root: Path | None,
    ids: Iterable[int],
    author: Callable[[], str],
) -> None:
    """After a local change to memories `ids`: rewrite the lines of those that are shared
    in this checkout's team file, and share the correction of a shared memory along
    with it. A new text is checked for secrets and signed by whoever changed it."""
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
    current, kept = read_clean(conn, root)
    # Only lines of this checkout's file are followed: a memory shared on another
    # branch alone stays out of this one's file.
    here = {mid: uid for mid, uid in uids.items() if uid in current}
    changed = False
    for memory_id in touched:
        memory = memories.get(conn, memory_id, [project], hidden=True)
        if memory is None:
            continue
        old = current.get(here.get(memory_id, ""))
        if old is None:
            # A memory that replaces a shared one is shared too, or teammates would keep
            # the outdated fact with nothing to say it was corrected.
            replaced = superseded_uid(conn, memory, here)
            if replaced is None:
                continue
            _refuse_secrets(memory, "corrects a shared memory, so it would be shared, but it")
            uid = uids.get(memory_id) or uuid.uuid4().hex
            here[memory_id] = uid
            record = to_record(memory, uid, author(), replaced)
        else:
            new_text = (old.body, old.source) != (memory.body, memory.source)
            if new_text:
                _refuse_secrets(memory, "is shared, and its new text")
            record = to_record(memory, old.id, author() if new_text else old.author, old.supersedes)
        _keep_row(conn, project, memory_id, record, "here")
        current[record.id] = record
        changed = True
    if changed:
        publish(conn, project, root, current, kept)


def _refuse_secrets(memory: Memory, what: str) -> None:
    found = secrets.secrets_in(memory.body + "\n" + memory.source)
    if found:
        raise BadInput(
            f"memory {memory.id} {what} seems to hold {', '.join(found)}: nothing was changed"
        )
