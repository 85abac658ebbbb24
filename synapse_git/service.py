"""Synapse: the one API every edge calls. Edges parse, call one method, render.

Each method that writes opens the store for that one operation and closes it,
so a long-lived caller (the MCP server) never holds a lock between calls;
recall and read share one connection kept open, which holds no lock either.
"""

from __future__ import annotations

import itertools
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git import settings
from synapse_git.clients import mcp_config
from synapse_git.clients import status as client_status
from synapse_git.errors import BadInput, NotFound
from synapse_git.git import git_command, project_move, project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.hooks import hook_scripts
from synapse_git.recall import evaluation, query_terms, ranking, response, rewordings
from synapse_git.recall.response import Recalled
from synapse_git.session import snapshots
from synapse_git.session.snapshots import Refresh, Snapshot
from synapse_git.settings import Config
from synapse_git.store import (
    batches,
    database,
    integrity,
    memories,
    output_file,
    pages,
    read_counts,
    readonly,
    transfer,
)
from synapse_git.store.memories import Memory, Version
from synapse_git.store.pages import Page
from synapse_git.store.reader import Reader
from synapse_git.team import git_side
from synapse_git.team import sync as team_sync
from synapse_git.textrules import check_body, check_source, cut_utf8, utf8

if TYPE_CHECKING:
    from synapse_git.answers import RememberOut, SupersedeOut
    from synapse_git.drift.findings import Report as DriftReport
    from synapse_git.semantic.engine import EmbedReport, Semantic
    from synapse_git.semantic.vectors import Coverage


@dataclass(frozen=True)
class Remembered:
    id: int
    project: str | None
    duplicate_of: int | None
    drift: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> RememberOut:
        return {
            "id": self.id,
            "project": self.project,
            "duplicate_of": self.duplicate_of,
            "drift": self.drift,
        }


@dataclass(frozen=True)
class Replaced:
    """A supersession: the old memory after it, and the memory that now says it."""

    old: Memory
    new: Remembered

    def as_json(self) -> SupersedeOut:
        return {**self.new.as_json(), "supersedes": self.old.id}


@dataclass(frozen=True)
class History:
    memory: Memory
    versions: list[Version]
    supersedes: list[int]
    chain: list[int]


@dataclass(frozen=True)
class Listing:
    project: str | None
    total: int
    memories: list[Memory]
    moved_from: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProjectInfo:
    scope: Scope
    counts: dict[str, int]
    global_counts: dict[str, int]
    moved_from: list[str]


def _live(memory: Memory) -> Memory:
    """`memory`, if it is live: only a live memory replaces or is replaced."""
    if not memory.live:
        raise BadInput(f"memory {memory.id} is {memory.state}; `restore {memory.id}` first")
    return memory


# More hits than any budget could show; a larger limit is a mistake, not a wish.
MAX_HITS = 10_000


def _may_replace(old: Memory, project: str | None) -> None:
    """Refuse a project memory replacing a global one: every project sees a global
    memory, and no project may change what another one sees (docs/store.md)."""
    if old.project is None and project is not None:
        raise BadInput(
            f"memory {old.id} is global and every project sees it: a project memory cannot"
            f" supersede it; supersede it with a global memory (--global), or edit it"
        )


