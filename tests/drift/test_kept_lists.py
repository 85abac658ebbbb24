"""Drift's word look-ups about recall's hits are kept between recalls while the
store is unchanged (docs/drift.md#how-the-work-is-bounded): a kept answer is
only used where it is exact, any committed change forgets them all, and a
long-lived service answers every recall as a fresh one would."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conflict_cases import CONFLICTS
from support import run_cli_process

from synapse_git.drift import paths
from synapse_git.drift.conflict_candidates import KEPT_MEMORIES, TermLists
from synapse_git.service import Synapse
from synapse_git.store import database

# The trace shows each statement with its values in place.
LOOKUP = re.compile(r"SELECT rowid FROM memory WHERE memory MATCH .* AND rowid > \d+ LIMIT")


def fresh(query: str, folder: Path) -> dict[str, Any]:
    svc = Synapse()
    return svc.recall(query, svc.scope(folder)).as_json()


def test_a_kept_answer_is_used_only_where_it_is_exact(tmp_path: Path) -> None:
    conn = database.connect(tmp_path / "memory.db")
    try:
        kept = TermLists()
        kept.follow(conn)
        kept.put("cache", 10, 50, [12, 15, 40])
        kept.put("deploy", 30, 50, None)
        # A whole list after 10 holds the list after any higher floor, not a lower one.
        assert kept.get("cache", 14, 50) == (True, [15, 40])
        assert kept.get("cache", 10, 50) == (True, [12, 15, 40])
        assert kept.get("cache", 9, 50) == (False, None)
        # Too many after 30 is too many after any lower floor, not a higher one.
        assert kept.get("deploy", 5, 50) == (True, None)
        assert kept.get("deploy", 31, 50) == (False, None)
        # Another bound for "too many" (a store of another size) is never answered.
        assert kept.get("cache", 14, 60) == (False, None)
        assert kept.get("other", 14, 50) == (False, None)
        # Another connection, or a change committed by one, forgets everything.
        other = database.connect(tmp_path / "memory.db")
        try:
            with database.transaction(other):
                other.execute("INSERT INTO imports (imported_at) VALUES ('2025-01-01')")
        finally:
            other.close()
        kept.follow(conn)
        assert kept.get("cache", 14, 50) == (False, None)
    finally:
        conn.close()


def test_recall_reuses_look_ups_until_the_store_changes(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    older, newer = CONFLICTS[0]
    old_id = svc.remember(older, scope, is_global=True).id
    statements: list[str] = []
    with svc.reading() as conn:
        conn.set_trace_callback(statements.append)

    def lookups(query: str) -> tuple[int, dict[str, Any]]:
        statements.clear()
        response = svc.recall(query, scope).as_json()
        return sum(bool(LOOKUP.match(s)) for s in statements), response

    first, response = lookups(older)
    assert first > 0 and old_id in [hit["id"] for hit in response["hits"]]
    again, same = lookups(older)
    assert again == 0 and same == response
    # A correction stored since is found: the change forgot the kept look-ups.
    new_id = svc.remember(newer, scope, is_global=True).id
    after, corrected = lookups(older)
    assert after > 0
    assert any(new_id in finding["ids"] for finding in corrected["drift"])
    assert corrected == fresh(older, outside)


def test_a_long_lived_service_answers_as_a_fresh_one(outside: Path) -> None:
    svc = Synapse()
    scope = svc.scope(outside)
    questions = []
    for older, newer in CONFLICTS[:12]:
        svc.remember(older, scope, is_global=True)
        questions.append(older)
        questions.append(newer)
    stored = []
    for n, (_, newer) in enumerate(CONFLICTS[:12]):
        # Each step changes the store, then every question is asked twice.
        if n % 3 == 2:
            svc.forget(stored[-1], scope)
        else:
            stored.append(svc.remember(newer, scope, is_global=True).id)
        for query in questions[: 2 * (n + 1)]:
            assert svc.recall(query, scope).as_json() == fresh(query, outside)
            assert svc.recall(query, scope).as_json() == fresh(query, outside)


def test_another_process_writing_the_store_is_seen_by_the_next_recall(outside: Path) -> None:
    """What a long-lived service keeps (the MCP server's) is dropped when another
    process (a `synapse` command) changes the store file it reads."""
    svc = Synapse()
    scope = svc.scope(outside)
    older, newer = CONFLICTS[0]
    old_id = svc.remember(older, scope, is_global=True).id
    for _ in range(2):  # the second answered from what the first kept
        assert svc.recall(older, scope).as_json()["drift"] == []

    def another(*args: str) -> dict[str, Any]:
        done = run_cli_process(*args, "--json", cwd=outside)
        assert done.returncode == 0, done.stderr
        answer: dict[str, Any] = json.loads(done.stdout)
        return answer

    # A correction stored by another process is found.
    new_id = another("memory", "remember", "--global", newer)["id"]
    corrected = svc.recall(older, scope).as_json()
    assert any(new_id in finding["ids"] for finding in corrected["drift"])
    assert corrected == fresh(older, outside)
    # Its edit into the same words as the older one makes them duplicates instead.
    another("memory", "edit", str(new_id), older)
    repeated = svc.recall(older, scope).as_json()
    assert [finding["kind"] for finding in repeated["drift"]] == ["duplicate"]
    assert repeated == fresh(older, outside)
    # Forgotten by another process, it is neither found nor reported.
    another("memory", "forget", str(new_id))
    after = svc.recall(older, scope).as_json()
    assert after["drift"] == [] and [hit["id"] for hit in after["hits"]] == [old_id]
    assert after == fresh(older, outside)


def test_what_is_kept_is_bounded(tmp_path: Path) -> None:
    conn = database.connect(tmp_path / "memory.db")
    try:
        kept = TermLists()
        kept.follow(conn)
        for memory_id in range(KEPT_MEMORIES):
            kept.plans[(memory_id, 0, True)] = ([], [])
        kept.short.update((memory_id, False) for memory_id in range(KEPT_MEMORIES))
        kept.follow(conn)  # the store is unchanged, but the plans are at their bound
        assert kept.plans == {} and len(kept.short) == KEPT_MEMORIES
    finally:
        conn.close()
    # A body's paths and looked-up words are remembered for a bounded number of
    # bodies, and only for short ones.
    assert paths.remembered("See src/app.py.") == ["src/app.py"]
    held = paths._remembered.cache_info().currsize
    long_body = "See src/app.py. " + "word " * paths.REMEMBERED_CHARS
    assert paths.remembered(long_body) == ["src/app.py"]
    assert paths._remembered.cache_info().currsize == held
    assert paths._remembered.cache_info().maxsize == paths.REMEMBERED_BODIES


def test_a_correction_that_is_no_hit_is_found_after_another_process_stores_it(
    outside: Path,
) -> None:
    """The hits stay the same while the drift about them changes: what the store
    decided about those hits must not be kept past the change."""
    svc = Synapse()
    scope = svc.scope(outside)
    hit = svc.remember("Deploy from main.", scope, is_global=True).id
    for _ in range(2):
        answer = svc.recall("main", scope).as_json()
        assert [h["id"] for h in answer["hits"]] == [hit] and answer["drift"] == []
    done = run_cli_process("memory", "remember", "--global", "Deploy from release.", cwd=outside)
    assert done.returncode == 0, done.stderr
    answer = svc.recall("main", scope).as_json()
    assert [h["id"] for h in answer["hits"]] == [hit]
    assert [finding["kind"] for finding in answer["drift"]] == ["conflict"]
    assert answer == fresh("main", outside)
