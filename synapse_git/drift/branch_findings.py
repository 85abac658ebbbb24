"""`unmerged` and `orphaned` findings: project memories written on another line of
work that name paths that line changed (docs/branches.md).

A memory whose anchor HEAD's history does not hold, and which names a path its
own line changed, speaks of code this checkout does not have: it is labelled
"from branch X, not merged here" (`unmerged`, never blocking) while a branch
reaches its anchor, and `orphaned` (blocking, with a settle command) when none
does. A memory stored with `--everywhere`, a global one, or one naming nothing
its line changed is ordinary. Standard library, git and the store only: the
checkout hooks call it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from synapse_git.drift.finding_record import Finding
from synapse_git.drift.settle import command
from synapse_git.drift.short_forms import matching, parents, tails
from synapse_git.git import branch_cache, branches

KINDS = ("unmerged", "orphaned")


def anchors_of(
    conn: sqlite3.Connection, project: str, ids: Iterable[int] | None = None
) -> dict[int, str]:
    """Live memory id -> anchor, for the memories of `project` that are not marked
    `everywhere` (among `ids` when given)."""
    rows = conn.execute(
        "SELECT id, head_commit FROM memories WHERE project = ? AND state = 'live'"
        " AND everywhere = 0 AND head_commit IS NOT NULL",
        (project,),
    )
    found = {int(memory_id): str(anchor) for memory_id, anchor in rows}
    if ids is None:
        return found
    return {memory_id: found[memory_id] for memory_id in ids if memory_id in found}


def _names_of(changed: Sequence[str]) -> frozenset[str]:
    """Every name a path in `changed` goes by: itself, its shorter forms and the
    folders holding it, so that each named path is one look-up."""
    found: set[str] = set(changed)
    for each in changed:
        found.update(tails(each))
        found.update(parents(each))
    return frozenset(found)


def _named_changed(
    named: Sequence[str],
    changed: Sequence[str],
    checkout: Path,
    names_of_changed: frozenset[str] | None = None,
) -> list[str]:
    """The paths among `named` (as a memory writes them) that name a path in `changed`:
    the path itself, a shorter form of it, a folder holding it or a pattern matching it
    (`names_of_changed`: `_names_of(changed)`, when already made)."""
    root = str(checkout).rstrip("/") + "/"
    hits: list[str] = []
    for written in named:
        if written.startswith("~"):
            continue
        path = written[len(root) :] if written.startswith(root) else written
        if path.startswith("/"):
            continue
        while path.startswith("./"):
            path = path[2:]
        bare = path.rstrip("/")
        if not bare:
            continue
        if any(ch in bare for ch in "*?["):
            found = bool(matching(bare, changed, rooted=False))
        else:
            if names_of_changed is None:
                names_of_changed = _names_of(changed)
            found = bare in names_of_changed
        if found:
            hits.append(written)
    return hits


def findings(
    conn: sqlite3.Connection,
    *,
    project: str | None,
    checkout: Path | None,
    head: str | None,
    data_dir: Path,
    named: Mapping[int, Sequence[str]],
) -> list[Finding]:
    """The findings about the memories of `named` (id -> the paths its body names)."""
    if project is None or checkout is None or head is None or not named:
        return []
    anchors = anchors_of(conn, project, named)
    if not anchors:
        return []
    standings = branch_cache.standings(data_dir, checkout, head, set(anchors.values()))
    out: list[Finding] = []
    names_by_anchor: dict[str, frozenset[str]] = {}
    for memory_id in sorted(anchors):
        anchor = anchors[memory_id]
        standing = standings.get(anchor)
        if standing is None or standing.state not in (branches.BRANCH, branches.GONE):
            continue
        if anchor not in names_by_anchor:
            names_by_anchor[anchor] = _names_of(standing.changed)
        hits = _named_changed(named[memory_id], standing.changed, checkout, names_by_anchor[anchor])
        if hits:
            out.append(_finding(memory_id, anchors[memory_id], standing, hits))
    return out


def _finding(memory_id: int, anchor: str, standing: branches.Standing, hits: list[str]) -> Finding:
    paths = ", ".join(hits[:4]) + (f" and {len(hits) - 4} more" if len(hits) > 4 else "")
    if standing.state == branches.BRANCH:
        return Finding(
            "unmerged",
            (memory_id,),
            f"memory {memory_id} is from branch {standing.branch}, not merged here: it names "
            f"{paths}, which that branch changed; it holds here once that branch is merged",
            command("synapse", "memory", "read", str(memory_id)),
            paths=tuple(hits),
            anchor=anchor,
            branch=standing.branch,
        )
    return Finding(
        "orphaned",
        (memory_id,),
        f"memory {memory_id} was written at {anchor[:12]} on a line of work no branch reaches "
        f"any more (deleted unmerged, or its history rewritten): it names {paths}, which that "
        "line changed; forget it if that work was dropped, or remember it again here "
        "(with --everywhere if it holds on every branch)",
        command("synapse", "memory", "forget", str(memory_id)),
        paths=tuple(hits),
        anchor=anchor,
    )
