"""The issue-level targets on the labeled sets (docs/recall.md, "Labeled sets and
figures"), asked as a caller is told to ask: with the rewordings two writers
wrote for each question seeing only the questions (sets/blind-*.json), the
first one, the first two or all of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from measure_sets import measure

SETS = Path(__file__).with_name("sets")


@pytest.mark.parametrize("count", [1, 2, 3])
@pytest.mark.parametrize("writer", ["a", "b"])
@pytest.mark.parametrize("split", ["dev", "test"])
def test_rewordings_answer_and_abstain(split: str, writer: str, count: int) -> None:
    blind = json.loads((SETS / f"blind-{writer}.json").read_text(encoding="utf-8"))
    figures = measure(split, {question: said[:count] for question, said in blind.items()})
    print(json.dumps({k: v for k, v in figures.items() if "blind" in k}))
    # A question nothing answers: at most one hit not marked weak in two, on
    # average (0.47 at worst, test with three of writer b's; 0.53 before alike
    # answers were marked weak, recall/alike.py; 0.65 to 0.77 when rewordings
    # agreed on a note by one word it holds in passing).
    assert figures["none + blind"]["hits"] <= 0.5
    # An answerable one: its answer given as weak, or left out while recall held
    # its words, at most one time in twenty.
    assert figures["all answerable + blind"]["false abstention"] <= 0.05
    assert figures["paraphrase + blind"]["found@5"] >= 0.8
    for kind in ("identifier", "lexical", "morphology", "typo"):
        assert figures[kind + " + blind"]["found"] == 1.0
