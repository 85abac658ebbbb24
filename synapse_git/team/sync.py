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
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.store import memories
from synapse_git.team import arrivals, changes, deferred, paths, records
from synapse_git.team.records import Record
from synapse_git.team.shared_table import SharedRow, file_digest, shared_rows
from synapse_git.team.sharing import ShareReport as ShareReport
from synapse_git.team.sharing import follow as follow
from synapse_git.team.sharing import share as share
from synapse_git.team.sharing import unshare as unshare

if TYPE_CHECKING:
    from synapse_git.answers import SyncOut


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

    def as_json(self) -> SyncOut:
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
    forgets, and memories a teammate stopped sharing. Idempotent. A bad line is
    reported and skipped; the others apply. BadInput (nothing changed) when the file
    is no regular file inside the worktree, or too large."""
    path = root / records.FILE
    report = SyncReport(str(path))
    # Not the file between another share's commit and its write (team/deferred.py).
    deferred.hold(conn)
    with paths.open_read(root, records.FILE, records.MAX_FILE_BYTES) as fd:
        digest = file_digest(b"") if fd is None else paths.digest(fd, records.MAX_FILE_BYTES, path)
        row = conn.execute("SELECT digest FROM team_files WHERE project = ?", (project,)).fetchone()
        if row is not None and row[0] == digest:
            report.unchanged = True
            return report
        raw_lines = (
            []
            if fd is None
            else paths.lines(fd, records.MAX_LINE_BYTES, records.MAX_FILE_BYTES, path)
        )
        known = shared_rows(conn, project)
        seen, changed = _read_lines(raw_lines, known, report)
    _apply(conn, project, known, seen, changed, report)
    conn.execute(
        "INSERT INTO team_files (project, digest) VALUES (?, ?)"
        " ON CONFLICT (project) DO UPDATE SET digest = excluded.digest",
        (project, digest),
    )
    return report


def _read_lines(
    raw_lines: Iterable[bytes | None], known: dict[str, SharedRow], report: SyncReport
) -> tuple[dict[str, int], list[tuple[Record, str, int]]]:
    """Which ids the file holds (and on which line), the lines unchanged since the last
    sync, and the records of the lines that changed; bad lines go to the report."""
    by_line = {row.line: uid for uid, row in known.items() if row.line}
    seen: dict[str, int] = {}
    kept: dict[str, str] = {}
    changed: list[tuple[Record, str, int]] = []
    for number, raw in enumerate(raw_lines, start=1):
        line = None if raw is None else records.decode(raw)
        if line is not None and not line.strip():
            continue
        if line is not None and line in by_line and by_line[line] not in seen:
            # The very line last synced: nothing to parse or apply.
            seen[by_line[line]] = number
            kept[by_line[line]] = line
            continue
        try:
            if line is None:
                raise ValueError(records.TOO_LONG if raw is None else "not UTF-8")
            record = records.parse_line(line)
        except ValueError as exc:
            report.skipped.append(f"{report.file}:{number}: {exc}")
            continue
        if record.id in seen:
            report.skipped.append(f"{report.file}:{number}: id {record.id} is repeated")
            continue
        seen[record.id] = number
        old = known.get(record.id)
        if old is None or old.line != line:
            changed.append((record, line, number))
    return seen, _without_cycles(changed, kept, report)


def _without_cycles(
    changed: list[tuple[Record, str, int]], kept: dict[str, str], report: SyncReport
) -> list[tuple[Record, str, int]]:
    """`changed` less the lines whose supersessions loop back (refused, as the commit
    check and the merge driver refuse them): they would leave no version live."""
    new = {record.id: record for record, _, _ in changed}

    def supersedes(uid: str) -> str | None:
        if uid in new:
            return new[uid].supersedes
        if uid in kept:
            try:
                return records.parse_line(kept[uid]).supersedes
            except ValueError:
                return None
        return None

    looped = records.cycles(supersedes, new)
    for record, _, number in changed:
        if record.id in looped:
            report.skipped.append(f"{report.file}:{number}: {records.CYCLE}")
    return [item for item in changed if item[0].id not in looped]


def _apply(
    conn: sqlite3.Connection,
    project: str,
    known: dict[str, SharedRow],
    seen: dict[str, int],
    changed: list[tuple[Record, str, int]],
    report: SyncReport,
) -> None:
    ids = {uid: row.memory_id for uid, row in known.items()}
    # New live memories (most of a first sync) and changes to known ones go in
    # set-based; a memory that arrives already superseded or forgotten, row by row.
    fresh = [(r, line) for r, line, _ in changed if r.id not in known and r.state == "live"]
    added = arrivals.add(conn, project, fresh)
    ids.update(zip((r.id for r, _ in fresh), added, strict=True))
    report.added.extend(added)
    for record, line, _ in changed:
        if record.id not in known and record.state != "live":
            ids[record.id] = _add_hidden(conn, project, record, line, report)
    edits = [(ids[r.id], r, line) for r, line, _ in changed if r.id in known]
    _report(report, changes.apply(conn, project, edits))
    for record, _, _ in changed:
        if record.supersedes is not None and record.state == "live":
            _supersede(conn, project, ids.get(record.supersedes), ids[record.id], report)
    # A line missing from this checkout's file: a memory that came from the file is
    # hidden (forgotten) until a checkout brings the line back; one shared from here
    # stays as it is, with its stable id, so the line coming back (another branch,
    # a stash popped) finds it again instead of adding a copy.
    team_gone = [
        old.memory_id
        for uid, old in known.items()
        if uid not in seen and old.origin == "team" and old.line
    ]
    _report(report, changes.apply(conn, project, [], team_gone))


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
