"""Drift findings (docs/drift.md): stale and unverified paths, conflicts, duplicates.

Nothing here changes a memory; each finding names the memories involved and
the command that would settle it. `check` looks at everything a scope sees;
`about` answers for a few ids (recall's hits, a new memory) and finds its
conflict candidates through the FTS index instead of loading the store. This
module gathers and orders the findings and holds the report; path_findings
makes the stale and unverified ones, pair_findings the conflicts and duplicates.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from synapse_git.drift import conflict_candidates, settle
from synapse_git.drift.conflict_candidates import TermLists
from synapse_git.drift.finding_record import Finding
from synapse_git.drift.kept import not_kept
from synapse_git.drift.pair_findings import conflicts_about, conflicts_among, duplicates
from synapse_git.drift.path_findings import stale
from synapse_git.drift.paths import remembered
from synapse_git.drift.settle import command
from synapse_git.git.project_scope import Scope
from synapse_git.settings import DriftSettings
from synapse_git.store import memories
from synapse_git.store.memories import Memory

KINDS = ("stale", "unverified", "conflict", "duplicate", "changed", "unmerged", "orphaned")
BLOCKING = ("stale", "conflict", "duplicate", "orphaned")
# What recall reports about its hits: no `changed` unless asked (recall --explain).
RECALL_KINDS = ("stale", "unverified", "conflict", "duplicate", "unmerged", "orphaned")
# Soft kinds never make `drift` exit 1 and never leave a memory out of a session.
# Drift reads the opening characters of each body, never a long one whole: paths and
# contradictions are looked for there (docs/drift.md#long-bodies), so a store of
# megabyte notes is checked in time and memory bounded by their number.
_T = TypeVar("_T")
WINDOW = conflict_candidates.WINDOW
_WINDOWED = memories.opening_columns(WINDOW)


@dataclass(frozen=True)
class Report:
    folder: str
    project: str | None
    checked: int
    findings: list[Finding]
    # Findings left out because a person kept them as still true (docs/drift.md#keep).
    kept: int = 0

    @property
    def needs_attention(self) -> bool:
        """Whether a finding asks for a change (`drift` exits 1): unverified paths and
        changed files are listed but, being quieter kinds, never do."""
        return any(finding.kind in BLOCKING for finding in self.findings)

    def as_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "folder": self.folder,
            "project": self.project,
            "checked": self.checked,
            "findings": [finding.as_json() for finding in self.findings],
        }
        if self.kept:
            answer["kept"] = self.kept
        return answer


def visible_live(conn: sqlite3.Connection, scope: Scope) -> tuple[list[Memory], set[int]]:
    """Every live memory `scope` sees, oldest first, each body cut to its opening
    WINDOW characters; and the ids of those cut."""
    where, params = memories.in_scope_sql(scope.projects)
    rows = conn.execute(
        f"SELECT {_WINDOWED}, length(body) > {WINDOW} FROM memories"
        f" WHERE state = 'live' AND {where} ORDER BY created_at, id",
        params,
    )
    return _split(rows)


def _split(rows: Iterable[Sequence[Any]]) -> tuple[list[Memory], set[int]]:
    found: list[Memory] = []
    cut: set[int] = set()
    for row in rows:
        found.append(Memory(*row[:-1]))
        if row[-1]:
            cut.add(int(row[0]))
    return found, cut


def _settled_whole(
    conn: sqlite3.Connection, findings: list[Finding], cut: set[int]
) -> list[Finding]:
    """A stale memory's suggested edit carries its whole corrected body: for a body
    drift read only the opening of, the suggestion is made again from the whole one
    (only for these few, never for every long body)."""
    out = []
    for finding in findings:
        if finding.kind == "stale" and finding.ids[0] in cut:
            row = conn.execute("SELECT body FROM memories WHERE id = ?", finding.ids).fetchone()
            if row is not None:
                suggest = settle.stale(finding.ids[0], str(row[0]), finding.paths, finding.renamed)
                finding = replace(finding, suggest=suggest)
        out.append(finding)
    return out


def check(
    conn: sqlite3.Connection,
    scope: Scope,
    kinds: Iterable[str] = KINDS,
    *,
    checkout: Any = None,
    wait: bool = True,
    limits: DriftSettings | None = None,
    data_dir: Path | None = None,
) -> Report:
    """Every finding about the memories `scope` sees, of the chosen kinds; `wait`
    as path_findings.stale's `search_older`. Branch findings need `data_dir`
    (where reachability is kept); a memory they label gets no path finding: its
    paths are another line's (docs/branches.md)."""
    chosen = set(kinds)
    rows, cut = visible_live(conn, scope)
    named = paths_once()
    findings = branch_findings(conn, scope, rows, data_dir, named)
    held = labelled(findings)
    findings = [f for f in findings if f.kind in chosen]
    here = [row for row in rows if row.id not in held]
    if chosen & {"stale", "unverified"}:
        found = stale(here, scope, chosen, checkout=checkout, search_older=wait, named=named)
        findings += _settled_whole(conn, found, cut)
    if "changed" in chosen:
        findings += changed_files(here, scope, limits, named)
    if "conflict" in chosen:
        findings += conflicts_among(rows)
        findings += _team_forks(conn, scope, findings)
    if "duplicate" in chosen:
        findings += duplicates(conn, scope)
    shown = not_kept(conn, findings)
    labeled = _with_authors(conn, _ordered(shown))
    return Report(str(scope.folder), scope.project, len(rows), labeled, len(findings) - len(shown))


