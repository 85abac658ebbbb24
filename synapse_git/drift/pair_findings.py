"""Conflict and duplicate findings: pairs of memories that contradict or repeat each
other, across a whole scope or around a few memories (docs/drift.md)."""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Collection, Sequence
from dataclasses import replace

from synapse_git.drift import conflicts
from synapse_git.drift.conflict_candidates import Candidates, TermLists
from synapse_git.drift.finding_record import Finding
from synapse_git.git.project_scope import Scope
from synapse_git.store import memories
from synapse_git.store.memories import Memory
from synapse_git.textrules import cut_utf8, normalize

QUOTE_BYTES = 320  # a contradicting memory quoted in a recall, abridged to this
COMMON_SHARE = 0.05  # terms in more than this share of memories do not pair memories


def _newer_older(a: Memory, b: Memory) -> tuple[Memory, Memory]:
    return (a, b) if (a.created_at, a.id) > (b.created_at, b.id) else (b, a)


def conflict_finding(a: Memory, b: Memory, found: conflicts.Contradiction) -> Finding:
    newer, older = _newer_older(a, b)
    if newer is not a:
        found = conflicts.Contradiction(found.reason, found.second, found.first)
    if found.reason == "negation":
        what = f"memory {newer.id} (newer) and {older.id} contradict: one negates the other"
    else:
        what = (
            f"memory {newer.id} (newer) says {found.first!r} where {older.id} says {found.second!r}"
        )
    return Finding(
        "conflict",
        (newer.id, older.id),
        what,
        f"synapse memory supersede {older.id} --by {newer.id}",
        newer=newer.id,
        older=older.id,
    )


def conflicts_among(
    rows: Sequence[Memory], involving: Collection[int] | None = None
) -> list[Finding]:
    """Conflicting pairs, found through a term map: only memories sharing an
    uncommon content word are compared, never every pair. With `involving` (ids),
    only the pairs holding one of them."""
    parsed = [conflicts.parse(memory.body) for memory in rows]
    postings: dict[str, list[int]] = defaultdict(list)
    for index, item in enumerate(parsed):
        for term in item.terms:
            postings[term].append(index)
    cap = max(32, int(len(rows) * COMMON_SHARE))
    shared: Counter[tuple[int, int]] = Counter()
    for posting in postings.values():
        if len(posting) < 2 or len(posting) > cap:
            continue
        for i, first in enumerate(posting):
            for second in posting[i + 1 :]:
                shared[first, second] += 1
    # Slot terms (`msrv#version`) repeat a word the body already counts.
    sizes = [sum("#" not in term for term in item.terms) for item in parsed]
    findings = []
    for (first, second), count in shared.items():
        # Shared terms a pair needs before any rule can fire: a one-word substitution
        # leaves all but one of the shorter body's words shared; two are enough.
        if count < 2 and count < min(sizes[first], sizes[second]) - 1:
            # Common terms were left out of the map; count every shared term here.
            both = len(parsed[first].terms & parsed[second].terms)
            if both < 2 and both < min(sizes[first], sizes[second]) - 1:
                continue
        a, b = rows[first], rows[second]
        if involving is not None and a.id not in involving and b.id not in involving:
            continue
        if a.body == b.body:
            continue
        found = conflicts.compare(parsed[first], parsed[second])
        if found is not None:
            findings.append(conflict_finding(a, b, found))
    return sorted(findings, key=lambda finding: finding.ids)


# -- duplicates -------------------------------------------------------------------------


def duplicates(
    conn: sqlite3.Connection, scope: Scope, ids: Sequence[int] | None = None
) -> list[Finding]:
    """Visible live memories whose normalized bodies are equal (the `norm` key)."""
    where, scoped = memories.in_scope_sql(scope.projects)
    params: list[object] = list(scoped)
    sql = f"SELECT norm, group_concat(id) FROM memories WHERE state = 'live' AND {where}"
    if ids is not None:
        if not ids:
            return []
        marks = ", ".join("?" for _ in ids)
        norms = [
            row[0]
            for row in conn.execute(
                f"SELECT DISTINCT norm FROM memories WHERE id IN ({marks})", ids
            )
        ]
        # `+project` keeps the planner on the norm index: a few rows, not the scope.
        where, scoped = memories.in_scope_sql(scope.projects, "+")
        marks = ", ".join("?" for _ in norms)
        sql = (
            f"SELECT norm, group_concat(id) FROM memories WHERE norm IN ({marks})"
            f" AND +state = 'live' AND {where}"
        )
        params = [*norms, *scoped]
    sql += " GROUP BY norm HAVING count(*) > 1"
    findings = []
    groups = [
        [int(part) for part in str(group).split(",")] for _, group in conn.execute(sql, params)
    ]
    for members in (m for group in groups for m in _same_text(conn, group)):
        newer, older = members[-1], members[0]
        others = ", ".join(map(str, members[1:]))
        findings.append(
            Finding(
                "duplicate",
                tuple(members),
                f"memory {others} repeat{'s' if len(members) == 2 else ''} memory {older} word "
                "for word",
                f"synapse memory supersede {older} --by {newer}",
                newer=newer,
                older=older,
            )
        )
    return findings


def _same_text(conn: sqlite3.Connection, ids: Sequence[int]) -> list[list[int]]:
    """`ids` (one `norm` key) split by normalized body, as a 64-bit key can collide;
    only the parts of two or more, each sorted."""
    marks = ", ".join("?" for _ in ids)
    parts: dict[str, list[int]] = defaultdict(list)
    for memory_id, body in conn.execute(
        f"SELECT id, body FROM memories WHERE id IN ({marks}) ORDER BY id", list(ids)
    ):
        parts[normalize(body)].append(int(memory_id))
    return [part for part in parts.values() if len(part) > 1]


# -- around a few memories (recall, remember) -----------------------------------------


def conflicts_about(
    conn: sqlite3.Connection,
    scope: Scope,
    rows: Sequence[Memory],
    *,
    quote: bool,
    corrections_only: bool = False,
    kept: TermLists | None = None,
) -> list[Finding]:
    asked = {row.id for row in rows}
    seen_pairs: set[tuple[int, int]] = set()
    parsed: dict[int, conflicts.Parsed] = {}

    def parse(memory: Memory) -> conflicts.Parsed:
        if memory.id not in parsed:
            parsed[memory.id] = conflicts.parse(memory.body)
        return parsed[memory.id]

    found_for = Candidates(conn, scope, newer_only=corrections_only, kept=kept).many(rows)
    findings = []
    for row in rows:
        for other in found_for[row.id]:
            pair = (min(row.id, other.id), max(row.id, other.id))
            if pair in seen_pairs or other.body == row.body:
                continue
            seen_pairs.add(pair)
            found = conflicts.compare(parse(row), parse(other))
            if found is None:
                continue
            finding = conflict_finding(row, other, found)
            if quote and finding.newer not in asked:
                newer = other
                data = newer.body.encode("utf-8", "surrogatepass")
                cut = cut_utf8(data, QUOTE_BYTES)
                body = cut.decode("utf-8", "surrogatepass")
                finding = replace(
                    finding,
                    quote={
                        "id": newer.id,
                        "body": body + ("…" if len(cut) < len(data) else ""),
                        "abridged": len(cut) < len(data),
                        "bytes": len(data),
                    },
                )
            findings.append(finding)
    return findings
