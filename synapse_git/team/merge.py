"""The git merge driver for the team file: a three-way merge by stable id.

Git calls it (`synapse hook merge-file %O %A %B`) only when both sides changed
the file. Each id is merged on its own: a side that changed it wins over one
that did not; a deletion on one side and an edit on the other keeps the edit.
When both sides changed one memory differently, neither is lost: they become a
supersession chain. The later change (by `updated_at`, then by its bytes, so
every clone that merges gets the same file) keeps the id and supersedes the
other, which is kept beside it as `ID~HASH`, superseded. Drift reports the pair
as a conflict until someone has looked (docs/team.md, "Merging").
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

from synapse_git import exit_codes
from synapse_git.errors import BadInput
from synapse_git.team import records
from synapse_git.team.records import Record

FORK = "~"
_DIGEST = 10


class Merged(NamedTuple):
    records: dict[str, Record]
    forks: list[tuple[str, str]]  # (the id kept by the later change, the earlier one's fork)


def fork_id(uid: str, record: Record) -> str:
    """A stable id for the earlier version of `uid`: the same on every clone.

    A fork of a fork is named after the first id, so that a memory edited on
    both sides many times keeps ids of one length; `forked_from` finds it."""
    root = forked_from(uid) or uid
    digest = hashlib.sha256(record.line().encode("utf-8", "surrogatepass")).hexdigest()
    # An id from a teammate's file may be long: cut it so that the fork's id is
    # still a valid one (records.py), at worst losing the tie to its original.
    room = records.MAX_ID - len(FORK) - _DIGEST
    return f"{root[:room]}{FORK}{digest[:_DIGEST]}"


def forked_from(uid: str) -> str | None:
    """The first id a fork was made from (None for an id that is no fork)."""
    base, sep, _ = uid.partition(FORK)
    return base if sep and base else None


def _chain(uid: str, mine: Record, other: Record) -> tuple[Record, Record]:
    """Both sides changed `uid`: the later version keeps the id and supersedes the
    earlier, kept under a fork id. Returns (later, earlier)."""
    earlier, later = sorted((mine, other), key=lambda r: (r.updated_at, r.line()))
    kept = earlier._replace(id=fork_id(uid, earlier))
    if kept.state == "live":
        kept = kept._replace(state="superseded")
    return later._replace(supersedes=kept.id), kept


def merge(base: dict[str, Record], ours: dict[str, Record], theirs: dict[str, Record]) -> Merged:
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
        elif (mine.state == "forgotten") != (other.state == "forgotten"):
            # A forget is a deletion that keeps the line: the edit outlives it too.
            chosen = other if mine.state == "forgotten" else mine
        else:
            chosen, fork = _chain(uid, mine, other)
            result[fork.id] = fork
            forks.append((uid, fork.id))
        if chosen is not None:
            result[uid] = chosen
    return Merged(result, forks)


def merge_files(
    base: Path, ours: Path, theirs: Path, name: str | None = None
) -> tuple[int, list[str]]:
    """Merge the three versions git hands the driver, writing the result over `ours`.
    Returns git's answer (0 merged, 1 conflict left for a person) and what to say.

    Only the team file (`name`, git's %P) is merged by id. Any other path a
    `.gitattributes` sends here, and a team file with a line that cannot be merged
    by id without losing it, get git's own line merge: conflict markers and a
    non-zero answer when the sides collide, never "ours" alone."""
    if name != records.FILE:
        code, said = _line_merge(base, ours, theirs)
        return code, [f"synapse: {name} is not the team file: merged by git line by line", *said]
    try:
        sides = [records.read(path) for path in (base, ours, theirs)]
    except BadInput as exc:
        code, said = _line_merge(base, ours, theirs)
        return code, [f"synapse: the team file cannot be merged by id: {exc}", *said]
    problems = [
        f"{name} version, line {error.number}: {error.reason}"
        for name, (_, errors) in zip(("common", "our", "their"), sides, strict=True)
        for error in errors
    ]
    if problems:
        # A malformed line cannot be merged by id without losing it: leave it to git.
        code, said = _line_merge(base, ours, theirs)
        return code, ["synapse: the team file cannot be merged by id:", *problems[:10], *said]
    merged = merge(sides[0][0], sides[1][0], sides[2][0])
    records.write(ours, merged.records.values())
    said = [
        f"synapse: shared memory {kept} was changed on both sides; the later change is kept "
        f"as current and the earlier as {fork}, which it supersedes (`synapse memory drift` "
        "lists the pair)"
        for kept, fork in merged.forks
    ]
    return exit_codes.OK, said


def _line_merge(base: Path, ours: Path, theirs: Path) -> tuple[int, list[str]]:
    """git's own three-way merge of the files, written over `ours` (with conflict markers
    where the sides collide): 0 when it merged cleanly, 1 otherwise."""
    from synapse_git.git.git_command import git

    done = git(
        [
            "merge-file",
            "-L",
            "ours",
            "-L",
            "base",
            "-L",
            "theirs",
            "--",
            str(ours),
            str(base),
            str(theirs),
        ],
        ours.parent,
    )
    if done.returncode == 0:
        return exit_codes.OK, []
    if done.returncode > 0:
        return exit_codes.NEEDS_ATTENTION, [
            "synapse: conflicts are marked in the file; resolve them as usual"
        ]
    detail = done.stderr.decode("utf-8", "replace").strip()
    return exit_codes.ERROR, [f"synapse: git merge-file failed: {detail}"]