def paths_once() -> Callable[[str], list[str]]:
    """`find_paths`, worked out once per body: a whole check asks it of every memory
    for branch, path and changed findings alike, and finding them is most of the cost
    of a store whose memories name paths."""
    from synapse_git.drift.paths import find_paths

    found: dict[str, list[str]] = {}

    def named(body: str) -> list[str]:
        paths = found.get(body)
        if paths is None:
            paths = found[body] = find_paths(body)
        return paths

    return named


def branch_findings(
    conn: sqlite3.Connection,
    scope: Scope,
    rows: Sequence[Memory],
    data_dir: Path | None,
    find_paths: Callable[[str], list[str]] | None = None,
) -> list[Finding]:
    """`unmerged` and `orphaned` findings about the project memories among `rows`."""
    if data_dir is None or scope.project is None or scope.checkout is None:
        return []
    from synapse_git.drift import branch_findings as branch
    from synapse_git.git import project_scope

    if find_paths is None:
        find_paths = paths_once()
    named = {row.id: find_paths(row.body) for row in rows if row.project == scope.project}
    named = {memory_id: paths for memory_id, paths in named.items() if paths}
    if not named:
        return []
    return branch.findings(
        conn,
        project=scope.project,
        checkout=scope.checkout,
        head=project_scope.head(scope).commit,
        data_dir=data_dir,
        named=named,
    )


def labelled(found: Iterable[Finding]) -> set[int]:
    """The memories a branch finding among `found` is about."""
    return {f.ids[0] for f in found if f.kind in ("unmerged", "orphaned")}


def _with_authors(conn: sqlite3.Connection, findings: list[Finding]) -> list[Finding]:
    """Label the team memories a finding names with who shared them."""
    from synapse_git.team.shared_table import authors

    found = authors(conn, sorted({memory_id for f in findings for memory_id in f.ids}))
    if not found:
        return findings
    return [
        replace(f, authors=tuple((i, found[i]) for i in f.ids if i in found))
        if any(i in found for i in f.ids)
        else f
        for f in findings
    ]


def _team_forks(conn: sqlite3.Connection, scope: Scope, found: Sequence[Finding]) -> list[Finding]:
    """A shared memory changed on two clones at once: the merge kept both versions
    as a chain, to be looked at by a person (docs/team.md, "Merging")."""
    from synapse_git.team.forks import forks

    paired = {frozenset(f.ids) for f in found if f.kind == "conflict"}
    out: list[Finding] = []
    for fork in forks(conn, scope.project):
        if frozenset((fork.later, fork.earlier)) in paired:
            continue
        if fork.chained:
            detail = (
                f"memory {fork.later} replaced {fork.earlier}: both are changes of one shared "
                "memory made on two clones at once, and the merge kept the later one; check "
                f"that {fork.later} still says what {fork.earlier} did, then forget "
                f"{fork.earlier}"
            )
            suggest = command("synapse", "memory", "forget", str(fork.earlier))
        else:
            detail = (
                f"memory {fork.later} and {fork.earlier} are two live versions of one shared "
                "memory, changed on two clones at once"
            )
            suggest = command(
                "synapse", "memory", "supersede", str(fork.earlier), "--by", str(fork.later)
            )
        ids = (fork.later, fork.earlier)
        out.append(Finding("conflict", ids, detail, suggest, newer=fork.later, older=fork.earlier))
    return out


