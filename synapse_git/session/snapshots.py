"""What a starting agent session is told, and the snapshot post-checkout refreshes (docs/hooks.md).

A snapshot holds, for one checkout at one HEAD and one store version, the
memories worth telling (already ordered, drifted ones left out) and why the
others were left out. Rendering it for a budget is cheap, so session start
only reads a small JSON file when the snapshot is current.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from synapse_git.escaping import json_text, visible
from synapse_git.recall.fusion import fuse
from synapse_git.session.guidance import READING_HINT
from synapse_git.session.snapshot_file import SNAPSHOT_FORMAT, read_raw, snapshot_path
from synapse_git.settings import Budget
from synapse_git.store.memories import live_with_counts
from synapse_git.textrules import cut_utf8, first_line

LIMIT_BYTES = 8 * 1024  # agents cut longer start-up context
STORED_BYTES = 6_000  # the most any budget shows of one body
STORED_TOTAL = 64 * 1024  # with STORED_ENTRIES: more than any 8 KiB rendering can show
STORED_ENTRIES = 400
HINT = f"{READING_HINT} (Shell: synapse memory read ID --offset N.)"


# NamedTuples rather than dataclasses: session start reads a snapshot on every
# agent start, and creating dataclasses costs it several milliseconds.


class Row(NamedTuple):
    id: int
    body: str
    project: str | None
    created_at: str
    recalled: int
    size: int = 0  # the whole body's size in UTF-8 bytes; `body` is its opening


class Entry(NamedTuple):
    id: int
    is_global: bool
    text: str  # the body, cut to STORED_BYTES on a character boundary
    total: int  # the body's full size in UTF-8 bytes


class Snapshot(NamedTuple):
    checkout: str
    project: str | None
    head: str | None
    store_version: str
    entries: tuple[Entry, ...]
    stale: dict[str, list[str]]  # id -> paths gone
    older: dict[str, int]  # id -> newer id (conflict)
    repeated: dict[str, int]  # id -> newer id (duplicate)
    titles: dict[str, str]  # first lines of those left out
    visible: int
    # ids naming a path that is missing yet not known to be stale: still told,
    # but never "fine again" (older snapshots lack it)
    unverified: tuple[str, ...] = ()

    def current(self, head: str | None, store_version: str) -> bool:
        return self.head == head and self.store_version == store_version

    def as_json(self) -> dict[str, Any]:
        data = self._asdict()
        data["entries"] = [entry._asdict() for entry in self.entries]
        data["format"] = SNAPSHOT_FORMAT
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        entries = tuple(Entry(**entry) for entry in data["entries"])
        fields = {k: v for k, v in data.items() if k not in ("entries", "format")}
        return cls(entries=entries, **fields)


def nothing(checkout: str, project: str | None, head: str | None) -> Snapshot:
    """What to tell when there is no store yet."""
    return Snapshot(checkout, project, head, "", (), {}, {}, {}, {}, 0)


def visible_rows(conn: sqlite3.Connection, projects: Sequence[str]) -> list[Row]:
    """Every live memory visible from `projects` (the project's and global ones)."""
    # STORED_BYTES characters hold at least STORED_BYTES bytes: all a snapshot keeps.
    return [Row(*row) for row in live_with_counts(conn, projects, STORED_BYTES)]


def _useful_first(rows: Sequence[Row]) -> list[Row]:
    """Project memories before global ones; within each, newest and most recalled
    first: the two orders are fused by reciprocal rank, as recall fuses rankings."""
    newest = sorted(rows, key=lambda r: (r.created_at, r.id), reverse=True)
    recalled = sorted(newest, key=lambda r: r.recalled, reverse=True)
    score = fuse(([r.id for r in newest], [r.id for r in recalled]), k=9)
    return sorted(rows, key=lambda r: (r.project is None, -score[r.id], -r.id))


def _cut(text: str, limit: int) -> str:
    return cut_utf8(text.encode("utf-8"), limit).decode("utf-8")


def build(
    *,
    checkout: str,
    project: str | None,
    head: str | None,
    store_version: str,
    rows: Sequence[Row],
    findings: Sequence[dict[str, Any]],
) -> Snapshot:
    """Order the visible memories and leave out the stale ones and the older half
    of each conflicting or duplicate pair (docs/drift.md)."""
    stale: dict[str, list[str]] = {}
    older: dict[str, int] = {}
    repeated: dict[str, int] = {}
    unverified: set[str] = set()
    for finding in findings:
        ids = [int(i) for i in finding.get("ids", [])]
        kind = finding.get("kind")
        if kind == "stale":
            for memory_id in ids:
                stale.setdefault(str(memory_id), []).extend(finding.get("paths", []))
        elif kind == "unverified":
            unverified.update(str(memory_id) for memory_id in ids)
        elif kind in ("conflict", "duplicate") and len(ids) >= 2:
            old = int(finding.get("older", min(ids)))
            new = int(finding.get("newer", max(ids)))
            (older if kind == "conflict" else repeated)[str(old)] = new
    left = set(stale) | set(older) | set(repeated)
    entries: list[Entry] = []
    titles: dict[str, str] = {}
    stored = 0
    for row in _useful_first(rows):
        if str(row.id) in left:
            titles[str(row.id)] = first_line(row.body)
            continue
        if stored >= STORED_TOTAL or len(entries) >= STORED_ENTRIES:
            continue
        text = _cut(row.body, STORED_BYTES)
        stored += len(text.encode("utf-8"))
        size = row.size or len(row.body.encode("utf-8"))
        entries.append(Entry(row.id, row.project is None, text, size))
    return Snapshot(
        checkout=checkout,
        project=project,
        head=head,
        store_version=store_version,
        entries=tuple(entries),
        stale={k: sorted(set(v)) for k, v in stale.items()},
        older=older,
        repeated=repeated,
        titles=titles,
        visible=len(rows),
        unverified=tuple(sorted(unverified, key=int)),
    )


class Refresh(NamedTuple):
    """What a branch switch changed: memories that became stale, and those fine again."""

    snapshot: Snapshot
    became_stale: dict[str, list[str]]
    fine_again: dict[str, str]
    first: bool


def compare(before: Snapshot | None, after: Snapshot) -> Refresh:
    if before is None:
        return Refresh(after, dict(after.stale), {}, True)
    became = {k: v for k, v in after.stale.items() if k not in before.stale}
    # A memory whose path is still missing is not fine again, only less certain.
    missing = set(after.stale) | set(after.unverified)
    fine = {k: before.titles.get(k, "") for k in before.stale if k not in missing}
    return Refresh(after, became, fine, False)


# -- the snapshot file ---------------------------------------------------------------


def read_snapshot(data_dir: Path, checkout: str) -> Snapshot | None:
    """The checkout's snapshot, or None when missing, unreadable or of another format."""
    data = read_raw(data_dir, checkout)
    if data is None:
        return None
    try:
        return Snapshot.from_json(data)
    except (TypeError, KeyError, ValueError):
        return None


def write_snapshot(data_dir: Path, snapshot: Snapshot) -> Path:
    """Replace the checkout's snapshot atomically (a reader sees old or new, never half)."""
    path = snapshot_path(data_dir, snapshot.checkout)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(json.dumps(snapshot.as_json(), ensure_ascii=False), encoding="utf-8")
    os.replace(temporary, path)
    return path


# -- rendering -----------------------------------------------------------------------


def _entry_lines(entry: Entry, hit_bytes: int) -> list[str]:
    shown = _cut(entry.text, hit_bytes)
    abridged = len(shown.encode("utf-8")) < entry.total
    # The agent is told text: control characters and bidi overrides come written out.
    lines = visible(shown.strip("\n")).splitlines() or [""]
    out = [f"- [{entry.id}] {lines[0]}"] + [f"  {line}" for line in lines[1:]]
    if abridged:
        out[-1] += f" … (abridged: {entry.total} bytes, readmemory {entry.id})"
    return out


def _left_out_line(snapshot: Snapshot) -> str | None:
    parts = []
    if snapshot.stale:
        ids = ", ".join(sorted(snapshot.stale, key=int))
        parts.append(f"{len(snapshot.stale)} stale (a path they name is gone: {ids})")
    if snapshot.older:
        pairs = ", ".join(f"{o} (contradicted by {n})" for o, n in sorted(snapshot.older.items()))
        parts.append(f"{len(snapshot.older)} older half of a conflict: {pairs}")
    if snapshot.repeated:
        pairs = ", ".join(f"{o} (same as {n})" for o, n in sorted(snapshot.repeated.items()))
        parts.append(f"{len(snapshot.repeated)} duplicate: {pairs}")
    if not parts:
        return None
    return "Left out: " + "; ".join(parts) + ". See `synapse memory drift`."


def render_text(snapshot: Snapshot, budget: Budget, limit: int = LIMIT_BYTES) -> str:
    """The session text for `budget`, never more than `limit` UTF-8 bytes."""
    limit = min(limit, budget.response_chars, LIMIT_BYTES)
    where = f"project {snapshot.project}" if snapshot.project else "no project (global only)"
    head = f" at {snapshot.head[:12]}" if snapshot.head else ""
    header = [f"Synapse memory for {where}{head}."]
    footer = [line for line in (_left_out_line(snapshot), HINT) if line]
    used = sum(len(line.encode("utf-8")) + 1 for line in header + footer) + 64
    body: list[str] = []
    shown = 0
    section = None
    for entry in snapshot.entries:
        title = "Global memories:" if entry.is_global else "Project memories:"
        lines = ([title] if title != section else []) + _entry_lines(entry, budget.hit_bytes)
        size = sum(len(line.encode("utf-8")) + 1 for line in lines)
        if used + size > limit:
            break
        body += lines
        used += size
        section = title
        shown += 1
    hidden = len(snapshot.entries) - shown
    if not snapshot.entries:
        body.append("No memories to tell yet (`synapse memory remember` adds one).")
    elif hidden:
        footer.insert(0, f"Not shown for space: {hidden} more (`synapse memory list`).")
    text = visible("\n".join(header + body + footer)) + "\n"
    # A long left-out line (thousands of drifted ids) must not break the cap either.
    return _cut(text, limit)


def render(snapshot: Snapshot, budget: Budget, fmt: str) -> str:
    """Text, or for `claude` the JSON Claude Code's SessionStart hook reads; either
    way at most LIMIT_BYTES bytes including the JSON escaping."""
    if fmt != "claude":
        return render_text(snapshot, budget)
    limit = LIMIT_BYTES - 128
    while True:
        context = render_text(snapshot, budget, limit)
        out = json_text(
            {
                "hookSpecificOutput": {
                    "hookEventName": "SessionStart",
                    "additionalContext": context,
                }
            }
        )
        overflow = len(out.encode("utf-8")) - LIMIT_BYTES
        if overflow <= 0 or limit <= 256:
            return out
        limit -= overflow + 16
