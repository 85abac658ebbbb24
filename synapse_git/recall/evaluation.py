"""`memory eval` (docs/recall.md): how well recall answers a file of labeled questions.

Each `[[case]]` of CASES.toml has a `query`, an optional `project` (a folder)
and an optional `expect` (text a useful memory contains; none for a question
nothing answers), optional `alternatives` (rewordings, as a caller would pass
them) and an optional `kind` (a label the report groups by). A case's rank is
the position of the first memory holding `expect` in the order recall answers
with at any limit (past the floor, duplicates collapsed, weak hits after the
others: response.answer_order); it `survived` when that text is in a hit of
the budgeted response. `noise` counts the hits a question nothing answers gets
that are not marked weak. Cases are scored as asked, and again with their
alternatives (the `alternatives` figures). A case's optional `decoy` is text of a
note written in its words that answers something else; `decoyed` is the share of
such cases whose first hit is that note, not marked weak.

A top-level `store = "FILE.jsonl"` (relative to the cases file) says which notes the
cases are about: `memory eval` then imports them into a temporary store and scores
that, never the user's own store.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from synapse_git.errors import BadInput, SynapseError
from synapse_git.git.project_scope import Scope
from synapse_git.recall import query_terms, ranking, response, rewordings
from synapse_git.settings import Budget

METRICS = ("top1", "found", "mrr", "survived", "noise", "decoyed")
# Metrics where higher is worse.
_LOWER_BETTER = ("noise", "decoyed")
# Reported only where a case asks for it (a `decoy`), so other files' reports and
# baselines stay as they were.
_OPTIONAL = ("decoyed",)
DEFAULT_EPSILON = 0.02
_KEYS = {"query", "project", "expect", "alternatives", "kind", "decoy"}


# How recall ranks a question and its rewordings: (connection, question, scope,
# hits wanted, rewordings) to the ranked search.
Searcher = Callable[
    [sqlite3.Connection, query_terms.Query, Scope, int, Sequence[query_terms.Query]],
    ranking.Search,
]


@dataclass(frozen=True)
class Case:
    number: int
    query: str
    project: str | None
    expect: str | None
    alternatives: tuple[str, ...] = ()
    kind: str | None = None
    # Text of a note written in the question's words that answers something else.
    decoy: str | None = None


@dataclass(frozen=True)
class Outcome:
    case: Case
    rank: int | None
    survived: bool
    hits: int  # not marked weak
    weak: int = 0
    decoyed: bool = False  # the first hit is the decoy, not marked weak

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.case.query,
            "project": self.case.project,
            "expect": self.case.expect,
            "kind": self.case.kind,
            "rank": self.rank,
            "survived": self.survived,
            "hits": self.hits,
            "weak": self.weak,
            **({"decoy": self.case.decoy, "decoyed": self.decoyed} if self.case.decoy else {}),
        }


@dataclass(frozen=True)
class Report:
    budget: str
    outcomes: tuple[Outcome, ...]
    top1: float | None
    found: float | None
    mrr: float | None
    survived: float | None
    noise: float | None
    decoyed: float | None = None  # share of the decoy cases whose first hit is the decoy
    # The same cases asked with their alternatives (None when no case has any).
    reworded: Report | None = None

    def metrics(self) -> dict[str, float | None]:
        return {
            name: getattr(self, name)
            for name in METRICS
            if name not in _OPTIONAL or getattr(self, name) is not None
        }

    def kinds(self) -> dict[str, dict[str, float | None]]:
        """The metrics of each kind of case (cases without a kind are left out)."""
        labels = dict.fromkeys(o.case.kind for o in self.outcomes if o.case.kind)
        return {
            kind: summarize(
                self.budget, [o for o in self.outcomes if o.case.kind == kind]
            ).metrics()
            for kind in labels
        }

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"budget": self.budget, **self.metrics()}
        if self.reworded is not None:
            data["alternatives"] = self.reworded.metrics()
        if kinds := self.kinds():
            data["kinds"] = kinds
        data["cases"] = [outcome.as_json() for outcome in self.outcomes]
        return data


@dataclass(frozen=True)
class Suite:
    cases: list[Case]
    store: Path | None  # the notes the cases are about, when the file names them


def load_cases(path: Path) -> list[Case]:
    """The cases of a CASES.toml file; a malformed case is an error naming it."""
    return load_suite(path).cases


def load_suite(path: Path) -> Suite:
    """The cases of a CASES.toml file and the store it names, if any."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"{path} is not valid TOML: {exc}") from None
    raw = doc.get("case")
    if not isinstance(raw, list) or not raw:
        raise BadInput(f"{path}: no [[case]] tables found")
    if unknown := set(doc) - {"case", "store"}:
        raise BadInput(f"{path}: unknown key {sorted(unknown)[0]!r} (use store, [[case]])")
    store = doc.get("store")
    if store is not None and not (isinstance(store, str) and store.strip()):
        raise BadInput(f"{path}: 'store' must be the path of a JSON Lines file")
    cases = [_case(path, number, item) for number, item in enumerate(raw, start=1)]
    return Suite(cases, None if store is None else path.parent / store)


