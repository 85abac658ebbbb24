"""Looking after the store file itself: checking and repairing its indexes, the
vectors of semantic recall, and online backups (docs/store.md, docs/semantic.md)."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from synapse_git.errors import NotFound, no_store_yet
from synapse_git.service.base import StoreAccess
from synapse_git.store import database

# The result types are imported where they are made: every command builds the
# service, and making a frozen dataclass costs what a short command's query does.
if TYPE_CHECKING:
    from synapse_git.semantic.engine import EmbedReport
    from synapse_git.semantic.vectors import Coverage
    from synapse_git.service.results import StoreCheck
    from synapse_git.store import integrity


class Maintenance(StoreAccess):
    """The store's health: its indexes, its vectors, a copy of it."""

    def check(self, *, repair: bool = False) -> integrity.CheckReport:
        from synapse_git.store import integrity

        if not self._exists():
            # Nothing to check, and a check creates nothing.
            return integrity.CheckReport((), 0)
        if repair:
            with database.long_write(self.config.db_path), self.connection() as conn:
                integrity.repair(conn)
        with self.connection() as conn:
            return integrity.check(conn)

    def check_store(self, *, repair: bool = False) -> StoreCheck:
        """`memory check`: both indexes against the rows and the vectors' coverage;
        `repair` rebuilds the indexes and drops outdated vectors."""
        from synapse_git.service.results import StoreCheck

        return StoreCheck(self.check(repair=repair), self.vector_coverage(repair=repair))

    def vector_coverage(self, *, repair: bool = False) -> Coverage | None:
        """How many live memories have a current vector (None when semantic recall
        is not installed and no vector is stored); `repair` drops outdated ones."""
        if not self._exists():
            return None
        with self.connection() as conn:
            return self.semantic.coverage(conn, repair=repair)

    def embed(self, progress: Callable[[int, int], None] | None = None) -> EmbedReport:
        """Compute the vectors live memories lack (`memory embed`), a batch per
        transaction: interrupting it keeps what is done, and a rerun resumes."""
        return self.semantic.embed_missing(self.connection if self._exists() else None, progress)

    def backup(
        self, target: str | os.PathLike[str], *, force: bool = False
    ) -> integrity.BackupReport:
        """Write a consistent copy of the store to `target` (a new file, or any regular
        file but the store's own with `force`) while writers run."""
        from synapse_git.store import integrity

        path = self.output_target(target, force=force)
        if not self._exists():
            raise NotFound(no_store_yet(self.config.db_path, "nothing to back up"))
        with self.connection(create=False) as conn:
            return integrity.backup(conn, self.config.db_path, path)
