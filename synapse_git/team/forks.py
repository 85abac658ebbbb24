"""Shared memories the merge driver kept twice (docs/team.md, "Merging"): the
pairs drift reports as conflicts.

Both sides of a merge changed one shared memory: the later change kept its id
and supersedes the earlier, kept as `ID~HASH`. That pair is a conflict until a
person has looked: it is reported while the earlier version is superseded by
the later and the later is live, and settled by forgetting the earlier one
(its text stays in the team file and in history). Were both versions live
again (one restored), they are reported as two live versions of one memory.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from typing import NamedTuple

from synapse_git.team.merge import forked_from


class Fork(NamedTuple):
    later: int  # memory id of the version that stays current
    earlier: int  # memory id of the other version
    chained: bool  # True: `later` supersedes `earlier`; False: both are live


class _Row(NamedTuple):
    memory_id: int
    uid: str
    state: str
    superseded_by: int | None


def forks(conn: sqlite3.Connection, project: str | None) -> list[Fork]:
    """The pairs of versions of one shared memory of `project` still to be looked at."""
    if project is None:
        return []
    # The forks of the project and the originals they were made from.
    rows = conn.execute(
        "SELECT s.memory_id, s.uid, m.state, m.superseded_by FROM shared s"
        " JOIN memories m ON m.id = s.memory_id WHERE s.project = ?"
        " AND (instr(s.uid, '~') > 0 OR s.uid IN (SELECT substr(uid, 1, instr(uid, '~') - 1)"
        " FROM shared WHERE project = ? AND instr(uid, '~') > 0))",
        (project, project),
    )
    groups: dict[str, list[_Row]] = defaultdict(list)
    for found in rows:
        row = _Row(*found)
        groups[forked_from(row.uid) or row.uid].append(row)
    pairs: list[Fork] = []
    for members in groups.values():
        live = sorted(m.memory_id for m in members if m.state == "live")
        pairs += [Fork(other, live[0], False) for other in live[1:]]
        for member in members:
            if member.state == "superseded" and member.superseded_by in live:
                pairs.append(Fork(member.superseded_by, member.memory_id, True))
    return sorted(pairs)
