"""Team memory in the store: sharing memories into the tracked file and bringing a
teammate's changes from it, each in the caller's one transaction (docs/team.md).

The store keeps, for each shared memory, its stable id and the canonical line
last written or read. A sync therefore compares lines, not memories: only a
line that differs from what the store last saw is parsed and applied, and a
file whose digest is the one last synced is not read past its hash.
"""

from __future__ import annotations

import hashlib
import sqlite3
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.team import records, secrets
from synapse_git.team.records import Record


@dataclass
class SyncReport:
    """What a sync changed in the store, and the lines it could not read."""

    file: str
    added: list[int] = field(default_factory=list)
    updated: list[int] = field(default_factory=list)
    superseded: list[int] = field(default_factory=list)
    forgotten: list[int] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unchanged: bool = False

    @property
    def changed(self) -> int:
        return len(self.added) + len(self.updated) + len(self.superseded) + len(self.forgotten)

    def summary(self) -> str:
        parts = [
            f"{len(items)} {what}"
            for items, what in (
                (self.added, "added"),
                (self.updated, "updated"),
                (self.superseded, "superseded"),
                (self.forgotten, "forgotten"),
            )
            if items
        ]
        skipped = f"; {len(self.skipped)} bad lines skipped" if self.skipped else ""
        return "team memory: " + (", ".join(parts) if parts else "nothing new") + skipped

    def as_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "added": self.added,
            "updated": self.updated,
            "superseded": self.superseded,
            "forgotten": self.forgotten,
            "skipped": self.skipped,
        }


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


class _Row:
    __slots__ = ("author", "line", "memory_id", "origin", "uid")

    def __init__(self, memory_id: int, uid: str, author: str, origin: str, line: str) -> None:
        self.memory_id, self.uid, self.author, self.origin, self.line = (
            memory_id,
            uid,
            author,
            origin,
            line,
        )


