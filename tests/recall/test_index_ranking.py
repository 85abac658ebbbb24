"""One index's bm25 ranking is scored in the index alone and checked for visibility
after: the ids it answers are those of ranking only the visible matches."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.recall import index_ranking, term_counts
from synapse_git.recall.index_ranking import Plan
from synapse_git.store import database
from synapse_git.textrules import norm_key

# The loud project's memories say the word often and rank first; the quiet one's
# say it once, so from the quiet project the best matches are mostly not visible.
LOUD, QUIET = "/work/loud", "/work/quiet"


def _body(i: int, project: str | None) -> str:
    times = 3 if project == LOUD else 1
    return " ".join(["ocelot"] * times + [f"note{i}", "about", "the", "build"])


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    path = tmp_path / "store.db"
    owners = [LOUD] * 180 + [QUIET] * 12 + [None] * 8
    with closing(database.connect(path)) as opened:
        with database.transaction(opened):
            opened.executemany(
                "INSERT INTO memories (body, source, project, created_at, updated_at, norm)"
                " VALUES (?, '', ?, ?, ?, ?)",
                [
                    (body, project, f"2025-01-01T00:00:{i:06d}", "x", norm_key(body))
                    for i, project in enumerate(owners, start=1)
                    for body in [_body(i, project)]
                ],
            )
        yield opened


def _visible_ranking(conn: sqlite3.Connection, projects: list[str], depth: int) -> list[int]:
    """The ranking as one query over the visible matches only."""
    marks = ", ".join("?" for _ in projects)
    rows = conn.execute(
        "SELECT memory.rowid FROM memory JOIN memories m ON m.id = memory.rowid"
        f" WHERE memory MATCH ? AND (m.project IS NULL OR m.project IN ({marks}))"
        f" ORDER BY bm25(memory, 1.0, 0.3), memory.rowid DESC LIMIT {depth}",
        ['"ocelot"', *projects],
    )
    return [int(row[0]) for row in rows]


@pytest.mark.parametrize("projects", [[LOUD], [QUIET], [LOUD, QUIET]])
@pytest.mark.parametrize("depth", [5, 50])
def test_the_best_visible_matches_whoever_else_ranks_above_them(
    conn: sqlite3.Connection, projects: list[str], depth: int
) -> None:
    plan = Plan('"ocelot"', False, ('"ocelot"',))
    found = index_ranking.rank(conn, "memory", plan, projects, depth)
    assert found == _visible_ranking(conn, projects, depth)
    assert len(found) == min(depth, 8 + sum(12 if p == QUIET else 180 for p in projects))


def test_single_trigrams_are_asked_rarest_first_within_a_budget(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In the fixture "oce"/"cel"/"lot" are in all 200 memories, "abo" in 200,
    # "e12" in a few: with room for about 250 matches, the commoner ones are left out.
    monkeypatch.setattr(index_ranking, "SCORED_AT_MOST", 250)
    counts = term_counts.TermCounts(conn)
    notes: list[str] = []
    plan = index_ranking.plan_for(counts, "memorygram", ["oce", "e12", "abo", "lot"], notes)
    # e12 (rarest) and then abo (the first of the equally common, by spelling) fit.
    assert plan.items == ("e12", "abo")
    assert any("left out" in note for note in notes)
    # Nothing is left out where the budget holds every item, and the item order is kept.
    monkeypatch.setattr(index_ranking, "SCORED_AT_MOST", 10_000)
    plan = index_ranking.plan_for(
        term_counts.TermCounts(conn), "memorygram", ["oce", "e12", "abo", "lot"], []
    )
    assert plan.items == ("oce", "e12", "abo", "lot")


def test_a_misspelled_words_trigrams_are_scored_within_the_budget_each_alone_too(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "oce" and "lot" are in all 200 memories, "e12" in a few: with room for 150
    # matches, the rarest is scored; with none that fits, they are ranked within
    # the newest matches, as a common word is, not scored by bm25 over all 200.
    monkeypatch.setattr(index_ranking, "SCORED_AT_MOST", 150)
    counts, notes = term_counts.TermCounts(conn), []
    plan = index_ranking.rescue_plan(counts, ["oce", "e12", "lot"], notes)
    assert (plan.items, plan.windowed, notes[0]) == (
        ("e12",),
        False,
        "memorygram: oce, lot left out (150+ matches to score)",
    )
    notes = []
    plan = index_ranking.rescue_plan(term_counts.TermCounts(conn), ["oce", "lot"], notes)
    assert (plan.items, plan.windowed) == (("oce", "lot"), True)
    ranked = index_ranking.rank(conn, "memorygram", plan, [LOUD, QUIET], 5)
    assert ranked == [200, 199, 198, 197, 196]
    # A trigram past the budget is counted no further than it: its count decides nothing.
    assert counts.at_most("oce", 150) == 151
    assert counts("memorygram", "oce") == 200
    assert counts.at_most("e12", 150) == counts("memorygram", "e12") < 150


def test_a_counted_trigram_has_its_rows_read_only_when_asked(conn: sqlite3.Connection) -> None:
    counts = term_counts.TermCounts(conn)
    assert counts("memorygram", "e12") == len(counts.matches("memorygram", "e12")) > 0
    assert counts.matches("memorygram", "oce") == sorted(counts.matches("memorygram", "oce"))
    assert len(counts.matches("memorygram", "oce")) == counts("memorygram", "oce") == 200


def test_words_are_asked_rarest_first_within_a_budget(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "ocelot", "about", "build" are in all 200 memories, "note12" in one: with room
    # for 150 matches only the rarest is scored; the others still count in coverage.
    monkeypatch.setattr(index_ranking, "WORDS_SCORED_AT_MOST", 150)
    notes: list[str] = []
    counts = term_counts.TermCounts(conn)
    plan = index_ranking.plan_for(counts, "memory", ["ocelot", "note12", "build"], notes)
    assert plan.items == ("note12",)
    assert any("ocelot, build left out (150+ matches to score)" in note for note in notes)
    # The question's own words come first: "note12" standing for a rarer word of the
    # same meaning would otherwise take the budget from them.
    notes = []
    plan = index_ranking.plan_for(counts, "memory", ["ocelot", "note12"], notes, first=["ocelot"])
    assert plan.items == ("ocelot",)
    assert any("note12 left out (150+ matches to score)" in note for note in notes)
    monkeypatch.setattr(index_ranking, "WORDS_SCORED_AT_MOST", 2000)
    plan = index_ranking.plan_for(
        term_counts.TermCounts(conn), "memory", ["ocelot", "note12", "build"], []
    )
    assert plan.items == ("ocelot", "note12", "build")


def test_the_budget_goes_to_whole_words_before_one_words_rarer_form(
    conn: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "note12" stands for a rare form of "ocelot" (`work` for `workers`): asked
    # rarest first it would take the budget, and "build", a word of the question
    # rarer than "ocelot" with its forms, would never be ranked.
    monkeypatch.setattr(index_ranking, "WORDS_SCORED_AT_MOST", 150)
    notes: list[str] = []
    plan = index_ranking.plan_for(
        term_counts.TermCounts(conn),
        "memory",
        ["ocelot", "build", "note12"],
        notes,
        first=["ocelot", "build", "note12"],
        terms=[["ocelot", "note12"], ["build"]],
    )
    assert plan.items == ("build",)
    assert any("ocelot, note12 left out (150+ matches to score)" in note for note in notes)
