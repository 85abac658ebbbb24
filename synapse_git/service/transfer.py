"""Memories in and out of the store as JSON Lines (docs/store.md): export, import,
a Markdown memory file's bullet points imported, and an import batch forgotten whole."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput, NotFound
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import database, output_file

# What imports and exports use is imported by the methods: every command builds the
# service, and these modules' dataclasses cost a short command's start-up.
if TYPE_CHECKING:
    from synapse_git.answers import ImportOut
    from synapse_git.semantic.engine import EmbedReport
    from synapse_git.service.results import Imported
    from synapse_git.store import batches, transfer

# Said when an import is committed, before its vectors are computed.
Said = Callable[["ImportOut"], None]
# How far computing vectors has come: done, of total.
Progress = Callable[[int, int], None]


class Transfer(StoreAccess):
    """Import and export, and the import batches that undo an import."""

    if TYPE_CHECKING:
        # Maintenance's, which `Synapse` joins with this part (service/facade.py).
        def embed(self, progress: Progress | None = None) -> EmbedReport: ...

    def export(self) -> Iterator[str]:
        from synapse_git.store import transfer

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
        from synapse_git.store import merging, transfer

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

    def import_jsonl(
        self,
        lines: Iterable[str],
        *,
        progress: Callable[[int], None] | None = None,
        said: Said | None = None,
        embedding: Progress | None = None,
    ) -> Imported:
        """`memory import`: JSON Lines imported (`progress` told the lines read), then
        `said` told what was stored, then the vectors of what is new computed where
        semantic recall is installed (`embedding` told how far)."""
        report = self.import_lines(lines, progress)
        return self._then_embed(report, said, embedding)

    def import_notes(
        self,
        path: Path,
        kind: str,
        *,
        said: Said | None = None,
        embedding: Progress | None = None,
    ) -> Imported:
        """`memory import --from KIND`: a Markdown memory file's bullet points as memories
        of the project of the folder it is in, then their vectors, as `import_jsonl`."""
        from synapse_git.clients.memory_files import KINDS

        if kind not in KINDS:
            raise BadInput(f"unknown --from {kind!r}: choose one of {', '.join(KINDS)}")
        folder = path.parent if path.parent != Path("") else Path(".")
        report = self.import_memory_file(path, self.scope(folder))
        return self._then_embed(report, said, embedding)

    def _then_embed(
        self, report: transfer.ImportReport, said: Said | None, embedding: Progress | None
    ) -> Imported:
        from synapse_git.service.results import Imported

        if said is not None:
            said(report.as_json())
        embedded = None
        if report.imported and self.semantic.installed():
            # The import is committed; its vectors follow, resumable by `memory embed`.
            embedded = self.embed(embedding)
        return Imported(report, embedded)

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
        from synapse_git.store import batches, merging

        if not self._exists():
            raise NotFound(f"no import batch {batch}: there is no store yet")
        with self.connection() as conn:
            with database.transaction(conn):
                undone = batches.forget(conn, batch)
            # Forgetting leaves a deletion in the indexes for every row taken out.
            if undone.forgotten:
                merging.after_bulk_write(conn, undone.forgotten)
            return undone