def _case(path: Path, number: int, item: object) -> Case:
    where = f"{path}: case {number}"
    if not isinstance(item, dict):
        raise BadInput(f"{where} is not a table")
    if unknown := set(item) - _KEYS:
        raise BadInput(f"{where}: unknown key {sorted(unknown)[0]!r} (use query, project, expect)")
    query, project, expect = item.get("query"), item.get("project"), item.get("expect")
    alternatives, kind = item.get("alternatives", []), item.get("kind")
    decoy = item.get("decoy")
    if decoy is not None and not (isinstance(decoy, str) and decoy.strip()):
        raise BadInput(f"{where}: 'decoy' must be non-empty text")
    if not (
        isinstance(alternatives, list)
        and len(alternatives) <= rewordings.MAX_ALTERNATIVES
        and all(isinstance(text, str) for text in alternatives)
    ):
        raise BadInput(
            f"{where}: 'alternatives' must be a list of at most"
            f" {rewordings.MAX_ALTERNATIVES} strings"
        )
    if kind is not None and not (isinstance(kind, str) and kind):
        raise BadInput(f"{where}: 'kind' must be a non-empty string")
    if not isinstance(query, str):
        raise BadInput(f"{where}: 'query' must be a string")
    if project is not None and not (isinstance(project, str) and project):
        raise BadInput(f"{where}: 'project' must be a folder path")
    if expect is not None and not (isinstance(expect, str) and expect.strip()):
        raise BadInput(f"{where}: 'expect' must be non-empty text")
    return Case(number, query, project, expect, tuple(alternatives), kind, decoy)


def run(
    conn: sqlite3.Connection,
    cases: Sequence[Case],
    budget: Budget,
    resolve: Callable[[str | None], Scope],
    search: Searcher | None = None,
) -> Report:
    """Recall every case on `conn` (opened read-only) and score the answers; `search`
    ranks a query and its rewordings as recall does (default: the lexical rankings)."""
    outcomes, reworded = [], []
    for case in cases:
        try:
            scope = resolve(case.project or os.getcwd())
        except SynapseError as exc:
            raise BadInput(f"case {case.number} ({case.query!r}): {exc}") from None
        outcomes.append(_score(conn, case, scope, budget, (), search))
        reworded.append(_score(conn, case, scope, budget, case.alternatives, search))
    report = summarize(budget.name, outcomes)
    if any(case.alternatives for case in cases):
        report = replace(report, reworded=summarize(budget.name, reworded))
    return report