def _rows(conn: sqlite3.Connection, project: str) -> dict[str, _Row]:
    return {
        str(uid): _Row(int(mid), str(uid), str(author), str(origin), str(line))
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


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _record(memory: Memory, uid: str, author: str, supersedes: str | None) -> Record:
    return Record(
        id=uid,
        body=memory.body,
        source=memory.source,
        author=author,
        created_at=memory.created_at,
        updated_at=memory.updated_at,
        supersedes=supersedes,
        state=memory.state,
    )


def _read_clean(path: Path) -> dict[str, Record]:
    found, errors = records.read(path)
    if errors:
        first = errors[0]
        raise BadInput(
            f"{path}:{first.number}: {first.reason}; fix the team file before sharing "
            "(`synapse memory sync` lists every bad line)"
        )
    return found


def _supersedes(conn: sqlite3.Connection, memory: Memory, uids: dict[int, str]) -> str | None:
    """The stable id of the shared memory `memory` replaced, if any."""
    row = conn.execute(
        "SELECT id FROM memories WHERE superseded_by = ? ORDER BY id LIMIT 1", (memory.id,)
    ).fetchone()
    return None if row is None else uids.get(int(row[0]))


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
    current = _read_clean(path)
    for memory in chosen:
        uid = uuid.uuid4().hex
        uids[memory.id] = uid
        record = _record(memory, uid, author, _supersedes(conn, memory, uids))
        current[uid] = record
        conn.execute(
            "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
            " VALUES (?, ?, ?, ?, 'here', ?)",
            (memory.id, project, uid, author, record.line()),
        )
        report.shared.append(memory.id)
    _publish(conn, project, path, current)
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
    current = _read_clean(path)
    for memory_id in gone:
        current.pop(uids[memory_id], None)
        conn.execute("DELETE FROM shared WHERE memory_id = ?", (memory_id,))
    _publish(conn, project, path, current)
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
    if not touched or not conn.execute(
        f"SELECT 1 FROM shared WHERE memory_id IN ({marks}) LIMIT 1", touched
    ).fetchone():
        return
    uids = shared_ids(conn, project)
    path = root / records.FILE
    current = _read_clean(path)
    author_of = authors(conn, list(uids))
    for memory_id in touched:
        memory = memories.get(conn, memory_id, [project], hidden=True)
        if memory is None:
            continue
        if memory_id not in uids:
            # A memory that replaces a shared one is shared too, or teammates would keep
            # the outdated fact with nothing to say it was corrected.
            replaced = _supersedes(conn, memory, uids)
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
            record = _record(memory, uids[memory_id], author_of[memory_id], replaced)
            conn.execute(
                "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
                " VALUES (?, ?, ?, ?, 'here', ?)",
                (memory_id, project, uids[memory_id], author_of[memory_id], record.line()),
            )
        else:
            old = current.get(uids[memory_id])
            record = _record(
                memory,
                uids[memory_id],
                author_of.get(memory_id, ""),
                old.supersedes if old is not None else _supersedes(conn, memory, uids),
            )
            conn.execute(
                "UPDATE shared SET line = ? WHERE memory_id = ?", (record.line(), memory_id)
            )
        current[record.id] = record
    _publish(conn, project, path, current)


def _publish(
    conn: sqlite3.Connection, project: str, path: Path, current: dict[str, Record]
) -> None:
    records.write(path, current.values())
    conn.execute(
        "INSERT INTO team_files (project, digest) VALUES (?, ?)"
        " ON CONFLICT (project) DO UPDATE SET digest = excluded.digest",
        (project, _digest(path.read_bytes())),
    )


def sync(conn: sqlite3.Connection, project: str, root: Path) -> SyncReport:
    """Bring the team file's changes into the store: new memories, edits, supersessions,
    forgets, and memories a teammate stopped sharing. Idempotent."""
    path = root / records.FILE
    report = SyncReport(str(path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    digest = _digest(data)
    row = conn.execute("SELECT digest FROM team_files WHERE project = ?", (project,)).fetchone()
    if row is not None and row[0] == digest:
        report.unchanged = True
        return report
    known = _rows(conn, project)
    by_line = {row.line: uid for uid, row in known.items() if row.line}
    seen: dict[str, int] = {}
    changed: list[tuple[Record, str]] = []
    text = data.decode("utf-8", "replace")
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        if line in by_line and by_line[line] not in seen:
            # The very line last synced: nothing to parse or apply.
            seen[by_line[line]] = number
            continue
        try:
            record = records.parse_line(line)
        except ValueError as exc:
            report.skipped.append(f"{path}:{number}: {exc}")
            continue
        if record.id in seen:
            report.skipped.append(f"{path}:{number}: id {record.id} is repeated")
            continue
        seen[record.id] = number
        old = known.get(record.id)
        if old is None or old.line != line:
            changed.append((record, line))
    ids = {uid: row.memory_id for uid, row in known.items()}
    for record, line in changed:
        ids[record.id] = _apply(conn, project, known.get(record.id), record, line, report)
    for record, _ in changed:
        if record.supersedes is not None and record.state == "live":
            _supersede(conn, project, ids.get(record.supersedes), ids[record.id], report)
    for uid, old in known.items():
        if uid not in seen:
            _dropped(conn, project, old, report)
    conn.execute(
        "INSERT INTO team_files (project, digest) VALUES (?, ?)"
        " ON CONFLICT (project) DO UPDATE SET digest = excluded.digest",
        (project, digest),
    )
    return report


def _apply(
    conn: sqlite3.Connection,
    project: str,
    old: _Row | None,
    record: Record,
    line: str,
    report: SyncReport,
) -> int:
    """Make the store say what `record` (read from `line`) says; the memory's id."""
    if old is None:
        memory_id = memories.insert(
            conn,
            record.body,
            record.source,
            project,
            created_at=record.created_at,
            updated_at=record.updated_at,
        )
        conn.execute(
            "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
            " VALUES (?, ?, ?, ?, 'team', ?)",
            (memory_id, project, record.id, record.author, line),
        )
        report.added.append(memory_id)
        if record.state != "live":
            memory = memories.require(conn, memory_id, [project])
            memories.set_state(conn, memory, record.state, None, f"{record.state} by the team")
        return memory_id
    memory = memories.require(conn, old.memory_id, [project])
    if (memory.body, memory.source) != (record.body, record.source):
        memories.update_text(conn, memory, record.body, record.source)
        memory = memories.require(conn, old.memory_id, [project])
        report.updated.append(memory.id)
    if memory.state != record.state and record.state != "superseded":
        memories.set_state(conn, memory, record.state, None, f"{record.state} by the team")
        if record.state == "forgotten":
            report.forgotten.append(memory.id)
        elif memory.id not in report.updated:
            report.updated.append(memory.id)
    conn.execute(
        "UPDATE shared SET line = ?, author = ? WHERE memory_id = ?",
        (line, record.author, old.memory_id),
    )
    return old.memory_id


def _supersede(
    conn: sqlite3.Connection, project: str, old_id: int | None, new_id: int, report: SyncReport
) -> None:
    if old_id is None or old_id == new_id:
        return
    old = memories.get(conn, old_id, [project], hidden=True)
    if old is None or old.state != "live":
        return
    memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
    report.superseded.append(old_id)


def _dropped(conn: sqlite3.Connection, project: str, old: _Row, report: SyncReport) -> None:
    """A line a teammate removed: a memory that came from the file is forgotten (and
    comes back if the line does); one shared from here only stops being shared."""
    if old.origin != "team":
        conn.execute("DELETE FROM shared WHERE memory_id = ?", (old.memory_id,))
        return
    conn.execute("UPDATE shared SET line = '' WHERE memory_id = ?", (old.memory_id,))
    memory = memories.get(conn, old.memory_id, [project], hidden=True)
    if memory is not None and memory.live:
        memories.set_state(conn, memory, "forgotten", None, "no longer shared by the team")
        report.forgotten.append(memory.id)
