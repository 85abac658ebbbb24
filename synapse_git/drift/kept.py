"""Findings a person judged still true ("keep", docs/drift.md#keep).

A kept finding is recorded per memory, kind and subject (the paths a path finding
names, or the other memory of a pair) in the store's `kept` table. Drift leaves it
out while none of its memories changed since: an edit makes the memory new text,
to be judged again, and a path finding naming one more path is a new finding.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from synapse_git.drift.finding_record import Finding

# The kinds a person may keep; `unverified` and `changed` are soft but still noise
# once looked at.
KEEPABLE = ("stale", "unverified", "conflict", "duplicate", "changed")
_PAIRS = ("conflict", "duplicate")


@dataclass(frozen=True)
class Judgement:
    """One kept finding: memory `memory_id`'s `kind` about `subject`."""

    memory_id: int
    kind: str
    subject: str


def judgement(finding: Finding) -> Judgement:
    """How `finding` is recorded: a pair under its lower id with the other as subject;
    a path finding under its memory with its paths (one a line) as subject."""
    if finding.kind in _PAIRS:
        low, high = sorted(finding.ids[:2])
        return Judgement(low, finding.kind, str(high))
    paths = finding.paths or tuple(path for path, _, _ in finding.changes)
    return Judgement(finding.ids[0], finding.kind, "\n".join(sorted(paths)))


def has_table(conn: sqlite3.Connection) -> bool:
    """Whether the store has the table (a read-only opening of a store not yet brought
    to schema 10 has none, and keeps nothing)."""
    row = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kept'"
    ).fetchone()
    return row is not None


def not_kept(conn: sqlite3.Connection, findings: Sequence[Finding]) -> list[Finding]:
    """`findings` without those a person kept and whose memories did not change since."""
    if not findings or not has_table(conn):
        return list(findings)
    kept = _current(conn)
    if not kept:
        return list(findings)
    return [finding for finding in findings if judgement(finding) not in kept]


def _current(conn: sqlite3.Connection) -> set[Judgement]:
    """Every kept finding whose memories (both, for a pair) are unchanged since."""
    rows = conn.execute(
        "SELECT k.memory_id, k.finding, k.subject FROM kept k"
        " JOIN memories m ON m.id = k.memory_id AND m.updated_at <= k.kept_at"
        " LEFT JOIN memories o ON k.finding IN ('conflict', 'duplicate')"
        "   AND o.id = CAST(k.subject AS INTEGER)"
        " WHERE k.finding NOT IN ('conflict', 'duplicate') OR o.updated_at <= k.kept_at"
    )
    return {Judgement(int(row[0]), str(row[1]), str(row[2])) for row in rows}


def record(
    conn: sqlite3.Connection, findings: Sequence[Finding], at: str, head: str | None
) -> list[Judgement]:
    """Keep `findings` (inside the caller's transaction); what was recorded."""
    done = []
    for finding in findings:
        judged = judgement(finding)
        if judged.kind not in _PAIRS:
            # A memory has one finding of a path kind: a new judgement replaces the old.
            conn.execute(
                "DELETE FROM kept WHERE memory_id = ? AND finding = ?",
                (judged.memory_id, judged.kind),
            )
        conn.execute(
            "INSERT OR REPLACE INTO kept (memory_id, finding, subject, kept_at, head_commit)"
            " VALUES (?, ?, ?, ?, ?)",
            (judged.memory_id, judged.kind, judged.subject, at, head),
        )
        done.append(judged)
    return done


def undo(conn: sqlite3.Connection, ids: Sequence[int], kinds: Sequence[str]) -> int:
    """Forget the judgements about memories `ids` (as either side of a pair), of
    `kinds`; how many there were."""
    marks = ", ".join("?" for _ in ids)
    kind_marks = ", ".join("?" for _ in kinds)
    texts = [str(memory_id) for memory_id in ids]
    cursor = conn.execute(
        f"DELETE FROM kept WHERE finding IN ({kind_marks}) AND (memory_id IN ({marks})"
        f" OR (finding IN ('conflict', 'duplicate') AND subject IN ({marks})))",
        [*kinds, *ids, *texts],
    )
    return int(cursor.rowcount)
