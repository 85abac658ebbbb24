"""What a viewer asks about team memory: which memories this project shares, and who
shared them (docs/ui.md). Read-only."""

from __future__ import annotations

from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.team import shared_table


class TeamView(StoreAccess):
    """Reads about team memory; nothing here writes, not even the store's creation."""

    def shared_memories(self, scope: Scope) -> list[tuple[Memory, str]]:
        """The shared memories of `scope`'s project with their authors, newest first."""
        if scope.project is None or not self._exists():
            return []
        with self.connection(create=False) as conn:
            ids = sorted(shared_table.shared_ids(conn, scope.project), reverse=True)
            authors = shared_table.authors(conn, ids)
            found = []
            for memory_id in ids:
                memory = memories.get(conn, memory_id, scope.projects, hidden=True)
                if memory is not None:
                    found.append((memory, authors.get(memory_id, "")))
            return found
