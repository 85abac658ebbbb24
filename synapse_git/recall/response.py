"""Recall (docs/recall.md, steps 5-8): deduplication, limit, budget, abridging, drift, accounting.

The response is measured as the JSON it serializes to, so its cap holds for
any input: escapes, multibyte text, long sources and drift findings included.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from synapse_git.recall import excerpts
from synapse_git.recall.ranking import Candidate, Search
from synapse_git.recall.records import changed
from synapse_git.settings import Budget
from synapse_git.store.pages import abridge_source
from synapse_git.textrules import cut_utf8

if TYPE_CHECKING:
    from synapse_git.answers import HitOut, RecallExplainedOut, RecallOut
    from synapse_git.recall.kept_rows import KeptRows

QUERY_ECHO_BYTES = 240
MIN_BODY_BYTES = 48
SNIPPET_TOKENS = 64
# A question nothing answers well still gets its best guesses, this many at
# most, each marked weak and after every hit that is not.
WEAK_HITS = 2


# eq=False, repr=False, not frozen: nothing compares, prints or changes these, and each
# generated method (a frozen class has two more) is compiled when the module loads,
# which every recall pays for.
@dataclass(eq=False, repr=False)
class Hit:
    id: int
    project: str | None
    source: str
    sourceabridged: bool
    body: str
    abridged: bool
    bytes: int
    score: float
    author: str | None = None  # who shared it, for a team memory (docs/team.md)
    weak: bool = False  # covers little of the question (recall/coverage.py)

    def as_json(self) -> HitOut:
        found: HitOut = {
            "id": self.id,
            "project": self.project,
            "source": self.source,
            "sourceabridged": self.sourceabridged,
            "body": self.body,
            "abridged": self.abridged,
            "bytes": self.bytes,
            "score": round(self.score, 6),
        }
        if self.author is not None:
            found["author"] = self.author
        if self.weak:
            found["weak"] = True
        return found


@dataclass(eq=False, repr=False)
class Recalled:
    """A recall's answer: `as_json()` is exactly the shape in docs/json.md."""

    query: str
    project: str | None
    budget: str
    hits: tuple[Hit, ...]
    drift: tuple[dict[str, Any], ...]
    searched: int
    cut_floor: int
    cut_limit: int
    cut_budget: int
    candidates: tuple[Candidate, ...] = ()
    notes: tuple[str, ...] = ()
    cut_weak: int = 0
    # "on" or "off: why" where semantic recall is installed or vectors are stored.
    semantic: str | None = None

    def with_semantic(self, notice: str | None) -> Recalled:
        return self if notice is None else replace(self, semantic=notice)

    def as_json(self) -> RecallOut:
        out: RecallOut = {
            "query": self.query,
            "project": self.project,
            "budget": self.budget,
            "hits": [hit.as_json() for hit in self.hits],
            "drift": list(self.drift),
            "searched": self.searched,
            "cut": {
                "floor": self.cut_floor,
                "limit": self.cut_limit,
                "budget": self.cut_budget,
                "weak": self.cut_weak,
            },
        }
        if self.semantic is not None:
            out["semantic"] = self.semantic
        return out

    def explained_json(self) -> RecallExplainedOut:
        """The answer with the ranking's account of itself (`recall --explain`)."""
        return {**self.as_json(), "explain": self.explain_json()}

    def explain_json(self) -> list[dict[str, object]]:
        return [candidate.as_json() for candidate in self.candidates]


def size(data: Any) -> int:
    """Characters of `data` as JSON, the way the CLI and the MCP server print it."""
    return len(_JSON.encode(data))


# What json.dumps(data, ensure_ascii=False) encodes with, made once: dumps makes
# one a call, a sixth of what sizing a hit cost (a recall sizes each hit it shows).
_JSON = json.JSONEncoder(ensure_ascii=False)


@dataclass(frozen=True, eq=False, repr=False)
class Meta:
    id: int
    project: str | None
    source: str
    created_at: str
    norm: int
    bytes: int
    author: str | None


def _metas(
    conn: sqlite3.Connection, ids: Sequence[int], kept: KeptRows | None = None
) -> dict[int, Meta]:
    known = kept.metas if kept is not None else {}
    unread = [i for i in ids if i not in known]
    found: dict[int, Meta] = {}
    if unread:
        marks = ",".join(str(int(i)) for i in unread)
        rows = conn.execute(
            "SELECT id, project, source, created_at, norm, length(CAST(body AS BLOB)),"
            " (SELECT author FROM shared WHERE memory_id = memories.id)"
            f" FROM memories WHERE id IN ({marks})"
        )
        found = {int(row[0]): Meta(*row) for row in rows}
        if kept is not None:
            known.update(found)
    if len(found) == len(ids):
        return found
    return {i: meta for i in ids if (meta := found.get(i) or known.get(i)) is not None}


