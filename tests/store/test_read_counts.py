"""Read counts, kept in memory and written in batches: dropped rather than making a
reader wait for a writer, written after a short wait when the process stops."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from synapse_git.service import Synapse
from synapse_git.settings import Config
from synapse_git.store.read_counts import ReadCounts


def test_a_stopping_process_waits_for_a_writer_a_reader_does_not(
    isolated_store: Path, repo: Path
) -> None:
    svc = Synapse(Config(data_dir=isolated_store))
    memory = svc.remember("a fact", svc.scope(repo), is_global=True).id
    db = isolated_store / "memory.db"
    counts = ReadCounts(db)
    holder = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN IMMEDIATE")
    released = threading.Timer(0.3, holder.execute, ("ROLLBACK",))
    try:
        counts.note(memory)
        counts.flush()  # a reader's batch: the writer holds the store, the count is dropped
        counts.note(memory)
        released.start()
        counts.flush(wait_s=30.0)  # the last batch of a stopping process waits its turn
    finally:
        released.join()
        holder.close()
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("SELECT recalled FROM memories").fetchall() == [(1,)]
