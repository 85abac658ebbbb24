"""The commit being made, reviewed: the staged team file, the project memories the
commit turns stale and how to settle each, and drift found before it that still
holds (docs/hooks.md). The hook prints the answer; this decides it.

Light on purpose: git runs this on every commit, and importing the rest of the
service (pygit2's ~210 ms included) costs more than the whole check. It talks
to git as a subprocess and to the store read-only, and loads the store, the
drift rules and the path finder only when the commit deletes or renames
something. A commit that deletes nothing loads this module, git_command,
snapshot_file and data_folder.
"""

from __future__ import annotations

import os

from synapse_git.data_folder import data_dir
from synapse_git.git import git_command
from synapse_git.session import snapshot_file
from synapse_git.team import FILE as TEAM_FILE

TYPE_CHECKING = False  # `typing` is not imported when running: 2 ms of every commit
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from synapse_git.drift.commit_check import Broken


# Plain classes, not dataclasses nor named tuples: importing `dataclasses` costs the
# commit more than its own git calls, and each named tuple is compiled at import.
class StaleMemory:
    """A live project memory the commit turns stale, and the commands that settle it."""

    __slots__ = ("edit", "forget", "gone", "id", "supersede", "title")

    def __init__(
        self,
        memory_id: int,
        title: str,
        gone: list[tuple[str, str | None]],
        forget: str,
        fixed: tuple[str, str] | None,
    ) -> None:
        self.id = memory_id
        self.title = title
        # Each path it names that the commit deletes (None) or renames (the new path).
        self.gone = gone
        # Forgetting it; or, when every gone path was renamed, editing or superseding
        # it with the corrected body.
        self.forget = forget
        self.edit: str | None = None if fixed is None else fixed[0]
        self.supersede: str | None = None if fixed is None else fixed[1]


class EarlierDrift:
    """Drift the last checkout refresh found that is still true now."""

    __slots__ = ("found_at", "pairs", "stale")

    def __init__(self, stale: int, pairs: int, found_at: str) -> None:
        self.stale = stale  # project memories naming a path missing now
        self.pairs = pairs  # conflicting or duplicate pairs not settled since
        self.found_at = found_at  # when that refresh ran


class CommitReview:
    """What the commit check found; `blocks` is whether git must refuse the commit."""

    __slots__ = ("blocks", "earlier", "stale", "team_problems")

    def __init__(
        self,
        team_problems: list[str],
        stale: list[StaleMemory],
        earlier: EarlierDrift | None,
        blocks: bool,
    ) -> None:
        self.team_problems = team_problems
        self.stale = stale
        self.earlier = earlier
        self.blocks = blocks


def review(*, warn_only: bool = False, folder: Path | None = None) -> CommitReview:
    """The commit being made in `folder` (default: here), reviewed. A staged team file
    that would break team memory blocks first (unless `warn_only`); a memory the
    commit turns stale blocks too; drift found before the commit never does."""
    staged = git_command.StagedChanges(folder)
    checkout = git_command.locate(folder)
    if checkout is None:
        staged.cancel()
        return CommitReview([], [], None, False)
    changes = staged.result()
    problems: list[str] = []
    if any(change.path == TEAM_FILE and change.status != "D" for change in changes):
        problems = _team_file_problems(checkout.toplevel)
        if problems and not warn_only:
            return CommitReview(problems, [], None, True)
    where = data_dir()
    broken: list[Broken] = []
    if any(change.status in "DR" for change in changes):
        broken = _broken(where, checkout, changes)
    earlier = _earlier(where, str(checkout.toplevel), {b.memory_id for b in broken})
    stale = _settled_by(broken) if broken else []
    return CommitReview(problems, stale, earlier, bool(stale) and not warn_only)


def _team_file_problems(toplevel: Path) -> list[str]:
    """What is wrong with the staged team file: not a regular file, too large, bad or
    repeated lines (the one check sync and the merge driver make too), secrets."""
    from synapse_git.team import records, secrets

    listed = git_command.git(["ls-files", "-s", "--", TEAM_FILE], toplevel)
    mode = listed.stdout.split(b" ", 1)[0] if listed.returncode == 0 else b""
    if mode and mode != b"100644" and mode != b"100755":
        return [f"{TEAM_FILE}: staged as a symlink or submodule; it must be a regular file"]
    staged = git_command.git(["show", f":{TEAM_FILE}"], toplevel)
    if staged.returncode != 0:
        return []
    if len(staged.stdout) > records.MAX_FILE_BYTES:
        return [f"{TEAM_FILE}: over the {records.MAX_FILE_BYTES} bytes allowed"]
    found, errors = records.parse_lines(staged.stdout.split(b"\n"))
    problems = [f"{TEAM_FILE}:{error.number}: {error.reason}" for error in errors]
    for record in found.values():
        kinds = secrets.secrets_in(record.body + "\n" + record.source)
        if kinds and record.state == "live":
            problems.append(f"shared memory {record.id} seems to hold {', '.join(kinds)}")
    return problems


