"""Conflict candidates for a few memories, found through the porter FTS index
(recall's hits, a new memory), so the store is never loaded or compared pairwise."""

from __future__ import annotations

import heapq
import re
import sqlite3
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from synapse_git.drift import conflict_words, conflicts
from synapse_git.drift.alternatives import other_tools
from synapse_git.drift.note_text import claims
from synapse_git.drift.paths import REMEMBERED_BODIES, REMEMBERED_CHARS
from synapse_git.git.project_scope import Scope
from synapse_git.store import fts, memories
from synapse_git.store.memories import Memory
from synapse_git.store.reader import KeptWhileUnchanged

CANDIDATES = 4  # conflict candidates fetched per memory
FTS_TERMS = 4  # words of a memory looked up to find its candidates
# …and at most this many tools doing a job a tool it names does (`black` for `ruff`):
# a correction naming another tool shares few words besides the job's.
TOOL_TERMS = 6
RARE_SHARE = 0.01  # a word in more memories than this does not make candidates
# …nor one in more than this many, whatever the store's size: each looked-up word's
# list is read whole, so this bounds what the drift of a recall or a remember costs.
RARE_MOST = 100
SHORT_PROBES = 48  # memories sharing one word, checked for being short themselves
SHORT_BODY = 160  # characters: a longer body rarely holds only two looked-up words
KEPT_WORDS = 4096  # words whose lists TermLists keeps between recalls, at most
KEPT_MEMORIES = 1024  # memories whose candidates it keeps, at most
# A candidate is compared by its opening characters, as drift reads every body.
WINDOW = memories.DRIFT_OPENING

_WORD = re.compile(r"[^\W\d_][\w-]+")


def _fts_terms(body: str, limit: int = 10) -> list[str]:
    """The `limit` longest distinct words of `body`, first seen first among equals:
    one pass and a bounded heap, so a body of a million words costs no more than
    reading it once."""
    seen: dict[str, int] = {}
    # Front matter keys and markup (`description`, `type: project`) are no claim.
    for word in _WORD.findall(claims(body).lower()):
        if (
            word not in seen
            and word not in conflict_words.STOP
            and word not in conflict_words.NEGATORS
        ):
            seen[word] = len(seen)
    return heapq.nsmallest(limit, seen, key=lambda word: (-len(word), seen[word]))


def _terms(body: str) -> tuple[str, ...]:
    """The words of `body` looked up for its candidates: its FTS_TERMS longest, then
    up to TOOL_TERMS tools doing the job of a tool it names. A short body's are
    remembered, as recall asks them of the same hits call after call."""
    return _terms_remembered(body) if len(body) <= REMEMBERED_CHARS else _terms_of(body)


@lru_cache(maxsize=REMEMBERED_BODIES)
def _terms_remembered(body: str) -> tuple[str, ...]:
    return _terms_of(body)


def _terms_of(body: str) -> tuple[str, ...]:
    return (
        *_fts_terms(body, FTS_TERMS),
        *other_tools(conflicts.parse(body).tools, TOOL_TERMS),
    )


class TermLists(KeptWhileUnchanged):
    """Each word's list of newer ids from earlier recalls, kept while the store is
    unchanged (docs/drift.md#how-the-work-is-bounded): a long-lived caller asks about
    the same uncommon and common words again and again, and each look-up costs a seek
    in every segment of the index. A word with more than `common` ids after a floor
    has as many after any lower floor; a word's whole list after a floor holds its
    list after any higher one; anything else is looked up again.

    With them are kept, on the same terms, what was made of them: each memory's
    ranked candidates (`Candidates._ranked`, by memory and floor) and whether a
    memory is short enough to be a candidate on one shared word."""

    def __init__(self) -> None:
        super().__init__()
        self._found: dict[str, tuple[int, int, list[int] | None]] = {}
        self.plans: dict[tuple[int, int, bool], tuple[list[int], list[int]]] = {}
        self.short: dict[int, bool] = {}
        # What the store decides about a set of hits (findings.about): their rows,
        # conflicts and duplicates.
        self.found_about: dict[Hashable, Any] = {}

    def forget(self) -> None:
        self._found, self.plans, self.short, self.found_about = {}, {}, {}, {}

    def keep_about(self, key: Hashable, found: Any) -> None:
        if len(self.found_about) >= KEPT_MEMORIES:
            self.found_about = {}
        self.found_about[key] = found

    def follow(self, conn: sqlite3.Connection) -> None:
        """Forget everything when `conn` is another connection or, since the last
        call, another connection committed a change (SQLite's data_version)."""
        super().follow(conn)
        # A long session of many memories: start again, bounded.
        if len(self.plans) >= KEPT_MEMORIES:
            self.plans = {}
        if len(self.short) >= KEPT_MEMORIES * SHORT_PROBES:
            self.short = {}

    def get(self, term: str, floor: int, common: int) -> tuple[bool, list[int] | None]:
        """Whether `term`'s ids after `floor` are known, and they (None: more than
        `common`)."""
        kept = self._found.get(term)
        if kept is None or kept[1] != common:
            return False, None
        kept_floor, _, ids = kept
        if ids is None:
            return floor <= kept_floor, None
        if floor < kept_floor:
            return False, None
        return True, [i for i in ids if i > floor]

    def put(self, term: str, floor: int, common: int, ids: list[int] | None) -> None:
        if len(self._found) >= KEPT_WORDS:
            self._found = {}  # a long session of many words: start again, bounded
        self._found[term] = (floor, common, ids)


