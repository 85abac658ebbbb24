"""Team memory under concurrency: two clones sharing at the same time through one bare
remote, and two syncs of one store started at the same moment. Nothing is lost,
nothing is stored twice."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path

import pytest
from team_harness import TEAM_FILE, Clone, make_team

from synapse_git.team import records
from synapse_git.team.records import Record

# Real clones racing through a bare remote: minutes on a busy machine.
pytestmark = pytest.mark.slow

ROUNDS = 3
PER_ROUND = 2
# Pushes lose to the other clone's push now and then; each retry pulls first.
MAX_PUSHES = 30


def live_bodies(clone: Clone) -> list[str]:
    with closing(sqlite3.connect(clone.data / "memory.db")) as conn:
        return [body for (body,) in conn.execute("SELECT body FROM memories WHERE state = 'live'")]


def publish(clone: Clone) -> int:
    """Pull (the merge driver settles the team file) and push, again while the remote
    has moved on; how many pushes it took."""
    for attempt in range(1, MAX_PUSHES + 1):
        clone.git("pull", "-q", "--no-edit", "origin", "main")
        if clone.git("push", "-q", "origin", "main", check=False).returncode == 0:
            return attempt
    raise AssertionError(f"{clone.name} could not push in {MAX_PUSHES} tries")


def work(clone: Clone, together: threading.Barrier) -> list[str]:
    """Several rounds of sharing, each committed and pushed; from the second round on,
    an edit of one of the clone's own shared memories too. The bodies it leaves live."""
    try:
        return rounds(clone, together)
    except BaseException:
        together.abort()  # the other clone stops waiting at the barrier
        raise


def rounds(clone: Clone, together: threading.Barrier) -> list[str]:
    mine: dict[int, str] = {}
    for round_ in range(ROUNDS):
        for n in range(PER_ROUND):
            body = f"{clone.name} found in round {round_} that queue q{round_}{n} holds jobs."
            mine[clone.remember(body, "--share")] = body
        if round_:
            first = min(mine)
            mine[first] = f"{clone.name} corrected note {first} in round {round_}."
            clone.cli("memory", "edit", str(first), mine[first])
        clone.commit_all(f"{clone.name}, round {round_}")
        # Both commit before either publishes: every round one of them must merge.
        together.wait()
        publish(clone)
    return list(mine.values())


def test_two_clones_sharing_at_once_through_a_bare_remote_lose_nothing(tmp_path: Path) -> None:
    alice, bob = make_team(tmp_path)
    together = threading.Barrier(2, timeout=300)
    with ThreadPoolExecutor(max_workers=2) as pool:
        left = list(pool.map(work, (alice, bob), (together, together)))
    expected = sorted(left[0] + left[1])
    assert len(expected) == 2 * ROUNDS * PER_ROUND
    for clone in (alice, bob):
        clone.git("pull", "-q", "--no-edit", "origin", "main")
    text = (alice.path / TEAM_FILE).read_text("utf-8")
    assert text == (bob.path / TEAM_FILE).read_text("utf-8")
    for marker in ("<<<<<<<", "=======", ">>>>>>>"):
        assert marker not in text
    merges = alice.git("rev-list", "--merges", "--count", "HEAD").stdout
    assert int(merges) >= ROUNDS
    found, errors = records.parse(text)
    assert not errors
    assert sorted(r.body for r in found.values() if r.state == "live") == expected
    assert len(found) == len(expected)
    for clone in (alice, bob):
        # The hooks (post-merge, post-checkout) already brought every change in.
        again = json.loads(clone.cli("memory", "sync", "--json").stdout)
        assert again["added"] == again["updated"] == again["forgotten"] == []
        assert sorted(live_bodies(clone)) == expected


def team_file(size: int) -> list[Record]:
    stamp = "2026-01-01T00:00:00+00:00"
    author = "Carol <carol@example.com>"
    return [
        Record(
            f"c{n:05d}",
            f"Shard {n} keeps {n % 17} replicas.",
            "",
            author,
            stamp,
            stamp,
            None,
            "live",
        )
        for n in range(size)
    ]


def start(clone: Clone, *args: str) -> subprocess.Popen[str]:
    """`synapse ARGS` in the clone, started and left running."""
    exe = Path(sys.executable).with_name("synapse")
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]
    return subprocess.Popen(
        [*command, *args],
        cwd=clone.path,
        env={**os.environ, **clone.env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_two_syncs_of_one_store_at_once_store_each_memory_once(tmp_path: Path) -> None:
    (clone,) = make_team(tmp_path, ("Carol",))
    records.write(clone.path / records.FILE, team_file(2000))
    # Both start before either has created the store.
    assert not (clone.data / "memory.db").exists()
    started = [start(clone, "memory", "sync", "--json") for _ in range(2)]
    answers = [process.communicate(timeout=120) for process in started]
    assert [process.returncode for process in started] == [0, 0], answers
    reports = [json.loads(out) for out, _ in answers]
    added = [memory_id for report in reports for memory_id in report["added"]]
    assert len(added) == len(set(added)) == 2000
    bodies = live_bodies(clone)
    assert len(bodies) == 2000 and not [b for b, n in Counter(bodies).items() if n > 1]
    with closing(sqlite3.connect(clone.data / "memory.db")) as conn:
        assert conn.execute("SELECT count(DISTINCT uid), count(*) FROM shared").fetchone() == (
            2000,
            2000,
        )


def test_memories_shared_at_once_from_one_clone_all_reach_the_file(tmp_path: Path) -> None:
    (clone,) = make_team(tmp_path, ("Dan",))
    bodies = [f"Worker {n} drains the queue named jobs-{n}." for n in range(4)]
    started = [start(clone, "memory", "remember", body, "--share") for body in bodies]
    answers = [process.communicate(timeout=120) for process in started]
    assert [process.returncode for process in started] == [0] * 4, answers
    # Each share rewrote the file inside its own write transaction: none lost another's.
    assert sorted(str(line["body"]) for line in clone.team_lines()) == sorted(bodies)
    assert sorted(live_bodies(clone)) == sorted(bodies)


def test_a_sync_killed_part_way_leaves_all_or_nothing(tmp_path: Path) -> None:
    (clone,) = make_team(tmp_path, ("Erin",))
    records.write(clone.path / records.FILE, team_file(6000))
    for delay in (0.5, 0.8, 1.1, 1.4):
        running = start(clone, "memory", "sync")
        time.sleep(delay)
        running.kill()
        running.communicate(timeout=60)
        if (clone.data / "memory.db").exists():
            with closing(sqlite3.connect(clone.data / "memory.db")) as conn:
                made = conn.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name IN ('memories', 'shared')"
                ).fetchone()[0]
                # Killed while the new store's schema was being made: that transaction
                # is absent too, and so is every memory.
                counts = (
                    conn.execute(
                        "SELECT (SELECT count(*) FROM memories), (SELECT count(*) FROM shared)"
                    ).fetchone()
                    if made == 2
                    else (0, 0)
                )
            # Wherever the kill landed, the sync's one transaction is all there or absent.
            assert counts in ((0, 0), (6000, 6000))
    check = clone.cli("memory", "check", "--json")
    assert json.loads(check.stdout)["ok"]
    clone.cli("memory", "sync")
    assert len(live_bodies(clone)) == 6000
