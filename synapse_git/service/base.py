"""The store as one data folder sees it: connections, and the helpers every part of
the service shares (drift about new memories, team-file upkeep, moved projects, the
files the user names for a command to write).

Each method that writes opens the store for that one operation and closes it,
so a long-lived caller (the MCP server) never holds a lock between calls;
recall and read share one connection kept open, which holds no lock either.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git import settings
from synapse_git.errors import BadInput, NotFound, StoreError
from synapse_git.git import project_scope, root_cache
from synapse_git.git.project_scope import Scope
from synapse_git.settings import Config
from synapse_git.store import (
    database,
    output_file,
    project_rows,
    read_counts,
)
from synapse_git.store.reader import Reader

# Team memory and drift are imported where they are used: reading and recall,
# which most commands are, load neither (docs/architecture.md, start-up).
if TYPE_CHECKING:
    from synapse_git.drift.conflict_candidates import TermLists
    from synapse_git.drift.findings import Report as DriftReport
    from synapse_git.recall.kept_rows import KeptRows
    from synapse_git.semantic.engine import Semantic
    from synapse_git.team import sync as team_sync


class StoreAccess:
    """The store as seen from one data folder."""

    def __init__(self, config: Config | None = None, *, long_lived: bool = False) -> None:
        self.config = config if config is not None else settings.load()
        # A long-lived caller (the MCP server) keeps its read connection open across
        # writes too, so that a write does not end in a checkpoint (Reader.hold).
        self.long_lived = long_lived
        self.reads = read_counts.ReadCounts(self.config.db_path)
        self._reader = Reader(self.config.db_path)
        self._semantic: Semantic | None = None
        # Drift's word look-ups about recall's hits, and the rows recall read, kept
        # while the store is unchanged (docs/recall.md#what-a-long-lived-service-keeps).
        self._kept_lists: TermLists | None = None
        self._kept_rows: KeptRows | None = None

    @contextmanager
    def connection(self, *, create: bool = True) -> Iterator[sqlite3.Connection]:
        path = self.config.db_path
        with closing(database.connect(path, create=create)) as conn:
            try:
                yield conn
            except sqlite3.Error as exc:
                # A damaged, read-only or full store is the user's to fix, not a crash.
                raise database.as_store_error(exc, path) from None
            except OverflowError:
                # SQLite holds 64-bit integers: a larger id, offset or limit matches nothing.
                raise BadInput("a number given is too large: at most 2**63 - 1") from None
            if self.long_lived:
                self._reader.keep_open()

    @staticmethod
    def store_error(exc: sqlite3.Error) -> StoreError:
        """What SQLite said, as an error the user can act on: for one that slipped past
        the translation every connection makes."""
        return database.as_store_error(exc, None)

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """A connection in one write transaction; the team files it changes are written
        only once it has committed (team/deferred.py), so a failure leaves both as
        they were."""
        from synapse_git.team import deferred

        with self.connection() as conn, deferred.after_commit(conn), database.transaction(conn):
            yield conn

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The kept connection for reads (recall, read): no open per call."""
        with self._reader.connection() as conn:
            yield conn

    def _kept(self, conn: sqlite3.Connection) -> KeptRows | None:
        """The rows earlier recalls read, for a recall through the kept connection
        (whose lock lets one caller in at a time), forgotten if the store changed."""
        if not self._reader.is_kept(conn):
            return None
        if self._kept_rows is None:
            from synapse_git.recall.kept_rows import KeptRows

            self._kept_rows = KeptRows()
        self._kept_rows.follow(conn)
        return self._kept_rows

    def scope(self, folder: str | os.PathLike[str] | None = None) -> Scope:
        return project_scope.resolve(folder)

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

    def _exists(self) -> bool:
        return self.config.db_path.exists()

    def _require_store(self, memory_id: int) -> None:
        """A change to a memory fails without creating the store when there is none."""
        if not self._exists():
            raise NotFound.memory(memory_id)

    @property
    def semantic(self) -> Semantic:
        """Semantic recall (docs/semantic.md), made on first use and kept, so that the
        MCP server recalls with a warm model and `synapse --help` imports none of it."""
        if self._semantic is None:
            from synapse_git.semantic.engine import Semantic

            self._semantic = Semantic(long_lived=self.long_lived)
        return self._semantic

    def _vector(self, body: str) -> bytes | None:
        """The vector to store with `body` when the semantic extra is installed."""
        return self.semantic.vector_of(body) if self.semantic.installed() else None

    def _drift_about(
        self, conn: sqlite3.Connection, scope: Scope, ids: Sequence[int], *, changed: bool = False
    ) -> list[dict[str, Any]]:
        """Drift about recall's hits (`changed` files too when asked: recall --explain).
        Through the kept read connection (recall), whose lock lets one caller in at a
        time, word look-ups are kept for the next call."""
        if not ids:
            return []
        from synapse_git.drift import findings
        from synapse_git.drift.conflict_candidates import TermLists

        kept = None
        if self._reader.is_kept(conn):
            if self._kept_lists is None:
                self._kept_lists = TermLists()
            kept = self._kept_lists
        kinds = findings.KINDS if changed else findings.RECALL_KINDS
        found = findings.about(
            conn,
            scope,
            ids,
            kinds=kinds,
            corrections_only=True,
            kept=kept,
            limits=self.config.drift,
            data_dir=self.config.data_dir,
        )
        return [finding.as_json() for finding in found]

    def _drift_of_new(
        self, conn: sqlite3.Connection, scope: Scope, new_id: int
    ) -> list[dict[str, Any]]:
        """What a just-stored memory contradicts or repeats."""
        from synapse_git.drift import findings

        found = findings.about(conn, scope, [new_id], kinds=("conflict", "duplicate"), quote=False)
        return [finding.as_json() for finding in found]

    def _follow(self, conn: sqlite3.Connection, scope: Scope, ids: Sequence[int]) -> None:
        from synapse_git.team import git_side
        from synapse_git.team import sync as team_sync

        root = scope.checkout
        team_sync.follow(
            conn, scope.project, root, ids, lambda: git_side.author(root) if root else ""
        )

    def _team_root(self, scope: Scope) -> tuple[str, Path]:
        if scope.project is None or scope.checkout is None:
            where = scope.note or str(scope.folder)
            raise BadInput(f"{where}: team memory needs a repository with a work tree")
        return scope.project, scope.checkout

    def _share(
        self, conn: sqlite3.Connection, scope: Scope, ids: Sequence[int], *, force: bool
    ) -> team_sync.ShareReport:
        from synapse_git.team import git_side
        from synapse_git.team import sync as team_sync

        project, root = self._team_root(scope)
        return team_sync.share(conn, project, root, ids, git_side.author(root), force=force)

    def _moved_from(self, conn: sqlite3.Connection, scope: Scope, own: dict[str, int]) -> list[str]:
        """Projects whose folder is gone but whose root commit is this repository's."""
        if scope.project is None or any(own.values()):
            return []
        gone = {
            key: root
            for key, root in project_rows.known_projects(conn).items()
            if root and key != scope.project and not Path(key).exists()
        }
        if not gone:
            return []
        root = root_cache.root_commit(self.config.data_dir, scope)
        return sorted(key for key, commit in gone.items() if commit == root)

    def _other_history(
        self, conn: sqlite3.Connection, scope: Scope, own: dict[str, int]
    ) -> tuple[str, str | None] | None:
        """(the root commit stored for this project, this repository's) when they differ:
        `rm -rf repo; git init repo` left the old project's memories at the same path."""
        if scope.project is None or not any(own.values()):
            return None
        stored = project_rows.stored_root(conn, scope.project)
        if stored is None:
            return None
        # Asked on every listing: kept for the HEAD it was found at (git/root_cache.py).
        current = root_cache.root_commit(self.config.data_dir, scope)
        return None if current == stored else (stored, current)

    def drift(
        self, scope: Scope, kinds: Sequence[str] | None = None, *, wait: bool = True
    ) -> DriftReport:
        """Every drift finding about what `scope` sees (docs/drift.md), of the chosen kinds.
        Without `wait` (hooks), a path history index not built yet is not waited for."""
        from synapse_git.drift import findings

        chosen = tuple(kinds) if kinds else findings.KINDS
        unknown = [kind for kind in chosen if kind not in findings.KINDS]
        if unknown:
            raise BadInput(
                f"unknown drift kind {', '.join(unknown)}: choose from {', '.join(findings.KINDS)}"
            )
        if not self._exists():
            return findings.Report(str(scope.folder), scope.project, 0, [])
        with self.connection() as conn:
            return self._drift_in(conn, scope, chosen, wait=wait)

    def _drift_in(
        self,
        conn: sqlite3.Connection,
        scope: Scope,
        kinds: Sequence[str] | None = None,
        *,
        wait: bool = True,
    ) -> DriftReport:
        from synapse_git.drift import findings

        chosen = findings.KINDS if kinds is None else kinds
        return findings.check(
            conn, scope, chosen, wait=wait, limits=self.config.drift, data_dir=self.config.data_dir
        )
