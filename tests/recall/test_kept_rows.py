"""A long-lived service keeps the rows recall read (recall/kept_rows.py) while the
store is unchanged: the next recall reads none of them again, and a change made
through another service on the same store file forgets them all, so every answer
is the one a fresh process gives."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

# The reads that kept rows stand in for: visibility, texts, an answer's facts and
# bodies, how many memories hold a word.
BY_ID = re.compile(
    r"SELECT id, (project FROM|substr\(CAST\(body \|\| ' ' \|\| source|project, source, created_at)"
    r"|SELECT substr\(CAST\(body AS BLOB\), 1, \d+\) FROM memories WHERE id"
    r"|SELECT count\(\*\) FROM \(SELECT rowid FROM memory WHERE"
)
NOTES = (
    "Deploys go out from main on Fridays.",
    "The deploy script checks the changelog first.",
    "Deploy previews are built for every branch.",
)


def fresh(query: str, folder: Path) -> dict[str, Any]:
    svc = Synapse()
    return svc.recall(query, svc.scope(folder)).as_json()


def traced(repo: Path) -> tuple[Synapse, Scope, list[str]]:
    """A service holding NOTES, and the statements its reading connection runs."""
    svc = Synapse()
    here = svc.scope(repo)
    for text in NOTES:
        svc.remember(text, here)
    statements: list[str] = []
    with svc.reading() as conn:
        conn.set_trace_callback(statements.append)
    return svc, here, statements


def test_recall_reads_each_row_once_while_the_store_is_unchanged(repo: Path) -> None:
    svc, here, statements = traced(repo)
    first = svc.recall("deploy", here).as_json()
    assert len(first["hits"]) == 3
    assert any(BY_ID.match(s) for s in statements)
    statements.clear()
    assert svc.recall("deploy", here).as_json() == first
    assert not any(BY_ID.match(s) for s in statements)


def test_a_change_through_another_service_is_seen_by_the_next_recall(repo: Path) -> None:
    svc = Synapse()
    here = svc.scope(repo)
    ids = [svc.remember(text, here).id for text in NOTES]
    assert len(svc.recall("deploy", here).hits) == 3
    other = Synapse()
    there = other.scope(repo)
    # A new source is shown, not the one read before.
    other.edit(ids[2], there, source="runbook.md")
    answer = svc.recall("deploy", here).as_json()
    assert {hit["id"]: hit["source"] for hit in answer["hits"]}[ids[2]] == "runbook.md"
    assert answer == fresh("deploy", repo)
    # A body edited into another's words collapses into it as a duplicate.
    other.edit(ids[1], there, body=NOTES[0])
    answer = svc.recall("deploy", here).as_json()
    assert len(answer["hits"]) == 2
    assert answer == fresh("deploy", repo)
    # A forgotten memory is no longer found.
    other.forget(ids[2], there)
    answer = svc.recall("deploy", here).as_json()
    assert ids[2] not in [hit["id"] for hit in answer["hits"]]
    assert answer == fresh("deploy", repo)


TRIGRAM_COUNT = re.compile(r"SELECT count\(\*\) FROM \(SELECT rowid FROM memorygram WHERE")


def test_a_misspelling_s_trigrams_are_counted_once_while_the_store_is_unchanged(
    repo: Path,
) -> None:
    svc, here, statements = traced(repo)
    first = svc.recall("deplyo previews", here).as_json()
    assert first["hits"] and any(TRIGRAM_COUNT.match(s) for s in statements)
    statements.clear()
    # Another question misspelling the same word counts none of its trigrams again.
    again = svc.recall("deplyo script", here).as_json()
    assert again["hits"] and not any(TRIGRAM_COUNT.match(s) for s in statements)
    assert again == fresh("deplyo script", repo)
    # A change through another service: counted again, and answered as afresh.
    other = Synapse()
    other.remember("Deploy previews expire after a week.", other.scope(repo))
    statements.clear()
    answer = svc.recall("deplyo previews", here).as_json()
    assert any(TRIGRAM_COUNT.match(s) for s in statements)
    assert answer == fresh("deplyo previews", repo)