def _same_body(conn: sqlite3.Connection, a: int, b: int) -> bool:
    row = conn.execute(
        "SELECT x.body = y.body FROM memories x, memories y WHERE x.id = ? AND y.id = ?", (a, b)
    ).fetchone()
    return bool(row and row[0])


def _dedupe(
    conn: sqlite3.Connection, ranked: list[Candidate], metas: dict[int, Meta]
) -> tuple[list[Candidate], list[Candidate]]:
    """Exact-body duplicates collapse into the newest of them, at the best rank."""
    groups: dict[tuple[int, int], list[Candidate]] = {}
    for c in ranked:
        meta = metas[c.id]
        groups.setdefault((meta.norm, meta.bytes), []).append(c)
    if len(groups) == len(ranked):
        return ranked, []
    keep: dict[int, int] = {}
    dropped: list[Candidate] = []
    for group in groups.values():
        while group:
            head, rest = group[0], group[1:]
            same = [c for c in rest if _same_body(conn, head.id, c.id)]
            group = [c for c in rest if c not in same]
            family = [head, *same]
            newest = max(family, key=lambda c: (metas[c.id].created_at, c.id))
            keep[head.id] = newest.id
            dropped += [
                changed(c, verdict=f"duplicate of {newest.id}") for c in family if c is not newest
            ]
    by_id = {c.id: c for c in ranked}
    kept = [
        c if keep[c.id] == c.id else changed(by_id[keep[c.id]], score=c.score)
        for c in ranked
        if c.id in keep
    ]
    return kept, dropped


def _abridge(
    conn: sqlite3.Connection,
    search: Search,
    meta: Meta,
    allowance: int,
    kept: KeptRows | None = None,
) -> tuple[str, bool]:
    """The body whole when it fits `allowance` bytes; else its opening line when
    that holds a matched word, else the FTS5 snippet around the match. A whole
    body is taken from, or left in, `kept`."""
    known = kept.bodies if kept is not None else {}
    if meta.bytes <= allowance and (whole := known.get(meta.id)) is not None:
        return whole, False
    row = conn.execute(
        "SELECT substr(CAST(body AS BLOB), 1, ?) FROM memories WHERE id = ?",
        (allowance + 1, meta.id),
    ).fetchone()
    head = bytes(row[0] or b"")
    if meta.bytes <= allowance:
        body = head.decode("utf-8")
        if kept is not None:
            kept.keep_body(meta.id, body)
        return body, False
    prefix = cut_utf8(head, allowance).decode("utf-8")
    if (around := excerpts.around_rarest(conn, search, meta.id, allowance)) is not None:
        return around, True
    for index, expr in (("memory", search.porter_expr), ("memorygram", search.trigram_expr)):
        if expr is None:
            continue
        found = conn.execute(
            f"SELECT snippet({index}, 0, '', '', '…', {SNIPPET_TOKENS}) FROM {index}"
            f" WHERE {index} MATCH ? AND rowid = ?",
            (expr, meta.id),
        ).fetchone()
        if found and found[0]:
            return cut_utf8(str(found[0]).encode("utf-8"), allowance).decode("utf-8"), True
    return prefix, True


def _weak_apart(ranked: list[Candidate]) -> tuple[list[Candidate], list[Candidate]]:
    """The candidates to answer with, and the weak ones cut: the first WEAK_HITS
    weak ones follow those that are not weak, the rest are counted apart."""
    strong = [c for c in ranked if not c.weak]
    weak = [c for c in ranked if c.weak]
    cut = [changed(c, verdict="weak: covers too little of the question") for c in weak[WEAK_HITS:]]
    return [*strong, *weak[:WEAK_HITS]], cut


@dataclass(eq=False, repr=False)
class Order:
    """The candidates in the order recall answers with (before the limit and the
    budget), and those it leaves out on the way."""

    ranked: list[Candidate]
    floored: list[Candidate]
    duplicates: list[Candidate]
    weak: list[Candidate]  # weak ones past WEAK_HITS
    metas: dict[int, Meta]


