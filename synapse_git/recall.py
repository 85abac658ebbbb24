"""Recall (§5 steps 1-4): two rankings of the query, fused, then the relevance floor.

Both FTS5 indexes hold only live memories; each ranking joins `memories` on
rowid for the folder's scope. Work is bounded whatever the store's size: a
term found in COMMON_AT or more memories is dropped when rarer terms exist,
and a query made only of such terms is ranked within its newest WINDOW matches
(FTS5 walks rowids newest first without sorting, and `bm25()` is computed
only for the rows it returns), so a word in every memory costs the same at a
thousand memories as at a million.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from synapse_git import store
from synapse_git import terms as terms_mod
from synapse_git.errors import StoreError
from synapse_git.memories import COLUMNS, Memory, visible
from synapse_git.terms import Query, Term

K = 60
COMMON_AT = 5000
WINDOW = 1000
DEPTH = 50
RESCUE_TEXT_BYTES = 65536


@dataclass(frozen=True)
class Candidate:
    """One memory either ranking found, with why it was kept or cut."""

    id: int
    porter: int | None
    trigram: int | None
    score: float
    held: tuple[str, ...]
    verdict: str = "kept"

    def as_json(self) -> dict[str, object]:
        return {
            "id": self.id,
            "porter": self.porter,
            "trigram": self.trigram,
            "score": round(self.score, 6),
            "held": list(self.held),
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class Search:
    """The fused, floored candidates of one query (before limit and budget)."""

    query: Query
    searched: int
    candidates: tuple[Candidate, ...]
    porter_expr: str | None
    trigram_expr: str | None
    notes: tuple[str, ...]
    beyond: int = 0  # matches never ranked (older memories of an empty query)

    @property
    def best_held(self) -> int:
        return max((len(c.held) for c in self.candidates), default=0)


@dataclass(frozen=True)
class _Plan:
    expr: str | None
    windowed: bool


def searched(conn: sqlite3.Connection, projects: Sequence[str]) -> int:
    """How many live memories the scope can see."""
    where, params = visible(projects)
    row = conn.execute(
        f"SELECT count(*) FROM memories WHERE state = 'live' AND {where}", params
    ).fetchone()
    return int(row[0])


def newest(conn: sqlite3.Connection, projects: Sequence[str], limit: int) -> list[int]:
    """Ids of the newest visible live memories (an empty query, §5 step 9)."""
    where, params = visible(projects)
    rows = conn.execute(
        f"SELECT id FROM memories WHERE state = 'live' AND {where}"
        " ORDER BY created_at DESC, id DESC LIMIT ?",
        (*params, limit),
    )
    return [int(row[0]) for row in rows]


def recent(conn: sqlite3.Connection, query: Query, projects: Sequence[str], count: int) -> Search:
    """An empty query: the newest visible memories, newest first."""
    total = searched(conn, projects)
    ids = newest(conn, projects, count)
    candidates = [Candidate(i, None, None, 1 / (K + n), ()) for n, i in enumerate(ids, start=1)]
    older = max(0, total - len(ids))
    return Search(query, total, tuple(candidates), None, None, (), beyond=older)


def _count(conn: sqlite3.Connection, index: str, expr: str) -> int:
    """Matches of `expr` in `index`, counted no further than COMMON_AT."""
    row = conn.execute(
        f"SELECT count(*) FROM (SELECT 1 FROM {index} WHERE {index} MATCH ? LIMIT {COMMON_AT})",
        (expr,),
    ).fetchone()
    return int(row[0])


def _plan(conn: sqlite3.Connection, index: str, items: Iterable[str], notes: list[str]) -> _Plan:
    counts = {item: _count(conn, index, terms_mod.quote(item)) for item in dict.fromkeys(items)}
    found = [item for item, n in counts.items() if n]
    rare = [item for item in found if counts[item] < COMMON_AT]
    if not found:
        return _Plan(None, False)
    common = [item for item in found if counts[item] >= COMMON_AT]
    if rare and common:
        notes.append(f"{index}: {', '.join(common)} left out (in {COMMON_AT}+ memories)")
    elif common:
        notes.append(f"{index}: ranked within the newest {WINDOW} matches (common terms only)")
    return _Plan(terms_mod.any_of(rare or found), not rare)


def _rank(
    conn: sqlite3.Connection,
    index: str,
    plan: _Plan,
    projects: Sequence[str],
    depth: int,
) -> list[int]:
    """Visible ids matching `plan.expr` in `index`, best bm25 first (source weighs 0.3)."""
    if plan.expr is None:
        return []
    where, params = visible(projects, "m.")
    sql = (
        f"SELECT {index}.rowid, bm25({index}, 1.0, 0.3) FROM {index}"
        f" JOIN memories m ON m.id = {index}.rowid WHERE {index} MATCH ? AND {where}"
    )
    if plan.windowed:
        rows = conn.execute(
            f"{sql} ORDER BY {index}.rowid DESC LIMIT {WINDOW}", (plan.expr, *params)
        ).fetchall()
        rows.sort(key=lambda row: (row[1], -row[0]))
        return [int(row[0]) for row in rows[:depth]]
    ranked = conn.execute(f"{sql} ORDER BY 2, 1 DESC LIMIT {depth}", (plan.expr, *params))
    return [int(row[0]) for row in ranked]


def _members(conn: sqlite3.Connection, index: str, expr: str, ids: Sequence[int]) -> set[int]:
    marks = ",".join(str(int(i)) for i in ids)
    rows = conn.execute(
        f"SELECT rowid FROM {index} WHERE {index} MATCH ? AND rowid IN ({marks})", (expr,)
    )
    return {int(row[0]) for row in rows}


def _near_misses(
    conn: sqlite3.Connection, rescued: Sequence[Term], ids: Sequence[int]
) -> dict[int, set[str]]:
    """Which rescued (misspelled) terms each memory holds by trigram similarity."""
    held: dict[int, set[str]] = {}
    if not rescued or not ids:
        return held
    marks = ",".join(str(int(i)) for i in ids)
    rows = conn.execute(
        "SELECT id, substr(CAST(body || ' ' || source AS BLOB), 1, ?) FROM memories"
        f" WHERE id IN ({marks})",
        (RESCUE_TEXT_BYTES,),
    )
    for memory_id, chunk in rows:
        words = {
            terms_mod.fold(t) for t in terms_mod.tokens(bytes(chunk).decode("utf-8", "ignore"))
        }
        for term in rescued:
            if any(terms_mod.similar(term.word, word) for word in words):
                held.setdefault(int(memory_id), set()).add(term.word)
    return held


def search(
    conn: sqlite3.Connection,
    query: Query,
    projects: Sequence[str],
    *,
    depth: int = DEPTH,
    floor: bool = True,
) -> Search:
    """Rank `query` in both indexes, fuse by RRF (K = 60), count the terms each
    candidate holds and cut those holding fewer than half the best's."""
    notes: list[str] = []
    if query.dropped:
        notes.append(f"ignored as too common to mean anything: {', '.join(query.dropped)}")
    total = searched(conn, projects)
    words = [term.word for term in query.terms]
    substrings = [term.raw for term in query.terms if term.substring]
    porter = _plan(conn, "memory", words, notes)
    gram = _plan(conn, "memorygram", [*substrings, *query.compounds], notes)
    porter_ids = _rank(conn, "memory", porter, projects, depth)
    gram_ids = _rank(conn, "memorygram", gram, projects, depth)

    rescued = _misspelled(conn, query.terms)
    if rescued:
        grams = [g for term in rescued for g in terms_mod.trigrams(term.raw)]
        notes.append("trigram rescue for " + ", ".join(term.word for term in rescued))
        rescue = _plan(conn, "memorygram", grams, notes)
        gram_ids += [
            i for i in _rank(conn, "memorygram", rescue, projects, depth) if i not in gram_ids
        ]

    ranks_p = {memory_id: rank for rank, memory_id in enumerate(porter_ids, start=1)}
    ranks_t = {memory_id: rank for rank, memory_id in enumerate(gram_ids, start=1)}
    ids = list(dict.fromkeys([*porter_ids, *gram_ids]))
    held = _held(conn, query.terms, rescued, ids)
    candidates = [
        Candidate(
            memory_id,
            ranks_p.get(memory_id),
            ranks_t.get(memory_id),
            sum(1 / (K + r) for r in (ranks_p.get(memory_id), ranks_t.get(memory_id)) if r),
            tuple(w for w in words if w in held.get(memory_id, set())),
        )
        for memory_id in ids
    ]
    candidates.sort(key=lambda c: (-c.score, -c.id))
    if floor:
        candidates = _floor(candidates)
    return Search(
        query,
        total,
        tuple(candidates),
        porter.expr,
        gram.expr,
        tuple(notes),
    )


