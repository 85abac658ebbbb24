"""Recall as of a revision (`recall --at REV`, docs/branches.md): which project
memories were visible at a commit.

A project memory is visible at commit C when its anchor is C or in C's history
(it was written on the line of work that led to C), or, for a memory with no
anchor this repository has and for one marked `everywhere`, when it was stored
by C's committer time. Global memories are visible as always. What is shown is
each memory as the store holds it now: its current text, live memories only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from synapse_git.errors import BadInput
from synapse_git.git import branches
from synapse_git.textrules import utf8

MAX_REV = 256  # longer than any branch name, id or `main~12^2` a person types


def hidden_at(
    conn: sqlite3.Connection, projects: Sequence[str], checkout: Path | None, rev: str
) -> tuple[set[int], branches.Revision]:
    """The live project memories of `projects` not visible at `rev`, and the commit
    `rev` names; BadInput when `rev` names no commit here."""
    utf8(rev, "--at")
    if not rev or len(rev) > MAX_REV or any(ord(ch) < 32 or ord(ch) == 127 for ch in rev):
        raise BadInput("--at takes a revision: a branch, a tag or a commit id")
    if checkout is None:
        raise BadInput("--at needs a git checkout: run it inside the project's repository")
    found = branches.resolve(checkout, rev)
    if found is None:
        raise BadInput(f"--at {rev!r} names no commit in this repository")
    if not projects:
        return set(), found
    marks = ", ".join("?" for _ in projects)
    rows = conn.execute(
        "SELECT id, head_commit, everywhere, created_at FROM memories"
        f" WHERE state = 'live' AND project IN ({marks})",
        list(projects),
    ).fetchall()
    anchors = {str(anchor) for _, anchor, everywhere, _ in rows if anchor and not everywhere}
    known, present = branches.ancestors_among(checkout, found.commit, anchors)
    hidden: set[int] = set()
    for memory_id, anchor, everywhere, created in rows:
        if anchor and not everywhere and anchor in known:
            visible = anchor in present
        else:
            visible = _seconds(created) <= found.time
        if not visible:
            hidden.add(int(memory_id))
    return hidden, found


def _seconds(stamp: str) -> float:
    try:
        return datetime.fromisoformat(stamp).timestamp()
    except ValueError:
        return float("inf")
