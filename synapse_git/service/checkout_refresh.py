"""After a branch switch, a merge or a rewrite: the team file synced, the memories
naming a path that changed checked again, the checkout's session snapshot
written, and what changed said in one screen (docs/hooks.md).

Git runs this on every switch, so the snapshot is first brought to HEAD without
the rest of the service (whose import, pygit2's included, costs more than the
whole refresh): only memories naming a changed path are checked, and pygit2
loads only when there are some. The whole service is loaded only for a team
file to sync, or when a whole check is needed (no snapshot, the store changed
since).
"""

from __future__ import annotations

import os

from synapse_git.data_folder import data_dir
from synapse_git.errors import BadInput
from synapse_git.git import git_command
from synapse_git.team import FILE as TEAM_FILE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import TypeVar

    from synapse_git.git.project_scope import Scope
    from synapse_git.session.snapshots import Refresh
    from synapse_git.settings import Config

    T = TypeVar("T")


class Refreshed:
    """What a refresh has to say: about the team file (why it was not synced, the
    lines skipped, what the sync changed) and the screen about the memories."""

    __slots__ = ("screen", "team_skipped", "team_summary", "team_unsynced")

    def __init__(
        self,
        team_unsynced: str | None,
        team_skipped: list[str],
        team_summary: str | None,
        screen: list[str],
    ) -> None:
        self.team_unsynced = team_unsynced
        self.team_skipped = team_skipped
        self.team_summary = team_summary
        self.screen = screen


# What one refresh screen names: a commit by its first SHORT_COMMIT hex digits, at most
# LISTED_IDS re-checked ids, LISTED_MEMORIES memories of each kind and LISTED_PATHS
# gone paths of each.
SHORT_COMMIT = 12
LISTED_IDS = 12
LISTED_MEMORIES = 8
LISTED_PATHS = 3


def after_checkout(folder: Path | None = None, *, rewrite: bool = False) -> Refreshed:
    """The refresh after a branch switch or a merge, or after a rebase (`rewrite`)."""
    # What changed is measured against this checkout's last snapshot, which also
    # covers switches made while the hook was not installed, not against git's OLD.
    found = git_command.locate(folder)
    if not rewrite and found is not None and git_command.state(found.git_dir) == "rebase":
        # A rebase checks out its base first; post-rewrite refreshes once it is done.
        return Refreshed(None, [], None, [])
    # lexists: a team file that is a symlink is synced, so that it is refused aloud.
    team = found is not None and os.path.lexists(found.toplevel / TEAM_FILE)
    if not team and not data_dir().joinpath("memory.db").is_file():
        return Refreshed(None, [], None, [])
    quick = None if team or found is None else moved_snapshot(found)
    if quick is not None:
        return Refreshed(None, [], None, screen(quick))
    from synapse_git.service import Synapse

    svc = Synapse()
    scope = svc.scope(folder)
    unsynced, skipped, summary = None, [], None
    if team:
        try:
            synced = svc.sync_team(scope)
        except BadInput as exc:
            # A team file that is a symlink or too large: said, and the rest goes on.
            unsynced = str(exc)
        else:
            skipped = synced.skipped
            summary = synced.summary() if synced.changed or synced.skipped else None
    refresh = svc.refresh_checkout(scope)
    return Refreshed(unsynced, skipped, summary, [] if refresh is None else screen(refresh))


def after_amend(folder: Path | None = None) -> Refreshed:
    """The refresh after `git commit --amend`, which says something only when a memory
    became stale or fine again."""
    if not data_dir().joinpath("memory.db").is_file():
        return Refreshed(None, [], None, [])
    found = git_command.locate(folder)
    refresh = None if found is None else moved_snapshot(found)
    if refresh is None:
        from synapse_git.service import Synapse

        svc = Synapse()
        refresh = svc.refresh_checkout(svc.scope(folder))
    if refresh is None or not (refresh.became_stale or refresh.fine_again):
        return Refreshed(None, [], None, [])
    return Refreshed(None, [], None, screen(refresh))


