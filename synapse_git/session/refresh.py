"""Bringing a checkout's session snapshot up to date at a new HEAD (docs/hooks.md).

The store's memories being unchanged since the last snapshot (same store
version), only what git changed can change a path finding: the memories that
name a path differing between the snapshot's commit and the new HEAD (one
tree diff, `git diff --name-only`) are checked again, and every other finding
is carried over. Conflicts and duplicates depend on the memories alone, so
they carry over whole. When the store changed, or the snapshot's commit is
gone (rewritten and collected), everything is checked as before.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git.git import git_command
from synapse_git.session import snapshots
from synapse_git.session.snapshots import Rechecked, Snapshot
from synapse_git.settings import DriftSettings

if TYPE_CHECKING:
    from synapse_git.git.project_scope import Scope
    from synapse_git.store.memories import Memory

# The drift machinery is imported only when some memory names a changed path: a
# checkout touching none costs a tree diff and a write. pygit2 is never imported.

_COMMIT = re.compile(r"^[0-9a-f]{40,64}$")


def named_paths(rows: Sequence[Memory], project: str | None) -> dict[str, list[str]]:
    """Each project memory's named paths (those naming none are left out)."""
    from synapse_git.drift.paths import find_paths

    named: dict[str, list[str]] = {}
    for row in rows:
        if project is not None and row.project == project:
            paths = find_paths(row.body)
            if paths:
                named[str(row.id)] = paths
    return named


def incremental(
    conn: sqlite3.Connection,
    before: Snapshot | None,
    *,
    checkout: Path | None,
    head: str | None,
    version: str,
    limits: DriftSettings,
    scope: Callable[[], Scope],
    data_dir: Path | None = None,
) -> tuple[Snapshot, Rechecked] | None:
    """`before` brought to `head` by re-checking only the memories naming a changed
    path (`scope` is asked for only then); None when that cannot be done and a
    whole check is needed."""
    if (
        before is None
        or before.named is None
        or before.store_version != version
        or checkout is None
        or before.head is None
        or head is None
        or not _COMMIT.match(before.head)
        or not _COMMIT.match(head)
    ):
        return None
    changed = git_command.changed_between(checkout, before.head, head)
    if changed is None:
        return None
    ids = snapshots.affected(before.named, changed, str(checkout))
    projects = () if before.project is None else (before.project,)
    rows = snapshots.visible_rows(conn, projects)
    found: list[dict[str, Any]] = []
    if data_dir is not None:
        # HEAD moved, so what is merged here may have changed for any memory; one
        # from another line of work is labelled, and its paths (the branch's) are not
        # checked here.
        from synapse_git.drift import branch_findings

        named = {int(key): paths for key, paths in before.named.items()}
        found += [
            finding.as_json()
            for finding in branch_findings.findings(
                conn,
                project=before.project,
                checkout=checkout,
                head=head,
                data_dir=data_dir,
                named=named,
            )
        ]
        held = {int(finding["ids"][0]) for finding in found}
        ids = [memory_id for memory_id in ids if memory_id not in held]
    if ids:
        found += _rechecked(conn, before, ids, checkout, head, limits, scope)
    snapshot = snapshots.updated(before, head=head, rows=rows, rechecked=ids, findings=found)
    return snapshot, Rechecked(tuple(ids), len(changed), before.head)


def _rechecked(
    conn: sqlite3.Connection,
    before: Snapshot,
    ids: Sequence[int],
    checkout: Path,
    head: str,
    limits: DriftSettings,
    scope: Callable[[], Scope],
) -> list[dict[str, Any]]:
    """The path findings (stale, unverified, changed) of the memories `ids`."""
    from synapse_git.drift import changed_since
    from synapse_git.drift.kept import not_kept

    memories = _memories(conn, ids)
    named = before.named or {}
    # The snapshot holds the paths each body names (the store is unchanged since it
    # was made): finding them again in every body would cost more than the check.
    by_body = {memory.body: named[str(memory.id)] for memory in memories}
    # The index is listed once, for the paths and for the `changed` counts alike.
    index: list[list[str]] = []

    def tracked() -> list[str]:
        if not index:
            index.append(git_command.tracked_files(checkout))
        return index[0]

    # A path that is there is present whatever else is asked: only a memory naming
    # a missing one needs git's history and the memory's commit.
    missing = [m for m in memories if not all(_there(p, checkout) for p in named[str(m.id)])]
    found = []
    if missing:
        from synapse_git.drift.path_findings import stale

        where = scope()
        paths = _without_renames(where, head, tracked)
        found += stale(
            missing, where, {"stale", "unverified"}, checkout=paths, named=by_body.__getitem__
        )
    found += changed_since.changed(
        memories,
        before.project,
        checkout,
        limits,
        find_paths=lambda body: list(by_body[body]),
        tracked=tracked,
    )
    return [finding.as_json() for finding in not_kept(conn, found)]


def _there(path: str, checkout: Path) -> bool:
    """Whether `path`, as a memory names it, exists here (a stat)."""
    if path.startswith("~/"):
        return os.path.lexists(os.path.expanduser(path))
    return os.path.lexists(os.path.join(checkout, path.rstrip("/")))


def _without_renames(scope: Scope, head: str, tracked: Callable[[], list[str]]) -> Any:
    """The checkout's paths, asked only whether each is there: a snapshot records
    which paths are gone, not where they went (`memory drift` says that), so a
    refresh skips rename detection and the history searches it would start, and
    reads what it asks with the git command rather than loading pygit2."""
    from synapse_git.drift.git_paths import GitCheckoutPaths
    from synapse_git.drift.staleness import PathState

    class Presence(GitCheckoutPaths):
        def _renamed_once(self, path: str, commit_id: str | None) -> PathState:
            del commit_id
            return PathState(path, "stale")

    # A hook never waits for a first build of the path history (docs/drift.md).
    return Presence(scope, head=head, tracked=tracked, wait=False)


def _memories(conn: sqlite3.Connection, ids: Sequence[int]) -> list[Memory]:
    from synapse_git.store.memories import DRIFT_OPENING, Memory, opening_columns

    # Drift reads a body's opening only (docs/drift.md#long-bodies); so does a refresh.
    marks = ", ".join("?" for _ in ids)
    columns = opening_columns(DRIFT_OPENING)
    rows = conn.execute(
        f"SELECT {columns} FROM memories WHERE id IN ({marks}) AND state = 'live' ORDER BY id",
        list(ids),
    )
    return [Memory(*row) for row in rows]


def whole(
    conn: sqlite3.Connection,
    scope: Scope,
    *,
    key: str,
    head: str | None,
    version: str,
    drift: Callable[[], Sequence[dict[str, Any]]],
) -> Snapshot:
    """Every memory checked: the snapshot as a session starting here is told it."""
    from synapse_git.drift.findings import visible_live

    rows = snapshots.visible_rows(conn, scope.projects)
    named = named_paths(visible_live(conn, scope)[0], scope.project)
    return snapshots.build(
        checkout=key,
        project=scope.project,
        head=head,
        store_version=version,
        rows=rows,
        findings=drift(),
        named=named,
    )