def _broken(
    where: Path, checkout: git_command.Worktree, changes: Sequence[git_command.Change]
) -> list[Broken]:
    from contextlib import closing

    from synapse_git.drift import commit_check
    from synapse_git.store import readonly

    conn = readonly.open_readonly(where / "memory.db")
    if conn is None:
        return []
    with closing(conn):
        return commit_check.broken_memories(
            conn,
            checkout.project,
            str(checkout.toplevel),
            changes,
            find_paths=_find_paths,
            still_tracked=lambda folders: git_command.tracked_under(checkout.toplevel, folders),
            staged_files=lambda: git_command.tracked_files(checkout.toplevel),
        )


def _find_paths(text: str) -> list[str]:
    # The path finder (and pathspec) loads only when some memory holds a gone path.
    from synapse_git.drift.paths import find_paths

    return find_paths(text)


def _settled_by(items: Sequence[Broken]) -> list[StaleMemory]:
    """Each memory of `items` once, by id, with the paths it loses and its settling."""
    from synapse_git.drift import settle
    from synapse_git.escaping import first_line

    stale = []
    for memory_id in sorted({b.memory_id for b in items}):
        mine = [b for b in items if b.memory_id == memory_id]
        body = mine[0].body
        renamed = [(b.path, b.new_path) for b in mine if b.new_path is not None]
        fixed = settle.corrected(body, [b.path for b in mine], renamed)
        stale.append(
            StaleMemory(
                memory_id,
                first_line(body),
                [(b.path, b.new_path) for b in mine],
                settle.command("synapse", "memory", "forget", str(memory_id)),
                None
                if fixed is None
                else (
                    settle.replacing("edit", memory_id, fixed),
                    settle.replacing("supersede", memory_id, fixed),
                ),
            )
        )
    return stale


def _earlier(where: Path, checkout: str, ids: set[int]) -> EarlierDrift | None:
    """Drift that was there before this commit, from the last refresh, counting
    only what is still true now (`ids`, stale by this commit, are not counted twice).

    The refresh may be old: a memory it found stale counts only while it is
    still live and one of its paths is still missing now (a stat each); a
    conflicting or duplicate pair counts only while neither memory was
    forgotten, superseded or edited since (settled, or to be judged again).
    """
    snapshot = snapshot_file.read_raw(where, checkout)
    if snapshot is None:
        return None
    stale_keys = [key for key in snapshot.get("stale", {}) if int(key) not in ids]
    pair_maps = [snapshot.get("older", {}), snapshot.get("repeated", {})]
    named = {int(key) for key in stale_keys}
    named.update(int(key) for pairs in pair_maps for key in pairs)
    named.update(int(value) for pairs in pair_maps for value in pairs.values())
    if not named:
        return None
    unsettled = _unsettled(where, checkout, named, str(snapshot.get("store_version", "")))
    stale = [
        key
        for key in stale_keys
        if int(key) in unsettled and _still_missing(checkout, snapshot["stale"][key])
    ]
    pairs = sum(
        1
        for mapping in pair_maps
        for key, newer in mapping.items()
        if int(key) in unsettled and int(newer) in unsettled
    )
    if not stale and not pairs:
        return None
    found_at = snapshot_file.written_at(where, checkout) if pairs else ""
    return EarlierDrift(len(stale), pairs, found_at)


def _unsettled(where: Path, checkout: str, ids: set[int], version: str) -> set[int]:
    """Those of `ids` still live and unchanged since the store was at `version`
    (a memory's every change adds a history row past the version's last one)."""
    from contextlib import closing

    if _untouched_since_snapshot(where, checkout):
        return ids  # no write since the snapshot was made: a stat each, no SQLite
    from synapse_git.store import readonly

    conn = readonly.open_readonly(where / "memory.db")
    if conn is None:
        return set()
    with closing(conn):
        if readonly.store_version(conn) == version:
            return ids
        try:
            last_change = int(version.rsplit(":", 1)[1])
        except (IndexError, ValueError):
            last_change = -1  # an unreadable version: every change counts as new
        marks = ", ".join("?" for _ in ids)
        rows = conn.execute(
            f"SELECT id FROM memories WHERE id IN ({marks}) AND state = 'live' AND NOT EXISTS "
            "(SELECT 1 FROM history WHERE history.memory_id = memories.id AND history.id > ?)",
            [*sorted(ids), last_change],
        )
        return {int(row[0]) for row in rows}


def _untouched_since_snapshot(where: Path, checkout: str) -> bool:
    """Whether neither the store nor its write-ahead log was written after the
    checkout's snapshot (any later write, even a recall count, means asking)."""
    snapshot = snapshot_file.snapshot_path(where, checkout)
    try:
        made = snapshot.stat().st_mtime_ns
        written = [
            path.stat().st_mtime_ns
            for path in (where / "memory.db", where / "memory.db-wal")
            if path.exists()
        ]
    except OSError:
        return False
    return bool(written) and max(written) < made


def _still_missing(checkout: str, paths: object) -> bool:
    if not isinstance(paths, list) or not paths:
        return True
    return any(not os.path.lexists(os.path.join(checkout, str(path).rstrip("/"))) for path in paths)
