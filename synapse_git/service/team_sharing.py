"""Team memory through the repository (docs/team.md): sharing memories into the
tracked team file, taking them out, bringing teammates' changes in, and the merge
driver git runs on the team file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess

# Imported by the methods that use it: every command builds the service, few
# share (docs/architecture.md, start-up).
if TYPE_CHECKING:
    from synapse_git.team import sync as team_sync


class TeamSharing(StoreAccess):
    """The team file and this store, kept in step."""

    def share(
        self, ids: Sequence[int], scope: Scope, *, force: bool = False
    ) -> team_sync.ShareReport:
        """Share project memories through the repository's tracked team file."""
        self._team_root(scope)
        with self.writing() as conn:
            return self._share(conn, scope, ids, force=force)

    def unshare(self, ids: Sequence[int], scope: Scope) -> list[int]:
        """Take memories out of the team file (they stay in this store)."""
        from synapse_git.team import sync as team_sync

        project, root = self._team_root(scope)
        with self.writing() as conn:
            return team_sync.unshare(conn, project, root, ids)

    def sync_team(self, scope: Scope) -> team_sync.SyncReport:
        """Bring the team file's changes into this store (idempotent)."""
        from synapse_git.team import sync as team_sync

        project, root = self._team_root(scope)
        with self.writing() as conn:
            return team_sync.sync(conn, project, root)

    def merge_team_file(
        self, base: Path, ours: Path, theirs: Path, name: str | None = None
    ) -> tuple[int, list[str]]:
        """The merge driver (`hook merge-file`): the three versions git hands it merged by
        stable id over `ours`; git's answer (0 merged, 1 conflict) and what to say."""
        from synapse_git.team.merge import merge_files

        # OURS is overwritten: never when it is the store or a file SQLite keeps beside it.
        self.output_target(ours, force=True)
        return merge_files(base, ours, theirs, name)
