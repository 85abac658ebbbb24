"""Reading, listing, recall, evaluation and drift about hits (docs/recall.md,
docs/drift.md)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Sequence
from contextlib import closing, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git.errors import BadInput, NotFound, no_store_yet
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import (
    database,
    listing_filter,
    memories,
    output_file,
    project_rows,
)
from synapse_git.store.listing_filter import EVERYTHING, ListFilter
from synapse_git.textrules import cut_utf8, utf8

# Each command's own modules are imported by its method: every command builds the
# service, and the dataclasses of the others would cost its start-up.
if TYPE_CHECKING:
    from synapse_git.recall import evaluation, query_terms, ranking
    from synapse_git.recall.kept_rows import KeptRows
    from synapse_git.recall.response import Recalled
    from synapse_git.service.results import EvalRun, Listing
    from synapse_git.store.pages import Page

# More hits than any budget could show; a larger limit is a mistake, not a wish.
MAX_HITS = 10_000


class Queries(StoreAccess):
    """What the store answers; nothing here changes a memory."""

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
        required: bool = False,
    ) -> Page | None:
        """One page of a live visible memory, or None (missing, hidden, out of scope);
        with `required`, NotFound saying which instead of None. With `count`, reading a
        first page counts as the memory being recalled."""
        from synapse_git.store import pages

        size = self.config.budget(budget).page_bytes
        if offset < 0:
            raise BadInput(f"offset {offset} is negative: offsets count bytes from 0")
        if not self._exists():
            if required:
                raise NotFound.memory(memory_id)
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
            if page is None and required:
                raise NotFound(memories.not_readable(conn, memory_id, scope.projects))
        if count and page is not None and offset == 0:
            self.reads.note(memory_id)
            if not self.long_lived:
                # A command's process ends with this read: nothing later would write it.
                self.reads.flush()
        return page

    def list_memories(
        self,
        scope: Scope,
        *,
        contains: str | None = None,
        limit: int | None = None,
        offset: int = 0,
        narrow: ListFilter = EVERYTHING,
    ) -> Listing:
        from synapse_git.service.results import Listing

        if contains is not None:
            utf8(contains, "the filter")
        if not self._exists():
            return Listing(scope.project, 0, [])
        with self.connection() as conn:
            total, rows = memories.listing(
                conn, scope.projects, contains=contains, limit=limit, offset=offset, narrow=narrow
            )
            own = memories.counts(conn, scope.project) if scope.project else {}
            moved = self._moved_from(conn, scope, own)
            other = self._other_history(conn, scope, own)
            elsewhere = self._elsewhere(conn, scope, rows)
        return Listing(scope.project, total, rows, moved, other, elsewhere)

    def _elsewhere(
        self, conn: sqlite3.Connection, scope: Scope, rows: Sequence[memories.Memory]
    ) -> dict[int, str | None]:
        """Which of `rows` were written on another line of work (docs/branches.md)."""
        live = [row for row in rows if row.live]
        if scope.project is None or all(row.project != scope.project for row in live):
            # Only this project's memories can be another branch's: the drift rules
            # are not loaded for a listing of global memories or another project's.
            return {}
        from synapse_git.drift.paths import find_paths

        # Only a memory naming a path can be another line's: the rest of the drift
        # rules are loaded when one does.
        named = {row.body: find_paths(row.body) for row in live if row.project == scope.project}
        if not any(named.values()):
            return {}
        from synapse_git.drift import findings

        found = findings.branch_findings(conn, scope, live, self.config.data_dir, named.__getitem__)
        return {finding.ids[0]: finding.branch for finding in found}

    def recall(
        self,
        query: str,
        scope: Scope,
        *,
        budget: str | None = None,
        limit: int | None = None,
        explain: bool = False,
        alternatives: Sequence[str] = (),
        at: str | None = None,
    ) -> Recalled:
        """The visible memories that answer `query`, within the budget (docs/recall.md);
        `alternatives` are up to four rewordings of it, fused with it. With `at`, only
        the memories visible at that revision, and no drift about them: drift speaks
        of the checkout as it is now (docs/branches.md)."""
        # Here, not at the top: reading and listing need none of recall's modules.
        from synapse_git.recall import query_terms, response, rewordings
        from synapse_git.recall.response import Recalled

        chosen = self.config.budget(budget)
        if limit is not None and limit < 1:
            raise BadInput(f"limit {limit} is not a positive number of hits")
        if limit is not None and limit > MAX_HITS:
            raise BadInput(f"limit {str(limit)[:40]} is too large: at most {MAX_HITS} hits")
        count = chosen.hits if limit is None else limit
        echo = cut_utf8(_within(query, "query"), response.QUERY_ECHO_BYTES).decode("utf-8")
        for text in alternatives:
            _within(text, "rewording")
        parsed = query_terms.parse(query)
        others = rewordings.parse(alternatives)
        if not self._exists():
            return Recalled(echo, scope.project, chosen.name, (), (), 0, 0, 0, 0)
        with self.reading() as conn:
            hidden: set[int] = set()
            if at is not None:
                from synapse_git.recall import as_of

                hidden, _ = as_of.hidden_at(conn, scope.projects, scope.checkout, at)
            # Those hidden at the revision are ranked too, then dropped: asked for as
            # many more, the hits that remain are the ones a search among the visible
            # would give.
            deeper = min(MAX_HITS, count + len(hidden))
            rows_kept = self._kept(conn)
            found, notice = self._search(conn, parsed, scope, deeper, others, rows_kept)
            if hidden:
                kept = tuple(c for c in found.candidates if c.id not in hidden)
                found = dataclasses.replace(
                    found, candidates=kept, searched=max(0, found.searched - len(hidden))
                )
            # Drift about the hits reads through this connection rather than opening
            # a second one: opening a store costs more than the drift queries.
            return response.build(
                conn,
                found,
                budget=chosen,
                limit=count,
                project=scope.project,
                drift=(
                    (lambda ids: self._drift_about(conn, scope, ids, changed=explain))
                    if at is None
                    else (lambda ids: [])
                ),
                explain=explain,
                # An explicit limit at the full budget asks for depth: up to `limit`
                # hits, the weak ones and those below the floor marked weak.
                deep=limit is not None and chosen.name == "full",
                kept=rows_kept,
            ).with_semantic(notice)

    def _search(
        self,
        conn: sqlite3.Connection,
        parsed: query_terms.Query,
        scope: Scope,
        count: int,
        others: Sequence[query_terms.Query] = (),
        kept: KeptRows | None = None,
    ) -> tuple[ranking.Search, str | None]:
        """The ranked candidates and, when semantic recall is wanted, whether it ran."""
        from synapse_git.recall import ranking, rewordings

        if parsed.empty and not others:
            return ranking.recent(conn, parsed, scope.projects, count), None
        queries = [parsed, *others] if not parsed.empty else list(others)
        depth = max(ranking.DEPTH, count)

        def lexical(floor: bool) -> ranking.Search:
            return rewordings.search(
                conn, queries, scope.projects, depth=depth, floor=floor, kept=kept
            )

        if self._semantic is None:
            # A store without vectors is ranked lexically: a command need not load
            # the engine to be told so (the server's kept engine answers the same).
            from synapse_git.semantic import probe

            without, notice = probe.lexical(conn)
            if without:
                return lexical(True), notice
        return self.semantic.search(conn, queries, scope.projects, lexical)

    def matching(self, query: str, scope: Scope, narrow: ListFilter = EVERYTHING) -> Listing:
        """Every visible memory that matches `query`, newest first (`memory list QUERY`)."""
        from synapse_git.recall import query_terms, ranking
        from synapse_git.service.results import Listing

        utf8(query, "the filter")
        if not narrow.live_only:
            # The word indexes hold live memories only: other states are searched as text.
            return self.list_memories(scope, contains=query, narrow=narrow)
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
            rows = ranking.rows(conn, memories.kept(conn, ids, narrow))
            own = memories.counts(conn, scope.project) if scope.project else {}
            moved = self._moved_from(conn, scope, own)
            elsewhere = self._elsewhere(conn, scope, rows)
        return Listing(scope.project, len(rows), rows, moved, None, elsewhere)

    def listing(
        self,
        scope: Scope,
        query: str | None = None,
        *,
        limit: int | None = None,
        scope_name: str | None = None,
        source: str | None = None,
        author: str | None = None,
        since: str | None = None,
        state: str | None = None,
    ) -> Listing:
        """`memory list`: the visible memories newest first, at most `limit` (default
        50), or with `query` every one that matches it; narrowed by the filters a user
        typed (a scope name, text of the source or team author, a date or an age, a
        state), which are checked first."""
        narrow = listing_filter.make(
            scope=scope_name, source=source, author=author, since=since, state=state
        )
        if query:
            found = self.matching(query, scope, narrow)
            if limit is not None:
                found = dataclasses.replace(found, memories=found.memories[:limit])
        else:
            found = self.list_memories(scope, limit=50 if limit is None else limit, narrow=narrow)
        return dataclasses.replace(found, filtered=not narrow.empty)

    def evaluate(
        self, cases: Sequence[evaluation.Case], *, budget: str | None = None
    ) -> evaluation.Report:
        """Score `cases` against the store without writing to it (`memory eval`)."""
        from synapse_git.recall import evaluation

        chosen = self.config.budget(budget)
        if not self._exists():
            raise NotFound(no_store_yet(self.config.db_path, "import memories first"))
        with closing(database.connect_readonly(self.config.db_path)) as conn:
            return evaluation.run(
                conn,
                cases,
                chosen,
                self.scope,
                lambda c, q, s, n, o: self._search(c, q, s, n, o)[0],
            )

    def eval_cases(
        self,
        cases: Path,
        *,
        budget: str | None = None,
        baseline: Path | None = None,
        write_baseline: Path | None = None,
        force: bool = False,
    ) -> EvalRun:
        """`memory eval`: score the cases of a CASES.toml file, on the store it names
        (in a temporary store) or on this one; compare with a baseline, write one."""
        from synapse_git.recall import evaluation
        from synapse_git.service.results import EvalRun

        target = None
        if write_baseline is not None:
            # Refused before the run, so a bad target costs nothing.
            target = output_file.checked_target(write_baseline, self.config.db_path, force=force)
        suite = evaluation.load_suite(cases)
        expected = evaluation.read_baseline(baseline) if baseline is not None else None
        sample = None
        if suite.store is None:
            report = self.evaluate(suite.cases, budget=budget)
        else:
            from synapse_git.service import demo

            imported, report = demo.evaluate(suite.cases, suite.store, budget=budget)
            sample = (suite.store, imported)
        if target is not None:
            text = json.dumps(evaluation.baseline_json(report), indent=2)
            output_file.write_lines(target, [text])
        worse = [] if expected is None else evaluation.regressions(report, expected)
        return EvalRun(report, sample, target, worse)

    def list_filter(
        self,
        *,
        scope: str | None = None,
        source: str | None = None,
        author: str | None = None,
        since: str | None = None,
        state: str | None = None,
    ) -> ListFilter:
        """What a listing may be narrowed to, from what a user typed (`memory list`'s
        options); a value that cannot be read is refused."""
        return listing_filter.make(
            scope=scope, source=source, author=author, since=since, state=state
        )

    def projects(self) -> list[str]:
        """The keys of the projects this store holds memories of, in order."""
        if not self._exists():
            return []
        with self.connection(create=False) as conn:
            return sorted(project_rows.known_projects(conn))

    def project_scope(self, key: str) -> Scope:
        """What a command run in project `key`'s folder sees; when that folder is gone
        or is now another repository, that project's memories and global ones alone."""
        if key not in self.projects():
            raise BadInput(f"no project {key[:200]!r} holds memories in this store")
        with suppress(BadInput):
            found = self.scope(key)
            if found.project == key:
                return found
        return Scope(Path(key), key, None, None, None, f"{key}: no repository there now")

    def drift_about(self, scope: Scope, ids: Sequence[int]) -> list[dict[str, Any]]:
        """Findings (docs/json.md) that involve any of `ids`, as recall lists them; a newer
        memory contradicting one of them is quoted (abridged) under `quote`."""
        if not ids or not self._exists():
            return []
        with self.connection() as conn:
            return self._drift_about(conn, scope, ids)


def _within(text: str, what: str) -> bytes:
    """`text` as UTF-8, refused past what recall takes of a question (before any of it
    is cut into words: that is where a long one spent its time)."""
    from synapse_git.recall.query_terms import MAX_QUERY_BYTES

    encoded = utf8(text, what)
    if len(encoded) > MAX_QUERY_BYTES:
        raise BadInput(
            f"the {what} is {len(encoded):,} bytes; recall takes at most {MAX_QUERY_BYTES:,}:"
            " ask in fewer words"
        )
    return encoded