def _misspelled(conn: sqlite3.Connection, query_terms: Sequence[Term]) -> list[Term]:
    """Terms that match nothing as written, in either index, and have trigrams to try."""
    found: list[Term] = []
    for term in query_terms:
        if len(terms_mod.trigrams(term.raw)) < 2:
            continue
        if _count(conn, "memory", terms_mod.quote(term.word)):
            continue
        if _count(conn, "memorygram", terms_mod.quote(term.raw)):
            continue
        found.append(term)
    return found


def _held(
    conn: sqlite3.Connection,
    query_terms: Sequence[Term],
    rescued: Sequence[Term],
    ids: Sequence[int],
) -> dict[int, set[str]]:
    """For each candidate, the query terms it holds: stemmed, as a substring, or
    (for a misspelled term) by a word sharing most of its trigrams."""
    held: dict[int, set[str]] = {}
    if not ids:
        return held
    for term in query_terms:
        hits = _members(conn, "memory", terms_mod.quote(term.word), ids)
        if term.substring:
            hits |= _members(conn, "memorygram", terms_mod.quote(term.raw), ids)
        for memory_id in hits:
            held.setdefault(memory_id, set()).add(term.word)
    for memory_id, words in _near_misses(conn, rescued, ids).items():
        held.setdefault(memory_id, set()).update(words)
    return held


