"""A share writes the team file after its transaction commits (team/deferred.py). In
the moment between, another share or a sync of the same store must wait for that
file, not read the old one: the first share's line would be written over, or taken
for a teammate's unshare. Two services in two threads of one process, over one real
store and one real repository; the first share's write is slowed so the second one
certainly starts in that moment."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from synapse_git.service import Synapse
from synapse_git.team import paths, records

SLOW_S = 0.5


@pytest.fixture
def first_write_slowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Set once the thread named "first" has committed and is about to write the team
    file, which it then does SLOW_S later."""
    committed = threading.Event()
    real = paths.write_bytes

    def slowed(root: Path, rel: str, data: bytes) -> None:
        if rel == records.FILE and threading.current_thread().name == "first":
            committed.set()
            time.sleep(SLOW_S)
        real(root, rel, data)

    monkeypatch.setattr(paths, "write_bytes", slowed)
    yield committed


def while_first_writes(committed: threading.Event, first: Callable[[], object]) -> threading.Thread:
    thread = threading.Thread(target=first, name="first")
    thread.start()
    assert committed.wait(30), "the first share never reached its write"
    return thread


def bodies_in_file(root: Path) -> list[str]:
    found, errors = records.read_team(root)
    assert not errors
    return sorted(record.body for record in found.values())


def test_a_second_share_waits_for_the_first_ones_file(
    repo: Path, first_write_slowed: threading.Event
) -> None:
    one, other = Synapse(), Synapse()
    scope = one.scope(repo)
    a = one.remember("Worker A drains the queue named jobs-a.", scope).id
    b = one.remember("Worker B drains the queue named jobs-b.", scope).id
    thread = while_first_writes(first_write_slowed, lambda: one.share([a], scope))
    other.share([b], other.scope(repo))
    thread.join()
    assert bodies_in_file(repo) == [
        "Worker A drains the queue named jobs-a.",
        "Worker B drains the queue named jobs-b.",
    ]


def test_a_sync_waits_for_an_edit_ones_file(
    repo: Path, first_write_slowed: threading.Event
) -> None:
    one, other = Synapse(), Synapse()
    scope = one.scope(repo)
    a = one.remember("Worker A drains the queue named jobs-a.", scope).id
    one.share([a], scope)
    edited = "Worker A drains the queue named jobs-a2 since the move."
    thread = while_first_writes(first_write_slowed, lambda: one.edit(a, scope, body=edited))
    synced = other.sync_team(other.scope(repo))
    thread.join()
    # Read from the old file, the old line would have been taken for a teammate's
    # edit and put the old text back over this one.
    assert (synced.updated, synced.forgotten) == ([], [])
    assert bodies_in_file(repo) == [edited]
    assert [memory.body for memory in one.list_memories(scope).memories] == [edited]
    assert other.sync_team(other.scope(repo)).unchanged
