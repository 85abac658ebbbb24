"""Memories in and out of the store as JSON Lines (docs/store.md): export, import,
a Markdown memory file's bullet points imported, and an import batch forgotten whole."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from synapse_git.errors import NotFound
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import batches, database, merging, output_file, transfer


class Transfer(StoreAccess):
    """Import and export, and the import batches that undo an import."""

    def export(self) -> Iterator[str]:
        if not self._exists():
            return
        with self.connection() as conn:
            yield from transfer.export_lines(conn)

    def export_to(self, target: str | os.PathLike[str], *, force: bool = False) -> tuple[Path, int]:
        """Export every live memory to the file `target` (`memory export FILE`)."""
        path = self.output_target(target, force=force)
        return path, output_file.write_lines(path, self.export())

    def import_lines(
        self, lines: Iterable[str], progress: Callable[[int], None] | None = None
    ) -> transfer.ImportReport:
        rest = iter(lines)
        # Lines up to the first that is not blank are read before the store is opened:
        # an empty import creates no store.
        head: list[str] = []
        for line in rest:
            head.append(line)
            if line.strip():
                break
        else:
            return transfer.ImportReport(0, 0, len(head))
        with database.long_write(self.config.db_path), self.connection() as conn:
            with database.transaction(conn):
                report = transfer.import_lines(conn, itertools.chain(head, rest), progress)
            # After the import is committed, so interrupting this loses none of it.
            if report.imported:
                merging.after_bulk_write(conn, report.imported)
            return report

    def import_memory_file(self, path: Path, scope: Scope) -> transfer.ImportReport:
        """Each bullet point of a Markdown memory file (CLAUDE.md, AGENTS.md) as a memory
        of `scope`'s project (global outside git), sourced FILE:LINE."""
        from synapse_git.clients import memory_files

        where = Path(os.path.abspath(path))
        label = str(path)
        if scope.checkout is not None and where.is_relative_to(scope.checkout):
            label = str(where.relative_to(scope.checkout))
        return self.import_lines(memory_files.as_lines(path, label, scope.project))

    def forget_import(self, batch: int) -> batches.Undone:
        """Forget every memory one import stored (`memory forget --import BATCH`)."""
        if not self._exists():
            raise NotFound(f"no import batch {batch}: there is no store yet")
        with self.connection() as conn:
            with database.transaction(conn):
                undone = batches.forget(conn, batch)
            # Forgetting leaves a deletion in the indexes for every row taken out.
            if undone.forgotten:
                merging.after_bulk_write(conn, undone.forgotten)
            return undone