def moved_snapshot(found: git_command.Worktree) -> Refresh | None:
    """The checkout's snapshot brought to HEAD without the whole service, or None
    when a whole check is needed (no snapshot, the store changed since)."""
    from synapse_git import settings
    from synapse_git.session import snapshot_file

    cfg = settings.load()
    # Held from the first read to the write: a purge waits for it (snapshot_file.py).
    with snapshot_file.Held(cfg.data_dir):
        return _moved_snapshot(found, cfg)


def _moved_snapshot(found: git_command.Worktree, cfg: Config) -> Refresh | None:
    from contextlib import closing

    from synapse_git.session import refresh, snapshots
    from synapse_git.store import readonly

    conn = readonly.open_readonly(cfg.db_path)
    if conn is None:
        return None
    key = str(found.toplevel)
    before = snapshots.read_snapshot(cfg.data_dir, key)

    def scope() -> Scope:
        from synapse_git.git import project_scope

        return project_scope.resolve(found.toplevel)

    with closing(conn):
        moved = refresh.incremental(
            conn,
            before,
            checkout=found.toplevel,
            head=found.head,
            version=readonly.store_version(conn),
            limits=cfg.drift,
            scope=scope,
            data_dir=cfg.data_dir,
        )
    if moved is None:
        return None
    snapshot, rechecked = moved
    snapshots.write_snapshot(cfg.data_dir, snapshot)
    return snapshots.compare(before, snapshot, rechecked)


def screen(refresh: Refresh) -> list[str]:
    """What a refresh says: how many memories it checked, those that became stale or
    fine again, and what a session will be told."""
    from synapse_git.escaping import counted

    snap = refresh.snapshot
    where = f" at {snap.head[:SHORT_COMMIT]}" if snap.head else ""
    again = refresh.rechecked
    if again is None:
        checked = counted(snap.visible, "memory", "memories")
        lines = [f"synapse: checked {checked} for this checkout{where}"]
    else:
        differ = counted(again.paths, "path", "paths")
        among = counted(snap.visible, "memory", "memories")
        ids, since = again.ids, again.since[:SHORT_COMMIT]
        shown = ", ".join(map(str, ids[:LISTED_IDS])) + (" …" if len(ids) > LISTED_IDS else "")
        lines = [
            f"synapse: re-checked {len(again.ids)} of {among} for this "
            f"checkout{where}: those naming one of {differ} changed since {since}"
            + (f" ({shown})" if again.ids else "")
        ]
    if refresh.became_stale:
        verb = "stale" if refresh.first else "became stale"
        lines.append(f"  {verb} ({len(refresh.became_stale)}):")
        for key, paths in _first_by_id(refresh.became_stale):
            gone = ", ".join(paths[:LISTED_PATHS])
            lines.append(f"    [{key}] {snap.titles.get(key, '')} — gone: {gone}")
    if refresh.fine_again:
        lines.append(f"  fine again ({len(refresh.fine_again)}):")
        for key, title in _first_by_id(refresh.fine_again):
            lines.append(f"    [{key}] {title}")
    left = len(snap.stale) + len(snap.repeated)
    # The older half of a conflict is told, marked: counted, not left out.
    marks = [f"{len(snap.older)} marked as contradicted"] if snap.older else []
    if snap.changed:
        marks.append(f"{len(snap.changed)} naming a file changed a lot since")
    told = f"  {len(snap.entries)} to tell a session" + (f" ({', '.join(marks)})" if marks else "")
    lines.append(
        f"{told}; left out {left}: {len(snap.stale)} stale, {len(snap.repeated)} duplicate"
    )
    return lines


def _first_by_id(found: dict[str, T]) -> list[tuple[str, T]]:
    """The first LISTED_MEMORIES entries of `found` (keyed by memory id), by id."""
    return sorted(found.items(), key=lambda item: int(item[0]))[:LISTED_MEMORIES]
