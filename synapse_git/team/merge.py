"""The git merge driver for the team file: a three-way merge by stable id.

Git calls it (`synapse hook merge-file %O %A %B`) only when both sides changed
the file. Each id is merged on its own: a side that changed it wins over one
that did not; a deletion on one side and an edit on the other keeps the edit.
When both sides changed one memory differently, neither is lost: ours keeps
the id and theirs is kept beside it as a fork, `ID~HASH`, so both stay live and
drift reports the pair as a conflict until someone supersedes one of them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

from synapse_git.team import records
from synapse_git.team.records import Record

FORK = "~"


class Merged(NamedTuple):
    records: dict[str, Record]
    forks: list[tuple[str, str]]  # (the id kept, the fork of the other side's version)


def fork_id(uid: str, record: Record) -> str:
    """A stable id for the other side's version of `uid`: the same on every clone."""
    digest = hashlib.sha256(record.line().encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{uid}{FORK}{digest}"


def forked_from(uid: str) -> str | None:
    """The id a fork was made from (None for an id that is no fork)."""
    base, sep, _ = uid.rpartition(FORK)
    return base if sep else None


def merge(
    base: dict[str, Record], ours: dict[str, Record], theirs: dict[str, Record]
) -> Merged:
    result: dict[str, Record] = {}
    forks: list[tuple[str, str]] = []
    for uid in sorted(base.keys() | ours.keys() | theirs.keys()):
        was, mine, other = base.get(uid), ours.get(uid), theirs.get(uid)
        if mine == other:
            chosen = mine
        elif mine == was:
            chosen = other
        elif other == was:
            chosen = mine
        elif mine is None or other is None:
            chosen = mine if mine is not None else other  # an edit outlives a deletion
        else:
            chosen = mine
            fork = other._replace(id=fork_id(uid, other))
            result[fork.id] = fork
            forks.append((uid, fork.id))
        if chosen is not None:
            result[uid] = chosen
    return Merged(result, forks)


def merge_files(base: Path, ours: Path, theirs: Path) -> tuple[int, list[str]]:
    """Merge the three versions git hands the driver, writing the result over `ours`.
    Returns git's answer (0 merged, 1 conflict left for a person) and what to say."""
    sides = [records.read(path) for path in (base, ours, theirs)]
    problems = [
        f"{name} version, line {error.number}: {error.reason}"
        for name, (_, errors) in zip(("common", "our", "their"), sides, strict=True)
        for error in errors
    ]
    if problems:
        # A malformed line cannot be merged by id without losing it: leave it to git.
        return 1, ["synapse: the team file cannot be merged by id:", *problems[:10]]
    merged = merge(sides[0][0], sides[1][0], sides[2][0])
    records.write(ours, merged.records.values())
    said = [
        f"synapse: shared memory {kept} was changed on both sides; the other version is "
        f"kept as {fork} (`synapse memory drift` lists the pair)"
        for kept, fork in merged.forks
    ]
    return 0, said