def answer_order(
    conn: sqlite3.Connection, search: Search, *, deep: bool = False, kept: KeptRows | None = None
) -> Order:
    """What recall answers with, best first, at any limit: the floor's survivors,
    duplicates collapsed, those not weak before the first WEAK_HITS weak ones.
    `memory eval` ranks on this list, so it scores exactly what recall returns.

    `deep` (an explicit limit at the full budget: the caller wants depth) keeps
    every weak candidate, then those the floor cut, marked EXTRA: weak hits.
    `kept` holds the candidates' facts read by an earlier recall of a long-lived
    service (recall/kept_rows.py)."""
    floored = [c for c in search.candidates if c.verdict != "kept"]
    ranked = [c for c in search.candidates if c.verdict == "kept"]
    if deep:
        # Only the floor's cuts come back; a duplicate or a limit is no floor.
        below = [c for c in floored if c.verdict.startswith("floor")]
        floored = [c for c in floored if c not in below]
        ranked += [changed(c, verdict=EXTRA) for c in below]
    metas = _metas(conn, [c.id for c in ranked], kept)
    ranked, duplicates = _dedupe(conn, ranked, metas)
    if deep:
        strong = [c for c in ranked if not c.weak and c.verdict != EXTRA]
        return Order(
            [*strong, *(c for c in ranked if c not in strong)], floored, duplicates, [], metas
        )
    ranked, weak = _weak_apart(ranked)
    return Order(ranked, floored, duplicates, weak, metas)


# The verdict of a candidate below the floor answered as a weak hit, at an explicit
# limit of the full budget.
EXTRA = "kept: below the floor, answered as weak at an explicit limit"


def build(
    conn: sqlite3.Connection,
    search: Search,
    *,
    budget: Budget,
    limit: int,
    project: str | None,
    drift: Callable[[list[int]], list[dict[str, Any]]],
    explain: bool = False,
    deep: bool = False,
    kept: KeptRows | None = None,
) -> Recalled:
    """Steps 5-8: deduplicate, apply the limit and the budget, abridge, list drift."""
    ordered = answer_order(conn, search, deep=deep, kept=kept)
    floored, duplicates, weak = ordered.floored, ordered.duplicates, ordered.weak
    metas = ordered.metas
    within, over = ordered.ranked[:limit], ordered.ranked[limit:]
    if explain:
        over = [changed(c, verdict="limit") for c in over]
    echo = cut_utf8(search.query.text.encode("utf-8"), QUERY_ECHO_BYTES).decode("utf-8")
    response = Recalled(
        echo,
        project,
        budget.name,
        (),
        (),
        search.searched,
        len(floored),
        len(over) + search.beyond,
        0,
        cut_weak=len(weak),
    )

    # The response's size is its frame (with the budget cut counted at its
    # largest, so the final digits never add length) plus each item and the
    # ", " between items, so it is known without serializing it again.
    used = size(replace(response, cut_budget=len(within)).as_json())
    chosen: list[Candidate] = []
    cut: list[Candidate] = []
    hits: list[Hit] = []
    for c in within:
        meta = metas[c.id]
        room = budget.response_chars - used - (2 if hits else 0)
        # A hit costs at least its fixed keys, project, source label and a short
        # excerpt: when that cannot fit, do not spend a snippet finding out.
        least = MIN_BODY_BYTES + len(meta.project or "") + min(len(meta.source), 240) + 120
        fitted = None if least > room else _fit(conn, search, meta, c, budget, room, kept)
        if fitted is None:
            cut.append(changed(c, verdict="budget"))
            continue
        hit, chars = fitted
        used += chars + (2 if hits else 0)
        hits.append(hit)
        chosen.append(c)
    response = replace(response, hits=tuple(hits), cut_budget=len(cut))
    findings = drift([hit.id for hit in response.hits]) if response.hits else []
    shown: list[dict[str, Any]] = []
    for finding in findings:
        cost = size(finding) + (2 if shown else 0)
        if used + cost <= budget.response_chars:
            shown.append(finding)
            used += cost
    response = replace(response, drift=tuple(shown))
    if explain:
        order = {c.id: n for n, c in enumerate(search.candidates)}
        every = [*chosen, *cut, *over, *duplicates, *weak, *floored]
        every.sort(key=lambda c: order[c.id])
        response = replace(response, candidates=tuple(every), notes=search.notes)
    return response


def _fit(
    conn: sqlite3.Connection,
    search: Search,
    meta: Meta,
    candidate: Candidate,
    budget: Budget,
    room: int,
    kept: KeptRows | None = None,
) -> tuple[Hit, int] | None:
    """The hit abridged to its allowance and shortened further to fit `room`
    characters of JSON, and those characters; None when not even a short excerpt
    fits."""
    source, source_cut = abridge_source(meta.source)
    body, abridged = _abridge(conn, search, meta, budget.hit_bytes, kept)
    hit = Hit(
        meta.id,
        meta.project,
        source,
        source_cut,
        body,
        abridged,
        meta.bytes,
        candidate.score,
        meta.author,
        candidate.weak or candidate.verdict == EXTRA,
    )
    data = body.encode("utf-8")
    keep = len(data)
    while (over := (chars := size(hit.as_json())) - room) > 0:
        keep = min(keep - over, len(cut_utf8(data, keep)) - 1)
        if keep < MIN_BODY_BYTES:
            return None
        hit = replace(hit, body=cut_utf8(data, keep).decode("utf-8"), abridged=True)
    return hit, chars
