"""A first sync of a large team file: the new memories go into the store set-based,
and end up as if each had been written alone (indexes, duplicates, ids, history)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from support import make_repo

from synapse_git.service import Synapse
from synapse_git.store import memories
from synapse_git.team import records
from synapse_git.team.records import Record

AUTHOR = "Carol <carol@example.com>"
STAMP = "2026-01-02T03:04:05+00:00"


def record(n: int, **changes: str | None) -> Record:
    made = Record(
        f"u{n:05d}",
        f"Service area{n} keeps its queue depth under {n + 7} items.",
        f"docs/area{n}.md",
        AUTHOR,
        STAMP,
        STAMP,
        None,
        "live",
    )
    return made._replace(**changes)


def test_a_large_first_sync_stores_and_indexes_every_memory(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    svc = Synapse()
    scope = svc.scope(root)
    local = svc.remember("A local note that was here before the team file.", scope).id
    team = [record(n) for n in range(300)]
    team[5] = team[5]._replace(state="forgotten")
    team[7] = team[7]._replace(body="The corrected note seven.", supersedes=team[6].id)
    team[6] = team[6]._replace(state="superseded")
    records.write(root / records.FILE, team)

    report = svc.sync_team(scope)
    assert len(report.added) == 300 and not report.skipped
    assert local not in report.added and min(report.added) > local
    assert svc.check().ok
    # 298 live from the file (one forgotten, one superseded) and the local note.
    assert svc.list_memories(scope).total == 299
    hits = svc.recall("queue depth area123", scope).hits
    assert hits and hits[0].body == team[123].body
    assert hits[0].author == AUTHOR
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        rows = dict(conn.execute("SELECT uid, memory_id FROM shared"))
        stored = memories.get(conn, rows[team[123].id], [scope.project or ""])
        assert stored is not None
        assert (stored.created_at, stored.updated_at, stored.source) == (
            STAMP,
            STAMP,
            team[123].source,
        )
        states = dict(conn.execute("SELECT id, state FROM memories"))
    assert states[rows[team[5].id]] == "forgotten"
    assert states[rows[team[6].id]] == "superseded"
    assert len(set(rows.values())) == 300

    again = svc.sync_team(scope)
    assert again.unchanged and again.changed == 0
    after = svc.remember("A note written after the sync.", scope).id
    assert after > max(report.added)


def test_a_synced_memory_is_the_duplicate_of_the_same_text_remembered_here(
    tmp_path: Path,
) -> None:
    root = make_repo(tmp_path / "repo")
    svc = Synapse()
    scope = svc.scope(root)
    records.write(root / records.FILE, [record(n) for n in range(3)])
    added = svc.sync_team(scope).added
    # The set-based write keeps the same duplicate key as a memory written alone.
    again = svc.remember("  service AREA1 keeps its queue depth under 8 items.", scope)
    assert again.duplicate_of == added[1]


def test_a_sync_that_fails_leaves_the_store_as_it_was(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    svc = Synapse()
    scope = svc.scope(root)
    svc.remember("Kept from before.", scope)
    records.write(root / records.FILE, [record(n) for n in range(50)])
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        # Refusing the last shared row fails the sync after every memory is in.
        conn.execute(
            "CREATE TRIGGER refuse AFTER INSERT ON shared WHEN new.uid = 'u00049'"
            " BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
        conn.commit()
    try:
        svc.sync_team(scope)
    except Exception as exc:  # the store's error, whatever its class
        assert "refused" in str(exc)
    else:
        raise AssertionError("the sync should have failed")
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        conn.execute("DROP TRIGGER refuse")
        conn.commit()
    assert svc.list_memories(scope).total == 1
    assert svc.check().ok
    assert len(svc.sync_team(scope).added) == 50
    assert svc.list_memories(scope).total == 51


def test_many_changed_lines_are_applied_with_their_history(tmp_path: Path) -> None:
    root = make_repo(tmp_path / "repo")
    svc = Synapse()
    scope = svc.scope(root)
    team = [record(n) for n in range(200)]
    team[3] = team[3]._replace(state="forgotten")
    records.write(root / records.FILE, team)
    assert len(svc.sync_team(scope).added) == 200
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        ids: dict[str, int] = dict(conn.execute("SELECT uid, memory_id FROM shared"))

    changed = list(team)
    for n in range(10, 110):
        changed[n] = changed[n]._replace(body=f"Area{n} was resized to {n * 2} items.")
    for n in range(110, 130):
        changed[n] = changed[n]._replace(state="forgotten")
    changed[130] = changed[130]._replace(body="Edited, then forgotten.", state="forgotten")
    changed[3] = changed[3]._replace(state="live")  # brought back
    changed[4] = changed[4]._replace(author="Dora <dora@example.com>")  # only the author
    del changed[150:160]  # lines a teammate removed
    records.write(root / records.FILE, changed)

    report = svc.sync_team(scope)
    edited = [ids[team[n].id] for n in (*range(10, 110), 130)]
    assert sorted(report.updated) == sorted([*edited, ids[team[3].id]])
    removed = [ids[team[n].id] for n in range(150, 160)]
    assert sorted(report.forgotten) == sorted([ids[team[n].id] for n in range(110, 131)] + removed)
    assert svc.check().ok
    assert svc.list_memories(scope).total == 200 - 21 - 10
    with closing(sqlite3.connect(svc.config.db_path)) as conn:
        rows = {
            uid: (body, state, author, line)
            for uid, body, state, author, line in conn.execute(
                "SELECT s.uid, m.body, m.state, s.author, s.line"
                " FROM shared s JOIN memories m ON m.id = s.memory_id"
            )
        }
    for r in changed:
        assert rows[r.id] == (r.body, r.state, r.author, r.line())
    for n in range(150, 160):
        assert rows[team[n].id][:2] == (team[n].body, "forgotten") and rows[team[n].id][3] == ""
    hits = svc.recall("area42 resized", scope).hits
    assert hits and hits[0].body == "Area42 was resized to 84 items."
    # An edited memory keeps the duplicate key a memory edited alone would have.
    same = svc.remember("area42 was resized to 84 items.", scope)
    assert same.duplicate_of == ids[team[42].id]
    # The old versions are kept as one edit or change of state at a time kept them.
    both = [(v.body, v.state, v.change) for v in svc.history(ids[team[130].id], scope).versions]
    assert both == [
        (team[130].body, "live", "edit"),
        ("Edited, then forgotten.", "live", "forgotten by the team"),
    ]
    back = svc.history(ids[team[3].id], scope).versions
    assert [(v.state, v.change) for v in back][-1] == ("forgotten", "live by the team")
    gone = svc.history(ids[team[155].id], scope).versions
    assert [(v.state, v.change) for v in gone] == [("live", "no longer shared by the team")]
    assert svc.sync_team(scope).unchanged

    # A removed line that comes back brings its memory back.
    records.write(root / records.FILE, team[:151])
    assert ids[team[150].id] in svc.sync_team(scope).updated
