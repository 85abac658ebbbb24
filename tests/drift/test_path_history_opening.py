"""The path history index opened while another process is making it: two drift
checks at once in two worktrees of one repository, or a hook and an MCP server,
open the same index (it is keyed by the common git folder). Switching a new file
to WAL upgrades a read to a write, which SQLite refuses at once, without the busy
timeout, while another connection writes: the second opener failed with "database
is locked" (shown as the store being locked) instead of waiting its turn.

A real SQLite connection stands in for the other opener, holding the write lock on
the new index as it does while it writes the tables, and lets go a moment later."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from synapse_git.drift import path_history

HELD_S = 0.5


def test_an_index_another_process_is_making_is_waited_for(repo: Path) -> None:
    history = path_history.for_checkout(repo)
    assert history is not None
    history.path.parent.mkdir(parents=True, exist_ok=True)
    other = sqlite3.connect(history.path, isolation_level=None, check_same_thread=False)
    other.executescript("BEGIN IMMEDIATE;" + path_history._SCHEMA)
    done = threading.Timer(HELD_S, other.execute, ("COMMIT",))
    done.start()
    try:
        assert history.update()
    finally:
        done.join()
        other.close()
    assert history.complete()
    assert history.status().commits == 1
    history.close()
