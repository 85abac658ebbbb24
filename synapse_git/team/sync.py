"""Team memory in the store: bringing a teammate's changes from the tracked file, in
the caller's one transaction (docs/team.md). Sharing memories into the file is in
team/sharing.py, re-exported here for callers that reach both through this module.

The store keeps, for each shared memory, its stable id and the canonical line
last written or read. A sync therefore compares lines, not memories: only a
line that differs from what the store last saw is parsed and applied, and a
file whose digest is the one last synced is not read past its hash.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from synapse_git.store import memories
from synapse_git.team import arrivals, changes, records
from synapse_git.team.records import Record
from synapse_git.team.shared_table import file_digest, shared_rows
from synapse_git.team.sharing import ShareReport as ShareReport
from synapse_git.team.sharing import follow as follow
from synapse_git.team.sharing import share as share
from synapse_git.team.sharing import unshare as unshare


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


def sync(conn: sqlite3.Connection, project: str, root: Path) -> SyncReport:
    """Bring the team file's changes into the store: new memories, edits, supersessions,
    forgets, and memories a teammate stopped sharing. Idempotent."""
    path = root / records.FILE
    report = SyncReport(str(path))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        data = b""
    digest = file_digest(data)
    row = conn.execute("SELECT digest FROM team_files WHERE project = ?", (project,)).fetchone()
    if row is not None and row[0] == digest:
        report.unchanged = True
        return report
    known = shared_rows(conn, project)
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
    # New live memories (most of a first sync) and changes to known ones go in
    # set-based; a memory that arrives already superseded or forgotten, row by row.
    fresh = [(r, line) for r, line in changed if r.id not in known and r.state == "live"]
    added = arrivals.add(conn, project, fresh)
    ids.update(zip((r.id for r, _ in fresh), added, strict=True))
    report.added.extend(added)
    for record, line in changed:
        if record.id not in known and record.state != "live":
            ids[record.id] = _add_hidden(conn, project, record, line, report)
    edits = [(ids[r.id], r, line) for r, line in changed if r.id in known]
    _report(report, changes.apply(conn, project, edits))
    for record, _ in changed:
        if record.supersedes is not None and record.state == "live":
            _supersede(conn, project, ids.get(record.supersedes), ids[record.id], report)
    gone = [old for uid, old in known.items() if uid not in seen]
    for old in gone:
        if old.origin != "team":
            # Shared from here and removed by a teammate: it only stops being shared.
            conn.execute("DELETE FROM shared WHERE memory_id = ?", (old.memory_id,))
    # A memory that came from the file is forgotten (and comes back if its line does).
    team_gone = [old.memory_id for old in gone if old.origin == "team"]
    _report(report, changes.apply(conn, project, [], team_gone))
    conn.execute(
        "INSERT INTO team_files (project, digest) VALUES (?, ?)"
        " ON CONFLICT (project) DO UPDATE SET digest = excluded.digest",
        (project, digest),
    )
    return report


def _add_hidden(
    conn: sqlite3.Connection, project: str, record: Record, line: str, report: SyncReport
) -> int:
    """A new memory whose line says it is superseded or forgotten: stored, then set so,
    with the change in its history."""
    memory_id = memories.insert(
        conn,
        record.body,
        record.source,
        project,
        created_at=record.created_at,
        updated_at=record.updated_at,
        head_commit=record.head_commit,
    )
    conn.execute(
        "INSERT INTO shared (memory_id, project, uid, author, origin, line)"
        " VALUES (?, ?, ?, ?, 'team', ?)",
        (memory_id, project, record.id, record.author, line),
    )
    report.added.append(memory_id)
    memory = memories.require(conn, memory_id, [project])
    memories.set_state(conn, memory, record.state, None, f"{record.state} by the team")
    return memory_id


def _report(report: SyncReport, changed: changes.Changed) -> None:
    report.updated.extend(changed.updated)
    report.forgotten.extend(changed.forgotten)


def _supersede(
    conn: sqlite3.Connection, project: str, old_id: int | None, new_id: int, report: SyncReport
) -> None:
    if old_id is None or old_id == new_id:
        return
    old = memories.get(conn, old_id, [project], hidden=True)
    if old is None:
        return
    if old.state == "superseded" and old.superseded_by is None:
        # It arrived superseded (the earlier half of a merge's chain): tie it to
        # the memory that supersedes it, so history and drift can follow the chain.
        memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
        return
    if old.state != "live":
        return
    memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
    report.superseded.append(old_id)