def changed_files(
    rows: Sequence[Memory],
    scope: Scope,
    limits: DriftSettings | None,
    find_paths: Callable[[str], list[str]] | None = None,
) -> list[Finding]:
    """`changed` findings about `rows` (docs/drift.md, changed)."""
    from synapse_git.drift.changed_since import in_scope

    return in_scope(rows, scope, limits or DriftSettings(), find_paths)


def _ordered(findings: list[Finding]) -> list[Finding]:
    order = ("stale", "orphaned", "conflict", "duplicate", "unverified", "unmerged", "changed")
    rank = {kind: n for n, kind in enumerate(order)}
    return sorted(findings, key=lambda f: (rank[f.kind], f.ids))


# -- about a few memories (recall, remember) ------------------------------------------


def about(
    conn: sqlite3.Connection,
    scope: Scope,
    ids: Sequence[int],
    *,
    kinds: Iterable[str] = RECALL_KINDS,
    quote: bool = True,
    corrections_only: bool = False,
    kept: TermLists | None = None,
    limits: DriftSettings | None = None,
    data_dir: Path | None = None,
) -> list[Finding]:
    """Findings that involve any of `ids` (`changed` only when asked); a newer
    contradicting memory outside `ids` is quoted (abridged) so the caller sees the correction. With
    `corrections_only` (recall), a memory outside `ids` is looked for among those
    stored after the one it would contradict, and conflicts between `ids` are all
    found; `kept` carries word look-ups from one such call to the next."""
    chosen = set(kinds)
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    if kept is not None:
        kept.follow(conn)
    # What the store alone decides about these hits, kept with the look-ups while it
    # is unchanged; what git decides (paths, branches) is asked again every time.
    asked = (tuple(wanted), tuple(scope.projects))
    rows, cut = _kept_or(kept, ("rows", asked), lambda: _rows_of(conn, scope, wanted))
    if not rows:
        return []
    # The same hits come back recall after recall: their paths are remembered by text.
    findings = branch_findings(conn, scope, rows, data_dir, remembered)
    held = labelled(findings)
    findings = [f for f in findings if f.kind in chosen]
    here = [row for row in rows if row.id not in held]
    if chosen & {"stale", "unverified"}:
        # Recall answers in milliseconds: it does not search older history.
        found = stale(here, scope, chosen, search_older=not corrections_only, named=remembered)
        findings += _settled_whole(conn, found, cut)
    if "conflict" in chosen:
        findings += _kept_or(
            kept,
            ("conflict", asked, quote, corrections_only),
            lambda: conflicts_about(
                conn, scope, rows, quote=quote, corrections_only=corrections_only, kept=kept
            ),
        )
    if "duplicate" in chosen:
        findings += _kept_or(
            kept, ("duplicate", asked), lambda: duplicates(conn, scope, [row.id for row in rows])
        )
    if "changed" in chosen:
        findings += changed_files(here, scope, limits)
    return _with_authors(conn, _ordered(not_kept(conn, findings)))


def _rows_of(
    conn: sqlite3.Connection, scope: Scope, wanted: Sequence[int]
) -> tuple[list[Memory], set[int]]:
    """The live memories of `wanted` that `scope` sees, by id, with the ids of those
    whose body drift reads only the opening of."""
    where, scoped = memories.in_scope_sql(scope.projects)
    marks = ", ".join("?" for _ in wanted)
    params: list[object] = [*wanted, *scoped]
    return _split(
        conn.execute(
            f"SELECT {_WINDOWED}, length(body) > {WINDOW} FROM memories WHERE id IN ({marks})"
            f" AND state = 'live' AND {where} ORDER BY id",
            params,
        )
    )


def _kept_or(kept: TermLists | None, key: Hashable, find: Callable[[], _T]) -> _T:
    """What `find` answers, kept in `kept` under `key` while the store is unchanged."""
    if kept is None:
        return find()
    found: _T | None = kept.found_about.get(key)
    if found is None:
        found = find()
        kept.keep_about(key, found)
    return found