class Synapse:
    """The memory store as seen from one data folder."""

    def __init__(self, config: Config | None = None) -> None:
        self.config = config if config is not None else settings.load()
        self.reads = read_counts.ReadCounts(self.config.db_path)
        self._reader = Reader(self.config.db_path)
        self._semantic: Semantic | None = None

    # -- plumbing -------------------------------------------------------------

    @contextmanager
    def connection(self, *, create: bool = True) -> Iterator[sqlite3.Connection]:
        path = self.config.db_path
        with closing(database.connect(path, create=create)) as conn:
            try:
                yield conn
            except sqlite3.Error as exc:
                # A damaged, read-only or full store is the user's to fix, not a crash.
                raise database.explain(exc, path) from None
            except OverflowError:
                # SQLite holds 64-bit integers: a larger id, offset or limit matches nothing.
                raise BadInput("a number given is too large: at most 2**63 - 1") from None

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """The kept connection for reads (recall, read): no open per call."""
        with self._reader.use() as conn:
            yield conn

    def scope(self, folder: str | os.PathLike[str] | None = None) -> Scope:
        return project_scope.resolve(folder)

    def _exists(self) -> bool:
        return self.config.db_path.exists()

    def _require_store(self, memory_id: int) -> None:
        """A change to a memory fails without creating the store when there is none."""
        if not self._exists():
            raise NotFound(f"no memory {memory_id} is visible from here")

    @property
    def semantic(self) -> Semantic:
        """Semantic recall (docs/semantic.md), made on first use and kept, so that the
        MCP server recalls with a warm model and `synapse --help` imports none of it."""
        if self._semantic is None:
            from synapse_git.semantic.engine import Semantic

            self._semantic = Semantic()
        return self._semantic

    # -- lifecycle (docs/store.md)

    def remember(
        self,
        body: str,
        scope: Scope,
        *,
        source: str = "",
        is_global: bool = False,
        supersedes: int | None = None,
        share: bool = False,
    ) -> Remembered:
        """Store a memory in the project of `scope` (or globally); an exact duplicate
        of a live memory in the same scope returns that memory instead. With `share`
        it also goes into the repository's team file (docs/team.md)."""
        check_body(body)
        check_source(source)
        if not is_global and scope.project is None:
            raise BadInput(f"{scope.note}: pass --global to remember globally")
        if share and (is_global or scope.checkout is None):
            raise BadInput("only project memories in a repository with a work tree are shared")
        project = None if is_global else scope.project
        head = project_scope.head(scope) if project is not None else project_scope.Head(None, None)
        vector = self._vector(body)
        with self.connection() as conn, database.transaction(conn):
            old = None
            if supersedes is not None:
                old = _live(memories.require(conn, supersedes, scope.projects))
                _may_replace(old, project)
            existing = memories.find_duplicate(conn, body, project)
            if existing is not None:
                if old is not None:
                    # The correction is already stored: it, not a copy, replaces the old one.
                    if existing == old.id:
                        raise BadInput(f"memory {old.id} already says exactly this")
                    memories.set_state(
                        conn, old, "superseded", existing, f"superseded by {existing}"
                    )
                    self._follow(conn, scope, [old.id, existing])
                if share:
                    self._share(conn, scope, [existing], force=False)
                return Remembered(existing, project, existing)
            if project is not None and not memories.root_known(conn, project):
                # Walking history to the root commit is paid once per project, not per memory.
                memories.note_project(conn, project, project_scope.root_commit(scope))
            new_id = memories.insert(
                conn, body, source, project, head_commit=head.commit, branch=head.branch
            )
            if vector is not None:
                self.semantic.store(conn, [(new_id, body, vector)])
            if old is not None:
                memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
            # Checked before the commit (and before the team file is touched): a damaged
            # index that fails this read rolls the write back, so "nothing was written"
            # is then the truth.
            drift = self._drift_of_new(conn, scope, new_id)
            if old is not None:
                self._follow(conn, scope, [old.id, new_id])
            if share:
                self._share(conn, scope, [new_id], force=False)
        return Remembered(new_id, project, None, drift)

    def edit(
        self, memory_id: int, scope: Scope, *, body: str | None = None, source: str | None = None
    ) -> Memory:
        if body is None and source is None:
            raise BadInput("nothing to change: give a new body or --source")
        if body is not None:
            check_body(body)
        if source is not None:
            check_source(source)
        self._require_store(memory_id)

        vector = None if body is None else self._vector(body)
        with self.connection() as conn, database.transaction(conn):
            old = memories.require(conn, memory_id, scope.projects)
            memories.update_text(
                conn,
                old,
                old.body if body is None else body,
                old.source if source is None else source,
            )
            if vector is not None and body is not None and body != old.body:
                self.semantic.store(conn, [(memory_id, body, vector)])
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def supersede(self, old_id: int, new_id: int, scope: Scope) -> Memory:
        """Mark memory `old_id` superseded by the existing memory `new_id`."""
        if old_id == new_id:
            raise BadInput("a memory cannot supersede itself")
        self._require_store(old_id)
        with self.connection() as conn, database.transaction(conn):
            old = _live(memories.require(conn, old_id, scope.projects))
            _may_replace(old, _live(memories.require(conn, new_id, scope.projects)).project)
            memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
            self._follow(conn, scope, [old_id, new_id])
            return memories.require(conn, old_id, scope.projects)

    def replace(
        self,
        old_id: int,
        scope: Scope,
        *,
        body: str | None = None,
        by: int | None = None,
        source: str = "",
        live_only: bool = False,
    ) -> Replaced:
        """Supersede `old_id` by a new memory holding `body` (stored in the old one's
        scope) or by the existing memory `by`. With `live_only` (an agent's view) a
        hidden memory is reported as not found rather than as superseded or forgotten."""
        if (body is None) == (by is None):
            raise BadInput("give either the corrected text or the id of a memory that replaces it")
        old = self._visible(old_id, scope, live_only=live_only)
        if body is not None:
            new = self.remember(
                body, scope, source=source, is_global=old.project is None, supersedes=old_id
            )
            return Replaced(self._visible(old_id, scope, live_only=False), new)
        assert by is not None
        self._visible(by, scope, live_only=live_only)
        after = self.supersede(old_id, by, scope)
        with self.connection() as conn:
            project = memories.require(conn, by, scope.projects).project
            drift = self._drift_about(conn, scope, [by])
        return Replaced(after, Remembered(by, project, None, drift))

    def _visible(self, memory_id: int, scope: Scope, *, live_only: bool) -> Memory:
        """The memory `memory_id` as `scope` sees it; hidden ones count as missing
        when `live_only`."""
        missing = NotFound(f"no memory {memory_id} is visible from here")
        if not self._exists():
            raise missing
        with self.connection() as conn:
            memory = memories.require(conn, memory_id, scope.projects)
        if live_only and not memory.live:
            raise missing
        return memory

    def forget(self, memory_id: int, scope: Scope, *, live_only: bool = False) -> Memory:
        """Hide a memory. With `live_only` (an agent's view) only a live memory can be
        forgotten: a hidden one is reported as not found."""
        self._visible(memory_id, scope, live_only=live_only)
        with self.connection() as conn, database.transaction(conn):
            old = memories.require(conn, memory_id, scope.projects)
            if old.state == "forgotten":
                return old
            memories.set_state(conn, old, "forgotten", None, "forgotten")
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def restore(self, memory_id: int, scope: Scope) -> Memory:
        self._require_store(memory_id)
        with self.connection() as conn, database.transaction(conn):
            old = memories.require(conn, memory_id, scope.projects)
            if old.live:
                return old
            memories.set_state(conn, old, "live", None, "restored")
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def history(self, memory_id: int, scope: Scope) -> History:
        if not self._exists():
            raise NotFound(f"no memory {memory_id} is visible from here")
        with self.connection() as conn:
            memory = memories.require(conn, memory_id, scope.projects)
            versions = memories.versions(conn, memory_id)
            # A global memory may have been replaced from inside a project: elsewhere,
            # that replacement's id is not shown.
            pointers = {memory.superseded_by} | {v.superseded_by for v in versions}
            pointers |= {memories.replaced_by(v) for v in versions}
            unseen = {
                other
                for other in pointers
                if other is not None
                and memories.get(conn, other, scope.projects, hidden=True) is None
            }
            if memory.superseded_by in unseen:
                memory = replace(memory, superseded_by=None)
            versions = [
                replace(
                    v,
                    superseded_by=None if v.superseded_by in unseen else v.superseded_by,
                    change="superseded" if memories.replaced_by(v) in unseen else v.change,
                )
                for v in versions
            ]
            return History(
                memory,
                versions,
                memories.superseded(conn, memory_id, scope.projects),
                memories.chain(conn, memory, scope.projects),
            )

    # -- reading (docs/recall.md) and listing

    def read(
        self,
        memory_id: int,
        scope: Scope,
        *,
        offset: int = 0,
        budget: str | None = None,
        project: str | None = None,
        check_project: bool = False,
        count: bool = False,
    ) -> Page | None:
        """One page of a live visible memory, or None (missing, hidden, out of scope);
        with `count`, reading a first page counts as the memory being recalled."""
        size = self.config.budget(budget).page_bytes
        if offset < 0:
            raise BadInput(f"offset {offset} is negative: offsets count bytes from 0")
        if not self._exists():
            return None
        with self.reading() as conn:
            page = pages.read_page(
                conn,
                memory_id,
                scope.projects,
                offset=offset,
                page_bytes=size,
                project=project,
                check_project=check_project,
            )
        if count and page is not None and offset == 0:
            self.reads.note(memory_id)
        return page

    def list_memories(
        self, scope: Scope, *, contains: str | None = None, limit: int | None = None
    ) -> Listing:
        if contains is not None:
            utf8(contains, "the filter")
        if not self._exists():
            return Listing(scope.project, 0, [])
        with self.connection() as conn:
            total, rows = memories.listing(conn, scope.projects, contains=contains, limit=limit)
            own = memories.counts(conn, scope.project) if scope.project else {}
            moved = self._moved_from(conn, scope, own)
        return Listing(scope.project, total, rows, moved)

    # -- recall (docs/recall.md): recall/ranking.py

    def recall(
        self,
        query: str,
        scope: Scope,
        *,
        budget: str | None = None,
        limit: int | None = None,
        explain: bool = False,
        alternatives: Sequence[str] = (),
    ) -> Recalled:
        """The visible memories that answer `query`, within the budget (docs/recall.md);
        `alternatives` are up to four rewordings of it, fused with it."""
        chosen = self.config.budget(budget)
        if limit is not None and limit < 1:
            raise BadInput(f"limit {limit} is not a positive number of hits")
        if limit is not None and limit > MAX_HITS:
            raise BadInput(f"limit {str(limit)[:40]} is too large: at most {MAX_HITS} hits")
        count = chosen.hits if limit is None else limit
        echo = cut_utf8(utf8(query, "query"), response.QUERY_ECHO_BYTES).decode("utf-8")
        for text in alternatives:
            utf8(text, "rewording")
        parsed = query_terms.parse(query)
        others = rewordings.parse(alternatives)
        if not self._exists():
            return Recalled(echo, scope.project, chosen.name, (), (), 0, 0, 0, 0)
        with self.reading() as conn:
            found, notice = self._search(conn, parsed, scope, count, others)
            # Drift about the hits reads through this connection rather than opening
            # a second one: opening a store costs more than the drift queries.
            return response.build(
                conn,
                found,
                budget=chosen,
                limit=count,
                project=scope.project,
                drift=lambda ids: self._drift_about(conn, scope, ids),
                explain=explain,
            ).with_semantic(notice)

    def _search(
        self,
        conn: sqlite3.Connection,
        parsed: query_terms.Query,
        scope: Scope,
        count: int,
        others: Sequence[query_terms.Query] = (),
    ) -> tuple[ranking.Search, str | None]:
        """The ranked candidates and, when semantic recall is wanted, whether it ran."""
        if parsed.empty and not others:
            return ranking.recent(conn, parsed, scope.projects, count), None
        queries = [parsed, *others] if not parsed.empty else list(others)
        depth = max(ranking.DEPTH, count)
        return self.semantic.search(
            conn,
            queries[0],
            scope.projects,
            lambda floor: rewordings.search(
                conn, queries, scope.projects, depth=depth, floor=floor
            ),
        )

    def _vector(self, body: str) -> bytes | None:
        """The vector to store with `body` when the semantic extra is installed."""
        return self.semantic.vector_of(body) if self.semantic.installed() else None

    def matching(self, query: str, scope: Scope) -> Listing:
        """Every visible memory that matches `query`, newest first (`memory list QUERY`)."""
        utf8(query, "the filter")
        if (count := query_terms.term_count(query)) > query_terms.MAX_TERMS:
            # Recall may shorten a long question; a filter that ignored words would list
            # memories that lack them.
            raise BadInput(
                f"the filter has {count} distinct words; at most {query_terms.MAX_TERMS} are used"
            )
        if not self._exists():
            return Listing(scope.project, 0, [])
        with self.connection() as conn:
            ids = ranking.matches(conn, query_terms.parse(query), scope.projects)
            rows = ranking.rows(conn, ids)
            own = memories.counts(conn, scope.project) if scope.project else {}
            moved = self._moved_from(conn, scope, own)
        return Listing(scope.project, len(rows), rows, moved)

    def evaluate(
        self, cases: Sequence[evaluation.Case], *, budget: str | None = None
    ) -> evaluation.Report:
        """Score `cases` against the store without writing to it (`memory eval`)."""
        chosen = self.config.budget(budget)
        if not self._exists():
            raise NotFound(f"no store at {self.config.db_path} yet: import memories first")
        with closing(database.connect_readonly(self.config.db_path)) as conn:
            return evaluation.run(
                conn,
                cases,
                chosen,
                self.scope,
                lambda c, q, s, n, o: self._search(c, q, s, n, o)[0],
            )

    # -- drift (docs/drift.md): drift/findings.py

    def drift_about(self, scope: Scope, ids: Sequence[int]) -> list[dict[str, Any]]:
        """Findings (docs/json.md) that involve any of `ids`, as recall lists them; a newer
        memory contradicting one of them is quoted (abridged) under `quote`."""
        if not ids or not self._exists():
            return []
        with self.connection() as conn:
            return self._drift_about(conn, scope, ids)

    def _drift_about(
        self, conn: sqlite3.Connection, scope: Scope, ids: Sequence[int]
    ) -> list[dict[str, Any]]:
        if not ids:
            return []
        from synapse_git.drift import findings

        return [
            finding.as_json() for finding in findings.about(conn, scope, ids, corrections_only=True)
        ]

    def drift(self, scope: Scope, kinds: Sequence[str] | None = None) -> DriftReport:
        """Every drift finding about what `scope` sees (docs/drift.md), of the chosen kinds."""
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
            return findings.check(conn, scope, chosen)

    def _drift_of_new(
        self, conn: sqlite3.Connection, scope: Scope, new_id: int
    ) -> list[dict[str, Any]]:
        """What a just-stored memory contradicts or repeats."""
        from synapse_git.drift import findings

        found = findings.about(conn, scope, [new_id], kinds=("conflict", "duplicate"), quote=False)
        return [finding.as_json() for finding in found]

    # -- sessions and hooks (docs/hooks.md): session/snapshots.py

    def session_snapshot(self, scope: Scope) -> Snapshot:
        """Recompute what a session starting in `scope` is told, and keep it as the
        checkout's snapshot (in the data folder, never in the repository)."""
        key = str(scope.checkout or scope.folder)
        head = project_scope.head(scope).commit if scope.project is not None else None
        if not self._exists():
            return snapshots.nothing(key, scope.project, head)
        with self.connection() as conn:
            rows = snapshots.visible_rows(conn, scope.projects)
            version = readonly.store_version(conn)
        findings = [finding.as_json() for finding in self.drift(scope).findings]
        snapshot = snapshots.build(
            checkout=key,
            project=scope.project,
            head=head,
            store_version=version,
            rows=rows,
            findings=findings,
        )
        snapshots.write_snapshot(self.config.data_dir, snapshot)
        return snapshot

    def refresh_checkout(self, scope: Scope) -> Refresh | None:
        """After a branch switch: recompute the snapshot and say what changed since
        the last one (None when there is no store yet)."""
        if not self._exists():
            return None
        before = snapshots.read_snapshot(self.config.data_dir, str(scope.checkout or scope.folder))
        return snapshots.compare(before, self.session_snapshot(scope))

    def install_hooks(
        self, scope: Scope, names: Sequence[str], bindir: str | None
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Install the plain git hooks into the repository's real hooks folder."""
        folder = self._hooks_folder(scope)
        actions = hook_scripts.install(folder, names, bindir)
        assert scope.checkout is not None
        git_side.install_driver(scope.checkout, bindir)
        return folder, actions

    def uninstall_hooks(
        self, scope: Scope, names: Sequence[str]
    ) -> tuple[Path, list[hook_scripts.Action]]:
        """Remove Synapse's hooks and put back the hooks they chained."""
        folder = self._hooks_folder(scope)
        actions = hook_scripts.uninstall(folder, names)
        assert scope.checkout is not None
        git_side.uninstall_driver(scope.checkout)
        return folder, actions

    def _hooks_folder(self, scope: Scope) -> Path:
        if scope.checkout is None:
            raise BadInput(f"{scope.note}: hooks need a repository with a work tree")
        return git_command.hooks_dir(scope.checkout)

    # -- team memory (docs/team.md): team/

    def _follow(self, conn: sqlite3.Connection, scope: Scope, ids: Sequence[int]) -> None:
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
        project, root = self._team_root(scope)
        return team_sync.share(conn, project, root, ids, git_side.author(root), force=force)

    def share(
        self, ids: Sequence[int], scope: Scope, *, force: bool = False
    ) -> team_sync.ShareReport:
        """Share project memories through the repository's tracked team file."""
        self._team_root(scope)
        with self.connection() as conn, database.transaction(conn):
            return self._share(conn, scope, ids, force=force)

    def unshare(self, ids: Sequence[int], scope: Scope) -> list[int]:
        """Take memories out of the team file (they stay in this store)."""
        project, root = self._team_root(scope)
        with self.connection() as conn, database.transaction(conn):
            return team_sync.unshare(conn, project, root, ids)

    def sync_team(self, scope: Scope) -> team_sync.SyncReport:
        """Bring the team file's changes into this store (idempotent)."""
        project, root = self._team_root(scope)
        with self.connection() as conn, database.transaction(conn):
            return team_sync.sync(conn, project, root)

    # -- the store as a whole ---------------------------------------------------------

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
        with (
            database.long_write(self.config.db_path),
            self.connection() as conn,
            database.transaction(conn),
        ):
            return transfer.import_lines(conn, itertools.chain(head, rest), progress)

    def forget_import(self, batch: int) -> batches.Undone:
        """Forget every memory one import stored (`memory forget --import BATCH`)."""
        if not self._exists():
            raise NotFound(f"no import batch {batch}: there is no store yet")
        with self.connection() as conn, database.transaction(conn):
            return batches.forget(conn, batch)

    # -- projects (docs/store.md)

    def project_info(self, scope: Scope) -> ProjectInfo:
        zero = {"live": 0, "superseded": 0, "forgotten": 0}
        if not self._exists():
            return ProjectInfo(scope, dict(zero), dict(zero), [])
        with self.connection() as conn:
            own = memories.counts(conn, scope.project) if scope.project else dict(zero)
            return ProjectInfo(
                scope, own, memories.counts(conn, None), self._moved_from(conn, scope, own)
            )

    def _moved_from(self, conn: sqlite3.Connection, scope: Scope, own: dict[str, int]) -> list[str]:
        """Projects whose folder is gone but whose root commit is this repository's."""
        if scope.project is None or any(own.values()):
            return []
        gone = {
            key: root
            for key, root in memories.known_projects(conn).items()
            if root and key != scope.project and not Path(key).exists()
        }
        if not gone:
            return []
        root = project_scope.root_commit(scope)
        return sorted(key for key, commit in gone.items() if commit == root)

    def move_project(self, old: str, new: str) -> tuple[int, str]:
        """Re-key every memory of project `old` (a moved repository) to `new`'s project;
        returns how many moved and the new key."""
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

    # -- set-up (docs/mcp.md): clients/

    def status(self, scope: Scope) -> client_status.Status:
        """Which store this folder's commands, hooks and MCP clients open; writes nothing."""
        return client_status.gather(self.config, scope)

    def mcp_config(
        self, kind: str, scope: Scope, *, write: bool = False
    ) -> tuple[str, mcp_config.Written | None]:
        """Client `kind`'s configuration for this store, and with `write` where it was merged."""
        entry = mcp_config.entry_for(self.config.data_dir)
        text = mcp_config.render(kind, entry)
        if not write:
            return text, None
        return text, mcp_config.write(kind, entry, scope.checkout or scope.folder)

    # -- backup --------------------------------------------------------------------------

    def backup(
        self, target: str | os.PathLike[str], *, force: bool = False
    ) -> integrity.BackupReport:
        """Write a consistent copy of the store to `target` (a new file, or any regular
        file but the store's own with `force`) while writers run."""
        path = self.output_target(target, force=force)
        if not self._exists():
            raise NotFound(f"no store at {self.config.db_path} yet: nothing to back up")
        with self.connection(create=False) as conn:
            return integrity.backup(conn, self.config.db_path, path)

    # -- files the user names (docs/store.md): store/output_file.py

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
