"""`memory import` writes its new rows many to one statement (docs/store.md#import-and-export):
each index gains one segment for them instead of one a row, and what an import
guarantees is unchanged across the statements: line order, duplicates within
the import and against the store, all or nothing on a bad line."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from synapse_git.errors import BadInput
from synapse_git.service import Synapse
from synapse_git.store import database, integrity, merging, staging
from synapse_git.store.schema import INDEXES

# More lines than one statement writes, so an import spans several.
MANY = staging.ROWS * 2 + 7


def jsonl(*bodies: str, project: str | None = None) -> list[str]:
    return [json.dumps({"body": text, "project": project}) for text in bodies]


def notes(count: int, first: int = 0) -> list[str]:
    return [f"note {n} about topic{n % 13}" for n in range(first, first + count)]


def segment_counts(db: Path) -> dict[str, int]:
    with closing(sqlite3.connect(db)) as conn:
        return {index: merging.segments(conn, index) for index in INDEXES}


def test_a_small_import_adds_one_segment_to_each_index(outside: Path, isolated_store: Path) -> None:
    svc = Synapse()
    svc.import_lines(jsonl(*notes(300)))
    before = segment_counts(isolated_store / "memory.db")
    # 40 of 340 memories: less than a fifth, so the import merges nothing itself.
    report = svc.import_lines(jsonl(*notes(40, first=300)))
    assert report.imported == 40
    after = segment_counts(isolated_store / "memory.db")
    assert after == {index: before[index] + 1 for index in INDEXES}
    found = svc.recall("note 321", svc.scope(outside)).as_json()
    assert found["hits"][0]["body"] == "note 321 about topic9"


def test_an_import_of_several_statements_keeps_line_order_and_indexes(
    outside: Path, isolated_store: Path
) -> None:
    svc = Synapse()
    bodies = notes(MANY)
    report = svc.import_lines(jsonl(*bodies))
    assert (report.imported, report.duplicates, report.lines) == (MANY, 0, MANY)
    exported = [json.loads(line)["body"] for line in svc.export()]
    assert exported == bodies
    with closing(database.connect(isolated_store / "memory.db")) as conn:
        ids = [row[0] for row in conn.execute("SELECT id FROM memories ORDER BY id")]
        assert ids == list(range(1, MANY + 1))
        assert integrity.check(conn).ok
    scope = svc.scope(outside)
    for n in (0, staging.ROWS - 1, staging.ROWS, MANY - 1):
        assert svc.recall(f"note {n}", scope).as_json()["hits"][0]["body"] == bodies[n]


def test_duplicates_are_found_among_rows_not_written_yet_and_written_ones(
    repo: Path, outside: Path
) -> None:
    svc = Synapse()
    svc.import_lines(jsonl("Already stored"))
    bodies = notes(MANY)
    lines = jsonl(*bodies)
    # Line 2 repeats line 1 while it is still held; the last lines repeat line 1
    # and an earlier statement's row after both were written, and the stored memory.
    lines.insert(1, json.dumps({"body": "  NOTE 0   about TOPIC0 ", "project": None}))
    lines += jsonl(bodies[0], bodies[staging.ROWS + 3], "already   STORED")
    # The same text in a project is no duplicate of a global memory.
    lines += jsonl(bodies[5], project=str(repo))
    report = svc.import_lines(lines)
    assert (report.imported, report.duplicates) == (MANY + 1, 4)
    assert [json.loads(line)["body"] for line in svc.export()][1:] == [*bodies, bodies[5]]


def test_a_bad_line_after_several_statements_leaves_nothing(
    outside: Path, isolated_store: Path
) -> None:
    svc = Synapse()
    svc.import_lines(jsonl("kept from before"))
    lines = [*jsonl(*notes(MANY)), '{"body": ""}']
    with pytest.raises(BadInput) as caught:
        svc.import_lines(lines)
    assert str(caught.value) == f"line {MANY + 1}: body is empty; nothing was imported"
    assert [json.loads(line)["body"] for line in svc.export()] == ["kept from before"]
    with closing(database.connect(isolated_store / "memory.db")) as conn:
        assert conn.execute("SELECT count(*) FROM imports").fetchone()[0] == 1
        assert conn.execute("SELECT sum(live) FROM tallies").fetchone()[0] == 1
        assert integrity.check(conn).ok
