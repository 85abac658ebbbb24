"""The labeled corpus: the relevance floor measured against the same search
without it, and recall quality held to a checked-in baseline (a ratchet)."""

from __future__ import annotations

import json
from contextlib import closing
from pathlib import Path

import pytest
from corpus import CASES, MEMORIES

from synapse_git.recall import query_terms, ranking, response
from synapse_git.recall.evaluation import baseline_json, load_cases, regressions
from synapse_git.service import Synapse
from synapse_git.store import database

BASELINE = Path(__file__).with_name("corpus_baseline.json")
SETS = Path(__file__).with_name("sets")


@pytest.fixture
def svc(outside: Path) -> Synapse:
    service = Synapse()
    lines = [json.dumps({"body": body, "source": "", "project": None}) for body in MEMORIES]
    report = service.import_lines(lines)
    assert report.imported == len(MEMORIES)
    return service


def _cases_file(tmp_path: Path) -> Path:
    parts = []
    for query, expect in CASES:
        parts.append("[[case]]\nquery = " + json.dumps(query, ensure_ascii=False))
        if expect is not None:
            parts.append("expect = " + json.dumps(expect, ensure_ascii=False))
    # The labeled sets (sets/dev and sets/test: kinds, rewordings, honest-none
    # questions) are held to the same baseline; sets/dev2, near misses written to
    # tune what is weak, is measured by measure_sets.py alone.
    for labeled in sorted(
        path for split in ("dev", "test") for path in SETS.glob(f"{split}/*.toml")
    ):
        parts.append(labeled.read_text(encoding="utf-8"))
    path = tmp_path / "cases.toml"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path


def _answer_id(expect: str) -> int:
    (index,) = [i for i, body in enumerate(MEMORIES) if expect.casefold() in body.casefold()]
    return index + 1  # imported in order into an empty store


def _hits(svc: Synapse, query: str, *, floor: bool) -> list[int]:
    budget = svc.config.budget(None)
    with closing(database.connect(svc.config.db_path)) as conn:
        found = ranking.search(conn, query_terms.parse(query), (), floor=floor)
        answer = response.build(
            conn, found, budget=budget, limit=budget.hits, project=None, drift=lambda _: []
        )
    return [hit.id for hit in answer.hits]


def test_the_corpus_is_big_and_varied_enough() -> None:
    assert len(MEMORIES) >= 100
    assert len(CASES) >= 40
    assert sum(expect is None for _, expect in CASES) >= 5


def test_floor_loses_no_answer_and_returns_less_beside_it(svc: Synapse) -> None:
    surplus = {True: 0, False: 0}
    for query, expect in CASES:
        ranks = {}
        for floor in (True, False):
            hits = _hits(svc, query, floor=floor)
            wanted = None if expect is None else _answer_id(expect)
            ranks[floor] = hits.index(wanted) + 1 if wanted in hits else None
            surplus[floor] += len([h for h in hits if h != wanted])
        if ranks[False] is not None:
            assert ranks[True] is not None, f"the floor lost the answer to {query!r}"
            assert ranks[True] <= ranks[False], f"the floor moved down the answer to {query!r}"
    print(
        f"\nsurplus beside the answers: {surplus[False]} without the floor, {surplus[True]} with it"
    )
    assert surplus[True] < surplus[False]


def test_corpus_quality_holds_its_baseline(svc: Synapse, tmp_path: Path) -> None:
    report = svc.evaluate(load_cases(_cases_file(tmp_path)), budget="lean")
    print("\n" + json.dumps(baseline_json(report)))
    print(json.dumps(report.kinds()))
    for outcome in report.outcomes:
        if outcome.case.expect is not None and outcome.rank != 1:
            print(f"  rank {outcome.rank}: {outcome.case.query}")
    assert not regressions(report, json.loads(BASELINE.read_text(encoding="utf-8")))
