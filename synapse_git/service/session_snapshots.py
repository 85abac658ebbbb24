"""A checkout's session snapshot: what a session starting there is told, kept in the
data folder and brought to HEAD after a branch switch, merge or rewrite, with what
changed since (docs/hooks.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess

if TYPE_CHECKING:
    from synapse_git.session.snapshots import Rechecked, Refresh, Snapshot


class SessionSnapshots(StoreAccess):
    """The snapshots of what a session is told; the store is only read."""

    def session_snapshot(self, scope: Scope) -> Snapshot:
        """Recompute what a session starting in `scope` is told, and keep it as the
        checkout's snapshot (in the data folder, never in the repository)."""
        return self._snapshot(scope, str(scope.checkout or scope.folder))[1]

    def refresh_checkout(self, scope: Scope) -> Refresh | None:
        """After a branch switch, merge or rewrite: bring the snapshot to HEAD and say
        what changed since the last one (None when there is no store yet). With the
        memories unchanged since, only those naming a path git changed are checked."""
        from synapse_git.session import snapshots

        if not self._exists():
            return None
        before, after, rechecked = self._snapshot(scope, str(scope.checkout or scope.folder))
        return snapshots.compare(before, after, rechecked)

    def _snapshot(
        self, scope: Scope, key: str
    ) -> tuple[Snapshot | None, Snapshot, Rechecked | None]:
        """(the snapshot before, the one now written, what was checked again). The
        snapshots' lock is held from the first read to the write, so that a purge
        waits for it (session/snapshot_file.py)."""
        from synapse_git.session import snapshot_file, snapshots

        head = project_scope.head(scope).commit if scope.project is not None else None
        with snapshot_file.Held(self.config.data_dir):
            before = snapshots.read_snapshot(self.config.data_dir, key)
            if not self._exists():
                return before, snapshots.nothing(key, scope.project, head), None
            return (before, *self._written(scope, key, before, head))

    def _written(
        self, scope: Scope, key: str, before: Snapshot | None, head: str | None
    ) -> tuple[Snapshot, Rechecked | None]:
        from synapse_git.session import refresh, snapshots
        from synapse_git.store import readonly

        with self.connection() as conn:
            version = readonly.store_version(conn)
            moved = refresh.incremental(
                conn,
                before,
                checkout=scope.checkout,
                head=head,
                version=version,
                limits=self.config.drift,
                scope=lambda: scope,
                data_dir=self.config.data_dir,
            )
            if moved is None:
                snapshot = refresh.whole(
                    conn,
                    scope,
                    key=key,
                    head=head,
                    version=version,
                    # A hook never waits for a first build of the path history (docs/drift.md).
                    drift=lambda: [
                        f.as_json() for f in self._drift_in(conn, scope, wait=False).findings
                    ],
                )
        snapshot, rechecked = (snapshot, None) if moved is None else moved
        snapshots.write_snapshot(self.config.data_dir, snapshot)
        return snapshot, rechecked
