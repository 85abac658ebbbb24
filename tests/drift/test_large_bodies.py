"""Long bodies: drift, session start and recall hold each body's opening, never a
whole megabyte note, and what they suggest is still made from the whole body."""

from __future__ import annotations

import random
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
from support import git, make_repo

from synapse_git.service import Synapse
from synapse_git.session.snapshots import Snapshot

KIB = 1024


def long_body(n: int, size: int) -> str:
    """`size` bytes of distinct made-up words, naming a path at its start."""
    rng = random.Random(n)
    words = [f"Note {n} names src/app/main.py and says"]
    used = len(words[0])
    while used < size:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8))
        words.append(word)
        used += 9
    return " ".join(words)


def peak(work: Callable[[], object]) -> int:
    """The most memory Python held at once while `work` ran, in bytes."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def store(folder: Path, count: int, size: int) -> tuple[Synapse, Path]:
    repo = make_repo(folder / "r", {"src/app/main.py": "x = 1\n"})
    svc = Synapse()
    lines = [f'{{"body": "{long_body(n, size)}", "project": "{repo}"}}' for n in range(count)]
    svc.import_lines(lines)
    return svc, repo


def peaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, work: Callable[[Synapse, Path], object]
) -> tuple[int, int]:
    """The peak of `work` over four bodies of 64 KiB, then of 512 KiB, each in a store
    of its own."""
    found = []
    for size in (64, 512):
        folder = tmp_path / str(size)
        monkeypatch.setenv("SYNAPSE_DATA", str(folder / "data"))
        svc, repo = store(folder, 4, size * KIB)
        work(svc, repo)  # imports and caches outside the measure
        found.append(peak(lambda: work(svc, repo)))  # noqa: B023
    return found[0], found[1]


def test_drift_memory_does_not_grow_with_the_bodies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short, long = peaks(tmp_path, monkeypatch, lambda svc, repo: svc.drift(svc.scope(repo)))
    # Eight times the text, the same openings read: not eight times the memory.
    assert long < short * 1.5 + 64 * KIB


def test_session_memory_does_not_grow_with_the_bodies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshots: list[object] = []

    def start(svc: Synapse, repo: Path) -> None:
        snapshots.append(svc.session_snapshot(svc.scope(repo)))

    short, long = peaks(tmp_path, monkeypatch, start)
    assert long < short * 1.5 + 64 * KIB
    # Each entry still tells the whole body's size.
    last = snapshots[-1]
    assert isinstance(last, Snapshot)
    assert {entry.total for entry in last.entries} == {
        len(long_body(n, 512 * KIB).encode()) for n in range(4)
    }


def test_recall_memory_does_not_grow_with_the_bodies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    short, long = peaks(
        tmp_path, monkeypatch, lambda svc, repo: svc.recall("says main", svc.scope(repo))
    )
    assert long < short * 1.5 + 64 * KIB


def test_a_long_stale_body_is_settled_with_its_whole_text(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"src/app/main.py": "x = 1\n"})
    svc = Synapse()
    body = long_body(1, 40 * KIB)  # longer than drift reads, short enough to pass as an argument
    mid = svc.remember(body, svc.scope(repo)).id
    git(repo, "mv", "src/app/main.py", "src/app/entry.py")
    git(repo, "commit", "-q", "-m", "rename")
    [found] = [f.as_json() for f in svc.drift(svc.scope(repo)).findings if f.kind == "stale"]
    assert found["ids"] == [mid]
    corrected = body.replace("src/app/main.py", "src/app/entry.py")
    assert found["suggest"].endswith(f"{corrected}'")