def _floor(candidates: list[Candidate]) -> list[Candidate]:
    best = max((len(c.held) for c in candidates), default=0)
    out = []
    for c in candidates:
        if len(c.held) * 2 < best:
            c = replace(c, verdict=f"floor: holds {len(c.held)} of the best's {best} terms")
        out.append(c)
    return out


def matches(conn: sqlite3.Connection, query: Query, projects: Sequence[str]) -> list[int]:
    """Every visible memory matching any term, stemmed or as a substring (or, for a
    misspelled term, by trigram similarity): no floor, limit or budget."""
    found: set[int] = set()
    found.update(_every(conn, "memory", [t.word for t in query.terms], projects))
    found.update(_every(conn, "memorygram", [t.raw for t in query.terms if t.substring], projects))
    rescued = _misspelled(conn, query.terms)
    if rescued:
        grams = [g for term in rescued for g in terms_mod.trigrams(term.raw)]
        near = _every(conn, "memorygram", grams, projects)
        found.update(_near_misses(conn, rescued, near))
    return sorted(found)


def _every(
    conn: sqlite3.Connection, index: str, items: Sequence[str], projects: Sequence[str]
) -> list[int]:
    if not items:
        return []
    where, params = visible(projects, "m.")
    rows = conn.execute(
        f"SELECT {index}.rowid FROM {index} JOIN memories m ON m.id = {index}.rowid"
        f" WHERE {index} MATCH ? AND {where}",
        (terms_mod.any_of(list(items)), *params),
    )
    return [int(row[0]) for row in rows]


def rows(conn: sqlite3.Connection, ids: Sequence[int]) -> list[Memory]:
    """The memories `ids`, newest first."""
    if not ids:
        return []
    marks = ",".join(str(int(i)) for i in ids)
    found = conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE id IN ({marks}) ORDER BY created_at DESC, id DESC"
    )
    return [Memory(*row) for row in found]


def count_recalled(conn: sqlite3.Connection, ids: Sequence[int]) -> None:
    """Add one to each returned memory's recall count. Best effort: a store busy
    with a writer, or read-only, never fails or slows a recall for it."""
    if not ids:
        return
    marks = ",".join(str(int(i)) for i in ids)
    conn.execute("PRAGMA busy_timeout = 50")
    try:
        with store.transaction(conn):
            conn.execute(f"UPDATE memories SET recalled = recalled + 1 WHERE id IN ({marks})")
    except StoreError:
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(store.BUSY_TIMEOUT_S * 1000)}")
