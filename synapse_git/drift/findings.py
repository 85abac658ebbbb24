"""Drift findings (docs/drift.md): stale and unverified paths, conflicts, duplicates.

Nothing here changes a memory; each finding names the memories involved and
the command that would settle it. `check` looks at everything a scope sees;
`about` answers for a few ids (recall's hits, a new memory) and finds its
conflict candidates through the FTS index instead of loading the store.
"""

from __future__ import annotations

import sqlite3
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from synapse_git.drift import conflicts, settle
from synapse_git.drift.conflict_candidates import Candidates
from synapse_git.drift.paths import find_paths
from synapse_git.git.project_scope import Scope
from synapse_git.store import memories
from synapse_git.store.memories import COLUMNS, Memory
from synapse_git.textrules import cut_utf8

KINDS = ("stale", "unverified", "conflict", "duplicate")
BLOCKING = ("stale", "conflict", "duplicate")
QUOTE_BYTES = 320  # a contradicting memory quoted in a recall, abridged to this
COMMON_SHARE = 0.05  # terms in more than this share of memories do not pair memories


@dataclass(frozen=True)
class Finding:
    kind: str
    ids: tuple[int, ...]
    detail: str
    suggest: str
    paths: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    newer: int | None = None
    older: int | None = None
    quote: dict[str, Any] | None = field(default=None, compare=False)

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"kind": self.kind, "ids": list(self.ids)}
        if self.paths:
            found["paths"] = list(self.paths)
        if self.renamed:
            found["renamed"] = dict(self.renamed)
        if self.newer is not None:
            found["newer"] = self.newer
            found["older"] = self.older
        found["detail"] = self.detail
        found["suggest"] = self.suggest
        if self.quote is not None:
            found["quote"] = self.quote
        return found


@dataclass(frozen=True)
class Report:
    folder: str
    project: str | None
    checked: int
    findings: list[Finding]

    @property
    def needs_attention(self) -> bool:
        """Whether a finding asks for a change (`drift` exits 1): unverified paths are
        listed but, being a quieter kind, never do."""
        return any(finding.kind in BLOCKING for finding in self.findings)

    def as_json(self) -> dict[str, Any]:
        return {
            "folder": self.folder,
            "project": self.project,
            "checked": self.checked,
            "findings": [finding.as_json() for finding in self.findings],
        }


def visible_live(conn: sqlite3.Connection, scope: Scope) -> list[Memory]:
    """Every live memory `scope` sees, oldest first."""
    where, params = memories.visible(scope.projects)
    rows = conn.execute(
        f"SELECT {COLUMNS} FROM memories WHERE state = 'live' AND {where} ORDER BY created_at, id",
        params,
    )
    return [Memory(*row) for row in rows]


def check(
    conn: sqlite3.Connection, scope: Scope, kinds: Iterable[str] = KINDS, *, checkout: Any = None
) -> Report:
    """Every finding about the memories `scope` sees, of the chosen kinds."""
    chosen = set(kinds)
    rows = visible_live(conn, scope)
    findings: list[Finding] = []
    if chosen & {"stale", "unverified"}:
        findings += stale(rows, scope, chosen, checkout=checkout)
    if "conflict" in chosen:
        findings += conflicts_among(rows)
        findings += _team_forks(conn, scope, findings)
    if "duplicate" in chosen:
        findings += duplicates(conn, scope)
    return Report(str(scope.folder), scope.project, len(rows), _ordered(findings))


def _team_forks(
    conn: sqlite3.Connection, scope: Scope, found: Sequence[Finding]
) -> list[Finding]:
    """A shared memory changed on two clones at once: both versions are live until a
    person supersedes one (docs/team.md)."""
    from synapse_git.team.forks import live_forks

    paired = {frozenset(f.ids) for f in found if f.kind == "conflict"}
    return [
        Finding(
            "conflict",
            (fork, original),
            f"memory {fork} and {original} are two versions of one shared memory, changed "
            "on two clones at once",
            f"synapse memory supersede {original} --by {fork}",
            newer=fork,
            older=original,
        )
        for fork, original in live_forks(conn, scope.project)
        if frozenset((fork, original)) not in paired
    ]


def _ordered(findings: list[Finding]) -> list[Finding]:
    rank = {kind: n for n, kind in enumerate(("stale", "conflict", "duplicate", "unverified"))}
    return sorted(findings, key=lambda f: (rank[f.kind], f.ids))


# -- stale and unverified ---------------------------------------------------------


