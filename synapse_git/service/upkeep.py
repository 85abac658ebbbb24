"""The store as a whole and its surroundings: hooks, team memory, check, import and
export, projects, client set-up, backup and the files the user names."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput, NotFound, no_store_yet
from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.store import (
    batches,
    database,
    integrity,
    memories,
    merging,
    output_file,
    transfer,
)
from synapse_git.textrules import utf8

# Client set-up, hooks and team memory are imported by the methods that use them:
# every command builds this class, few use them (docs/architecture.md, start-up).
if TYPE_CHECKING:
    from synapse_git.clients import mcp_config
    from synapse_git.clients import setup as client_setup
    from synapse_git.clients import status as client_status
    from synapse_git.git import hook_scripts
    from synapse_git.semantic.engine import EmbedReport
    from synapse_git.semantic.vectors import Coverage
    from synapse_git.team import sync as team_sync
from synapse_git.service.base import StoreAccess
from synapse_git.service.results import ProjectInfo


class Upkeep(StoreAccess):
    """Looking after the store, the repository's hooks and the files around them."""

    def install_hooks(
        self, scope: Scope, names: Sequence[str], bindir: str | None
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Install the plain git hooks into the repository's real hooks folder."""
        from synapse_git.git import hook_scripts
        from synapse_git.team import git_side

        folder = self._hooks_folder(scope)
        actions = hook_scripts.install(folder, names, bindir)
        assert scope.checkout is not None
        git_side.install_driver(scope.checkout, bindir)
        return folder, actions

    def uninstall_hooks(
        self, scope: Scope, names: Sequence[str]
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Remove Synapse's hooks and put back the hooks they chained."""
        from synapse_git.git import hook_scripts
        from synapse_git.team import git_side

        folder = self._hooks_folder(scope)
        actions = hook_scripts.uninstall(folder, names)
        assert scope.checkout is not None
        git_side.uninstall_driver(scope.checkout)
        return folder, actions

    def _hooks_folder(self, scope: Scope) -> Path:
        from synapse_git.git import git_command

        if scope.checkout is None:
            raise BadInput(f"{scope.note}: hooks need a repository with a work tree")
        return git_command.hooks_dir(scope.checkout)

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
        with self.connection() as conn, database.transaction(conn):
            return team_sync.sync(conn, project, root)

    def check(self, *, repair: bool = False) -> integrity.CheckReport:
        if not self._exists():
            # Nothing to check, and a check creates nothing.
            return integrity.CheckReport((), 0)
        if repair:
            with database.long_write(self.config.db_path), self.connection() as conn:
                integrity.repair(conn)
        with self.connection() as conn:
            return integrity.check(conn)

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

    def export(self) -> Iterator[str]:
        if not self._exists():
            return
        with self.connection() as conn:
            yield from transfer.export_lines(conn)

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

    def project_info(self, scope: Scope) -> ProjectInfo:
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
            moved = memories.rekey(conn, old_key, target.project, root)
            if not moved:
                raise NotFound(f"no memory belongs to project {old_key}")
        return moved, target.project

    def status(self, scope: Scope) -> client_status.Status:
        """Which store this folder's commands, hooks and MCP clients open; writes nothing."""
        from synapse_git.clients import status as client_status

        return client_status.gather(self.config, scope)

    def mcp_config(
        self, kind: str, scope: Scope, *, write: bool = False
    ) -> tuple[str, mcp_config.Written | None]:
        """Client `kind`'s configuration for this store, and with `write` where it was merged."""
        from synapse_git.clients import mcp_config

        entry = mcp_config.entry_for(self.config.data_dir)
        text = mcp_config.render(kind, entry)
        if not write:
            return text, None
        return text, mcp_config.write(kind, entry, scope.checkout or scope.folder)

    def setup_client(
        self,
        client: str,
        scope: Scope,
        where: str = "project",
        *,
        dry_run: bool = False,
        uninstall: bool = False,
    ) -> client_setup.Outcome:
        """Wire client `client`'s MCP server and hooks for this project in scope `where`
        (project, local or user), or with `uninstall` take them out again."""
        from synapse_git.clients import setup as client_setup
        from synapse_git.data_folder import data_dir_origin

        return client_setup.run(
            client,
            where,
            scope.checkout or scope.folder,
            self.config.data_dir,
            dry_run=dry_run,
            uninstall=uninstall,
            chosen_by=data_dir_origin(),
        )

    def backup(
        self, target: str | os.PathLike[str], *, force: bool = False
    ) -> integrity.BackupReport:
        """Write a consistent copy of the store to `target` (a new file, or any regular
        file but the store's own with `force`) while writers run."""
        path = self.output_target(target, force=force)
        if not self._exists():
            raise NotFound(no_store_yet(self.config.db_path, "nothing to back up"))
        with self.connection(create=False) as conn:
            return integrity.backup(conn, self.config.db_path, path)

    def output_target(self, target: str | os.PathLike[str], *, force: bool = False) -> Path:
        """`target` checked as a file a command may write: never the store or its
        companions, a folder, or an existing file unless `force`."""
        return output_file.checked_target(target, self.config.db_path, force=force)

    def write_lines(
        self, target: str | os.PathLike[str], lines: Iterable[str], *, force: bool = False
    ) -> tuple[Path, int]:
        """Write `lines` to `target` whole or not at all; returns the path and the count."""
        path = self.output_target(target, force=force)
        return path, output_file.write_lines(path, lines)

    def export_to(self, target: str | os.PathLike[str], *, force: bool = False) -> tuple[Path, int]:
        """Export every live memory to the file `target` (`memory export FILE`)."""
        path = self.output_target(target, force=force)
        return path, output_file.write_lines(path, self.export())