def _score(
    conn: sqlite3.Connection,
    case: Case,
    scope: Scope,
    budget: Budget,
    alternatives: Sequence[str],
    search: Searcher | None = None,
) -> Outcome:
    parsed = query_terms.parse(case.query)
    others = rewordings.parse(alternatives)
    if search is not None:
        found = search(conn, parsed, scope, budget.hits, others)
    elif parsed.empty and not others:
        found = ranking.recent(conn, parsed, scope.projects, budget.hits)
    else:
        queries = [parsed, *others] if not parsed.empty else others
        found = rewordings.search(conn, queries, scope.projects)
    answer = response.build(
        conn, found, budget=budget, limit=budget.hits, project=scope.project, drift=lambda _: []
    )
    strong = len([hit for hit in answer.hits if not hit.weak])
    weak = len(answer.hits) - strong
    first = answer.hits[0] if answer.hits else None
    decoyed = bool(
        case.decoy
        and first is not None
        and not first.weak
        and case.decoy.casefold() in first.body.casefold()
    )
    if case.expect is None:
        return Outcome(case, None, False, strong, weak, decoyed)
    expect = case.expect.casefold()
    # Ranked as recall answers: duplicates collapsed, weak hits after the others.
    kept = [c.id for c in response.answer_order(conn, found).ranked]
    bodies = {m.id: m.body for m in ranking.rows(conn, kept)}
    rank = next((n for n, i in enumerate(kept, start=1) if expect in bodies[i].casefold()), None)
    survived = any(expect in hit.body.casefold() for hit in answer.hits)
    return Outcome(case, rank, survived, strong, weak, decoyed)


def summarize(budget: str, outcomes: Sequence[Outcome]) -> Report:
    answerable = [o for o in outcomes if o.case.expect is not None]
    unanswerable = [o for o in outcomes if o.case.expect is None]

    def share(values: Sequence[float]) -> float | None:
        return round(sum(values) / len(values), 4) if values else None

    return Report(
        budget,
        tuple(outcomes),
        top1=share([o.rank == 1 for o in answerable]),
        found=share([o.rank is not None for o in answerable]),
        mrr=share([1 / o.rank if o.rank else 0.0 for o in answerable]),
        survived=share([o.survived for o in answerable]),
        noise=share([o.hits for o in unanswerable]),
        decoyed=share([o.decoyed for o in outcomes if o.case.decoy]),
    )


def read_baseline(path: Path) -> dict[str, float]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInput(f"cannot read baseline {path}: {exc.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise BadInput(f"baseline {path} is not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise BadInput(f"baseline {path} must be a JSON object")
    known = (*METRICS, "epsilon", "alternatives")
    unknown = [key for key in doc if key not in known]
    if unknown:
        # A misspelt or nested metric would otherwise be compared against nothing.
        raise BadInput(
            f"baseline {path}: unknown key {unknown[0][:60]!r}: the keys are {', '.join(known)}"
        )
    reworded = doc.get("alternatives", {})
    if not isinstance(reworded, dict):
        raise BadInput(f"baseline {path}: 'alternatives' must be a JSON object")
    out: dict[str, float] = {}
    keys = [(key, doc.get(key)) for key in (*METRICS, "epsilon")]
    keys += [(f"{REWORDED}{key}", reworded.get(key)) for key in METRICS]
    for key, value in keys:
        if value is None:
            continue
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise BadInput(f"baseline {path}: {key!r} must be a number")
        # A negative tolerance would fail every run; the bound keeps float() from overflowing.
        low = 0 if key == "epsilon" else -1_000_000
        if not low <= value <= 1_000_000:
            raise BadInput(f"baseline {path}: {key!r} is {str(value)[:40]}: use {low} to 1000000")
        out[key] = float(value)
    return out


REWORDED = "alternatives."


def baseline_json(report: Report, epsilon: float = DEFAULT_EPSILON) -> dict[str, Any]:
    data: dict[str, Any] = {**report.metrics(), "epsilon": epsilon}
    if report.reworded is not None:
        data["alternatives"] = report.reworded.metrics()
    return data


def regressions(report: Report, baseline: dict[str, float]) -> list[str]:
    """Each metric worse than its baseline by more than epsilon (noise worse = higher),
    asked as written and (`alternatives.` figures) with the cases' rewordings."""
    epsilon = baseline.get("epsilon", DEFAULT_EPSILON)
    worse = []
    for prefix, measured in (("", report), (REWORDED, report.reworded)):
        for name in METRICS:
            now = None if measured is None else getattr(measured, name)
            then = baseline.get(prefix + name)
            if now is None or then is None:
                continue
            drop = (now - then) if name in _LOWER_BETTER else (then - now)
            if drop > epsilon + 1e-9:
                worse.append(
                    f"{prefix}{name} {now:g} against baseline {then:g} (epsilon {epsilon:g})"
                )
    return worse