def stale(
    rows: Sequence[Memory], scope: Scope, kinds: set[str], *, checkout: Any = None
) -> list[Finding]:
    """Stale and unverified paths, one finding per memory and kind. The checkout
    (index, rules, history) is loaded once, and only when a memory names a path."""
    named = [(memory, find_paths(memory.body)) for memory in rows]
    named = [(memory, paths) for memory, paths in named if paths]
    if not named:
        return []
    if checkout is None:
        from synapse_git.drift.staleness import CheckoutPaths  # pygit2 only when paths need it

        checkout = CheckoutPaths(scope)
    findings: list[Finding] = []
    for memory, paths in named:
        gone: list[str] = []
        renamed: list[tuple[str, str]] = []
        unknown: list[str] = []
        for path in paths:
            state = checkout.check(
                path, memory.head_commit, relative=memory.project == scope.project
            )
            if state.status == "stale":
                gone.append(path)
                if state.renamed_to:
                    renamed.append((path, state.renamed_to))
            elif state.status == "unverified":
                unknown.append(path)
        if gone and "stale" in kinds:
            findings.append(_stale_finding(memory, gone, renamed))
        if unknown and "unverified" in kinds:
            findings.append(
                Finding(
                    "unverified",
                    (memory.id,),
                    f"memory {memory.id} names {_list(unknown)}, which git has never seen here "
                    "(perhaps still to be written)",
                    f"synapse memory edit {memory.id}",
                    paths=tuple(unknown),
                )
            )
    return findings


def _stale_finding(memory: Memory, gone: list[str], renamed: list[tuple[str, str]]) -> Finding:
    moves = "; ".join(f"{old} is now {new}" for old, new in renamed)
    where = f" (written on {memory.branch})" if memory.branch else ""
    place = "this machine" if all(p.startswith(("/", "~/")) for p in gone) else "this checkout"
    detail = f"memory {memory.id}{where} names {_list(gone)}, gone from {place}"
    return Finding(
        "stale",
        (memory.id,),
        detail + (f"; {moves}" if moves else ""),
        settle.stale(memory.id, memory.body, gone, renamed),
        paths=tuple(gone),
        renamed=tuple(renamed),
    )


def _list(paths: Sequence[str]) -> str:
    return ", ".join(paths)


# -- conflicts -------------------------------------------------------------------------


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


def conflicts_among(rows: Sequence[Memory]) -> list[Finding]:
    """Conflicting pairs, found through a term map: only memories sharing an
    uncommon content word are compared, never every pair."""
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
    sizes = [len(item.terms) for item in parsed]
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
    where, scoped = memories.visible(scope.projects)
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
        where, scoped = memories.visible(scope.projects, "+")
        marks = ", ".join("?" for _ in norms)
        sql = (
            f"SELECT norm, group_concat(id) FROM memories WHERE norm IN ({marks})"
            f" AND +state = 'live' AND {where}"
        )
        params = [*norms, *scoped]
    sql += " GROUP BY norm HAVING count(*) > 1"
    findings = []
    for _, group in conn.execute(sql, params):
        members = sorted(int(part) for part in str(group).split(","))
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


# -- about a few memories (recall, remember) ------------------------------------------


def about(
    conn: sqlite3.Connection,
    scope: Scope,
    ids: Sequence[int],
    *,
    kinds: Iterable[str] = KINDS,
    quote: bool = True,
    corrections_only: bool = False,
) -> list[Finding]:
    """Findings that involve any of `ids`; a newer contradicting memory outside
    `ids` is quoted (abridged) so the caller sees the correction. With
    `corrections_only` (recall), a memory outside `ids` is looked for among those
    stored after the one it would contradict, and conflicts between `ids` are all
    found."""
    chosen = set(kinds)
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    where, scoped = memories.visible(scope.projects)
    marks = ", ".join("?" for _ in wanted)
    params: list[object] = [*wanted, *scoped]
    rows = [
        Memory(*row)
        for row in conn.execute(
            f"SELECT {COLUMNS} FROM memories WHERE id IN ({marks}) AND state = 'live' AND {where}"
            " ORDER BY id",
            params,
        )
    ]
    if not rows:
        return []
    findings: list[Finding] = []
    if chosen & {"stale", "unverified"}:
        findings += stale(rows, scope, chosen)
    if "conflict" in chosen:
        findings += _conflicts_about(
            conn, scope, rows, quote=quote, corrections_only=corrections_only
        )
    if "duplicate" in chosen:
        findings += duplicates(conn, scope, [row.id for row in rows])
    return _ordered(findings)


def _conflicts_about(
    conn: sqlite3.Connection,
    scope: Scope,
    rows: Sequence[Memory],
    *,
    quote: bool,
    corrections_only: bool = False,
) -> list[Finding]:
    asked = {row.id for row in rows}
    seen_pairs: set[tuple[int, int]] = set()
    parsed: dict[int, conflicts.Parsed] = {}

    def parse(memory: Memory) -> conflicts.Parsed:
        if memory.id not in parsed:
            parsed[memory.id] = conflicts.parse(memory.body)
        return parsed[memory.id]

    found_for = Candidates(conn, scope, newer_only=corrections_only).many(rows)
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