class Candidates:
    """Conflict candidates through the porter FTS index, for a few memories at a
    time. Each uncommon word's document list is read once (no ranking, which would
    score every match); a memory sharing enough of them is a candidate."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        scope: Scope,
        *,
        newer_only: bool = False,
        kept: TermLists | None = None,
    ) -> None:
        self.conn = conn
        self.scope = scope
        # Recall only needs the corrections of its hits: memories stored after them.
        # That bound lets FTS5 skip most of each word's document list.
        self.newer_only = newer_only
        self._floor = 0
        # The highest id bounds the store's size without counting it.
        total = int(conn.execute("SELECT coalesce(max(id), 0) FROM memories").fetchone()[0])
        self.common = min(RARE_MOST, max(50, int(total * RARE_SHARE)))
        self._lists: dict[str, list[int]] = {}
        self._kept = kept
        if kept is not None:
            kept.follow(conn)

    def _rows_with(self, term: str) -> list[int]:
        """Ids of live memories holding `term`; empty for a common term."""
        if term not in self._lists:
            known, ids = (False, None)
            if self._kept is not None:
                known, ids = self._kept.get(term, self._floor, self.common)
            if not known:
                rows = self.conn.execute(
                    "SELECT rowid FROM memory WHERE memory MATCH ? AND rowid > ? LIMIT ?",
                    (fts.quote(term), self._floor, self.common + 1),
                ).fetchall()
                ids = None if len(rows) > self.common else [int(row[0]) for row in rows]
                if self._kept is not None:
                    self._kept.put(term, self._floor, self.common, ids)
            self._lists[term] = ids or []
        return self._lists[term]

    def _ranked(self, memory: Memory) -> tuple[list[int], list[int]]:
        """Ids sharing enough uncommon words with `memory` (most shared, then newest,
        first), and ids sharing only one, which qualify if their body is that short."""
        key = (memory.id, self._floor, self.newer_only)
        if self._kept is not None and (plan := self._kept.plans.get(key)) is not None:
            return plan
        plan = self._plan(memory)
        if self._kept is not None:
            self._kept.plans[key] = plan
        return plan

    def _plan(self, memory: Memory) -> tuple[list[int], list[int]]:
        terms = _terms(memory.body)
        shared: Counter[int] = Counter()
        floor = memory.id if self.newer_only else 0
        for term in terms:
            shared.update(i for i in self._rows_with(term) if i > floor)
        shared.pop(memory.id, None)
        # One word substituted leaves the rest shared, and two shared words are
        # enough; a single shared word suffices only when either memory is that short.
        needed = max(1, min(2, len(terms) - 1))
        # Most shared, then newest, first. Only the few sharing enough are sorted;
        # the rest (thousands in a large store) are only needed when those are few.
        enough = sorted(((n, other) for other, n in shared.items() if n >= needed), reverse=True)
        chosen = [other for _, other in enough[:CANDIDATES]]
        if len(chosen) >= CANDIDATES:
            return chosen, []
        # needed is at most 2, so the rest share exactly one word: newest first.
        probes = heapq.nlargest(SHORT_PROBES, (other for other, n in shared.items() if n < needed))
        return chosen, probes

    def many(self, rows: Sequence[Memory]) -> dict[int, list[Memory]]:
        """For each of `rows`, its visible live candidates, best first; two queries
        in all, whatever the number of rows."""
        if self.newer_only and rows:
            self._floor = min(memory.id for memory in rows)
        plans = {memory.id: self._ranked(memory) for memory in rows}
        short = self._short(sorted({i for _, probes in plans.values() for i in probes}))
        chosen = {
            memory_id: (ids + [i for i in probes if i in short])[:CANDIDATES]
            for memory_id, (ids, probes) in plans.items()
        }
        found = self._rows(sorted({i for ids in chosen.values() for i in ids}))
        return {
            memory_id: [found[i] for i in ids if i in found] for memory_id, ids in chosen.items()
        }

    def _short(self, ids: list[int]) -> set[int]:
        """Of `ids`, those whose own body has at most two looked-up words."""
        known = self._kept.short if self._kept is not None else {}
        asked = [i for i in ids if i not in known]
        found: set[int] = set()
        if asked:
            marks = ", ".join("?" for _ in asked)
            # Two words fit in a short body: SQLite drops the long ones before Python looks.
            rows = self.conn.execute(
                f"SELECT id, body FROM memories WHERE id IN ({marks}) AND length(body) <= ?",
                [*asked, SHORT_BODY],
            )
            found = {int(i) for i, body in rows if len(_fts_terms(str(body), FTS_TERMS)) <= 2}
            if self._kept is not None:
                known.update((i, i in found) for i in asked)
        return found | {i for i in ids if known.get(i)}

    def _rows(self, ids: list[int]) -> dict[int, Memory]:
        if not ids:
            return {}
        where, scoped = memories.in_scope_sql(self.scope.projects)
        marks = ", ".join("?" for _ in ids)
        params: list[object] = [*ids, *scoped]
        return {
            int(row[0]): Memory(*row)
            for row in self.conn.execute(
                f"SELECT {memories.opening_columns(WINDOW)} FROM memories WHERE id IN ({marks})"
                f" AND state = 'live'"
                f" AND {where}",
                params,
            )
        }
