"""What a starting agent session is told, and the snapshot post-checkout refreshes (docs/hooks.md).

A snapshot holds, for one checkout at one HEAD and one store version, the
memories worth telling (already ordered; stale ones and the older copy of a
duplicate left out) and why the others were left out. Both memories of a
conflicting pair are told, the older marked: a conflict is a reading of two
texts and may be wrong, where a duplicate's text is told anyway. Rendering it
for a budget is cheap, so session start only reads a small JSON file when the
snapshot is current.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any, NamedTuple

from synapse_git.data_folder import replace_file
from synapse_git.drift.short_forms import parents, tails
from synapse_git.recall.fusion import fuse
from synapse_git.session import drift_log
from synapse_git.session.guidance import READING_HINT
from synapse_git.session.snapshot_file import SNAPSHOT_FORMAT, read_raw, snapshot_path
from synapse_git.store.memories import live_with_counts
from synapse_git.textrules import cut_utf8, first_line

LIMIT_BYTES = 8 * 1024  # agents cut longer start-up context
STORED_BYTES = 6_000  # the most any budget shows of one body
STORED_TOTAL = 64 * 1024  # with STORED_ENTRIES: more than any 8 KiB rendering can show
STORED_ENTRIES = 400
LISTED_PAIRS = 12  # conflicting pairs the footer names; each older one is marked anyway
# Reciprocal rank fusion's k for newest and most recalled: far below recall's K (60),
# so a memory at the top of either order stays near the top of the snapshot rather
# than being evened out with the many memories a session is never shown.
ORDER_K = 9
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
    older: dict[str, int]  # id -> newer id (conflict): told, marked as contradicted
    repeated: dict[str, int]  # id -> newer id (duplicate): left out
    titles: dict[str, str]  # first lines of those left out
    visible: int
    # ids naming a path that is missing yet not known to be stale: still told,
    # but never "fine again" (older snapshots lack it)
    unverified: tuple[str, ...] = ()
    # ids -> paths that changed a lot since the memory was written: told, and counted
    changed: dict[str, list[str]] | None = None
    # project memory id -> the paths its body names, so that a refresh after a
    # checkout finds the memories naming a changed path without reading bodies
    named: dict[str, list[str]] | None = None
    # ids -> the branch holding the memory's commit (unmerged), "" when no branch
    # does (orphaned): written on another line of work, left out (docs/branches.md)
    elsewhere: dict[str, str] | None = None

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
    score = fuse(([r.id for r in newest], [r.id for r in recalled]), ORDER_K)
    return sorted(rows, key=lambda r: (r.project is None, -score[r.id], -r.id))


def cut(text: str, limit: int) -> str:
    """`text` in at most `limit` bytes of UTF-8, cut on a character boundary."""
    return cut_utf8(text.encode("utf-8"), limit).decode("utf-8")


def build(
    *,
    checkout: str,
    project: str | None,
    head: str | None,
    store_version: str,
    rows: Sequence[Row],
    findings: Sequence[dict[str, Any]],
    named: dict[str, list[str]] | None = None,
) -> Snapshot:
    """Order the visible memories and leave out the stale ones and the older copy of
    each duplicate; the older half of a conflict comes right after the newer one,
    marked; `changed` ones are told (docs/hooks.md, session start)."""
    stale: dict[str, list[str]] = {}
    changed: dict[str, list[str]] = {}
    older: dict[str, int] = {}
    repeated: dict[str, int] = {}
    unverified: set[str] = set()
    elsewhere = {
        str(finding["ids"][0]): str(finding.get("branch") or "")
        for finding in findings
        if finding.get("kind") in BRANCH_KINDS and finding.get("ids")
    }
    for finding in findings:
        ids = [int(i) for i in finding.get("ids", [])]
        kind = finding.get("kind")
        if kind in PATH_KINDS and any(str(i) in elsewhere for i in ids):
            continue  # another line's paths: the branch label says it
        if kind == "stale":
            for memory_id in ids:
                stale.setdefault(str(memory_id), []).extend(finding.get("paths", []))
        elif kind == "unverified":
            unverified.update(str(memory_id) for memory_id in ids)
        elif kind == "changed":
            for memory_id in ids:
                changed.setdefault(str(memory_id), []).extend(finding.get("paths", []))
        elif kind in ("conflict", "duplicate") and len(ids) >= 2:
            old = int(finding.get("older", min(ids)))
            new = int(finding.get("newer", max(ids)))
            (older if kind == "conflict" else repeated).setdefault(str(old), new)
    left = set(stale) | set(repeated) | set(elsewhere)
    entries: list[Entry] = []
    titles: dict[str, str] = {}
    stored = 0
    for row in _pairs_together(_useful_first(rows), older):
        if str(row.id) in left:
            titles[str(row.id)] = first_line(row.body)
            continue
        if stored >= STORED_TOTAL or len(entries) >= STORED_ENTRIES:
            continue
        text = cut(row.body, STORED_BYTES)
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
        changed={k: sorted(set(v)) for k, v in changed.items()},
        named=named,
        elsewhere=elsewhere,
    )


def _pairs_together(rows: list[Row], older: dict[str, int]) -> list[Row]:
    """`rows` with the older half of each conflict moved right after its newer half
    (when that is there), so a reader sees the correction next to what it corrects."""
    present = {row.id for row in rows}
    after: dict[int, list[Row]] = {}
    for row in rows:
        newer = older.get(str(row.id))
        if newer is not None and newer in present and newer != row.id:
            after.setdefault(newer, []).append(row)
    moved = {row.id for group in after.values() for row in group}
    out: list[Row] = []

    def place(row: Row, depth: int) -> None:
        out.append(row)
        # A chain of corrections (3 corrects 2, 2 corrects 1) stays in order, bounded.
        for follower in after.get(row.id, []) if depth < 8 else []:
            place(follower, depth + 1)

    for row in rows:
        if row.id not in moved:
            place(row, 0)
    placed = {row.id for row in out}
    out += [row for row in rows if row.id not in placed]  # a cycle of conflicts
    return out


PATH_KINDS = ("stale", "unverified", "changed")
BRANCH_KINDS = ("unmerged", "orphaned")


def findings_of(snapshot: Snapshot) -> list[dict[str, Any]]:
    """The findings `snapshot` was built from, in the shape `build` reads."""
    found: list[dict[str, Any]] = []
    for key, paths in snapshot.stale.items():
        found.append({"kind": "stale", "ids": [int(key)], "paths": list(paths)})
    found += [{"kind": "unverified", "ids": [int(key)]} for key in snapshot.unverified]
    for key, paths in (snapshot.changed or {}).items():
        found.append({"kind": "changed", "ids": [int(key)], "paths": list(paths)})
    for key, branch in (snapshot.elsewhere or {}).items():
        kind = "unmerged" if branch else "orphaned"
        found.append({"kind": kind, "ids": [int(key)], "branch": branch or None})
    for kind, pairs in (("conflict", snapshot.older), ("duplicate", snapshot.repeated)):
        for old, new in pairs.items():
            found.append({"kind": kind, "ids": [new, int(old)], "older": int(old), "newer": new})
    return found


def updated(
    before: Snapshot,
    *,
    head: str | None,
    rows: Sequence[Row],
    rechecked: Collection[int],
    findings: Sequence[dict[str, Any]],
) -> Snapshot:
    """`before` moved to `head` with the store unchanged: the path findings of the
    `rechecked` memories are replaced by `findings`, and the branch findings of
    all (HEAD moved: what is merged here changed); everything else is kept."""
    again = {str(memory_id) for memory_id in rechecked}
    kept = [
        finding
        for finding in findings_of(before)
        if finding["kind"] not in BRANCH_KINDS
        and (finding["kind"] not in PATH_KINDS or str(finding["ids"][0]) not in again)
    ]
    return build(
        checkout=before.checkout,
        project=before.project,
        head=head,
        store_version=before.store_version,
        rows=rows,
        findings=kept + list(findings),
        named=before.named,
    )


def affected(named: dict[str, list[str]], changed: Iterable[str], checkout: str) -> list[int]:
    """The memories among `named` naming a path in `changed` (git's paths), a folder
    holding one, or a shorter form of either (`app/db.py`, `db.py`)."""
    touched: set[str] = set()
    for path in changed:
        for place in (path, *parents(path)):
            touched.add(place)
            touched.update(tails(place))
    root = checkout.rstrip("/") + "/"
    found: list[int] = []
    for key, paths in named.items():
        for path in paths:
            inner = path[len(root) :] if path.startswith(root) else path
            while inner.startswith("./"):
                inner = inner[2:]
            if inner.rstrip("/") in touched:
                found.append(int(key))
                break
    return sorted(found)


class Rechecked(NamedTuple):
    """What an incremental refresh looked at: the memories naming one of `paths`
    paths that differ between the snapshot's commit `since` and the new HEAD."""

    ids: tuple[int, ...]
    paths: int
    since: str


class Refresh(NamedTuple):
    """What a branch switch changed: memories that became stale, and those fine again."""

    snapshot: Snapshot
    became_stale: dict[str, list[str]]
    fine_again: dict[str, str]
    first: bool
    rechecked: Rechecked | None = None  # None: every memory was checked


def compare(
    before: Snapshot | None, after: Snapshot, rechecked: Rechecked | None = None
) -> Refresh:
    if before is None:
        return Refresh(after, dict(after.stale), {}, True, rechecked)
    became = {k: v for k, v in after.stale.items() if k not in before.stale}
    # A memory whose path is still missing is not fine again, only less certain.
    missing = set(after.stale) | set(after.unverified) | set(after.elsewhere or {})
    fine = {k: before.titles.get(k, "") for k in before.stale if k not in missing}
    return Refresh(after, became, fine, False, rechecked)


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
    replace_file(path, json.dumps(snapshot.as_json(), ensure_ascii=False))
    with suppress(OSError):
        # Drift over time is a picture: failing to add a point never fails a refresh.
        drift_log.record(path, snapshot.head, findings_of(snapshot))
    return path
