"""`memory purge` while a checkout's session snapshot is being written (a post-checkout
hook, a session start): the snapshot quotes memories, so a purge removes every
snapshot after its transaction. A refresh that read the store before the purge and
wrote its snapshot after that removal put the purged text back on disk, and, since
a purge need not move the store's stamp, a later session start took that snapshot
for current and told the agent the purged text. Two services in two threads over
one real store and repository; the refresh's write is slowed so the purge certainly
runs before it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from synapse_git.service import Synapse, session_start
from synapse_git.session import snapshots

SLOW_S = 0.5
SECRET = "The staging database password is hunter2-staging (remembered by mistake)."


@pytest.fixture
def first_write_slowed(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Set once the thread named "first" has read the store and is about to write its
    snapshot, which it then does SLOW_S later."""
    reached = threading.Event()
    real = snapshots.write_snapshot

    def slowed(data_dir: Path, snapshot: snapshots.Snapshot) -> Path:
        if threading.current_thread().name == "first":
            reached.set()
            time.sleep(SLOW_S)
        return real(data_dir, snapshot)

    monkeypatch.setattr(snapshots, "write_snapshot", slowed)
    yield reached


def test_a_snapshot_written_during_a_purge_keeps_no_purged_text(
    repo: Path, first_write_slowed: threading.Event
) -> None:
    one, other = Synapse(), Synapse()
    scope = one.scope(repo)
    secret = one.remember(SECRET, scope).id
    one.remember("Deploys go out from main through CI.", scope)
    thread = threading.Thread(target=lambda: one.refresh_checkout(scope), name="first")
    thread.start()
    assert first_write_slowed.wait(30), "the refresh never reached its write"
    other.purge([secret], other.scope(repo))
    thread.join()
    config = other.config
    told = session_start.told(config, repo, config.budget(None), "text")
    assert "hunter2" not in told
    for path in (config.data_dir / "sessions").rglob("*"):
        assert b"hunter2" not in path.read_bytes(), path
