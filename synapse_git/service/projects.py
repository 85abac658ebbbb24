"""Which project a folder is and what it holds (`project show`), and re-keying the
memories of a repository that moved (`project move`; docs/store.md)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput, NotFound
from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import database, memories, project_rows
from synapse_git.textrules import utf8

# The result types are imported where they are made: every command builds the
# service, and making a frozen dataclass costs what a short command's query does.
if TYPE_CHECKING:
    from synapse_git.service.results import ProjectInfo


class Projects(StoreAccess):
    """Projects, as the store keys them."""

    def project_info(self, scope: Scope) -> ProjectInfo:
        from synapse_git.service.results import ProjectInfo

        zero = {"live": 0, "superseded": 0, "forgotten": 0}
        if not self._exists():
            return ProjectInfo(scope, dict(zero), dict(zero), [])
        with self.connection() as conn:
            own = memories.counts(conn, scope.project) if scope.project else dict(zero)
            return ProjectInfo(
                scope,
                own,
                memories.counts(conn, None),
                self._moved_from(conn, scope, own),
                self._other_history(conn, scope, own),
            )

    def move_project(self, old: str, new: str) -> tuple[int, str]:
        """Re-key every memory of project `old` (a moved repository) to `new`'s project;
        returns how many moved and the new key."""
        from synapse_git.git import project_move

        target = project_scope.resolve(new)
        if target.project is None:
            raise BadInput(f"{new} is not inside a git repository")
        old_key = os.path.realpath(old) if os.path.exists(old) else os.path.abspath(old)
        utf8(old_key, "the old folder")
        root = project_scope.root_commit(target)
        project_move.check_move(old_key, target.project, root)
        with self.connection() as conn, database.transaction(conn):
            moved = project_rows.rekey(conn, old_key, target.project, root)
            if not moved:
                raise NotFound(f"no memory belongs to project {old_key}")
        return moved, target.project
