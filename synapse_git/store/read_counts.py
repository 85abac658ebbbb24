"""How often each memory was read: the `recalled` count session start orders by.

A count is a hint, not data. Writing one per read would put a write
transaction (tens of ms on a busy disk) into every readmemory call, so reads
are counted in memory and written in one transaction per batch: when the
batch is full, when it is a minute old, and when the process says it is done
(`flush`). A count that cannot be written at once (a writer holds the store,
a read-only folder) is dropped rather than making a reader wait or fail; a
process that is stopping has no reader to keep waiting, and waits a little
longer for its last batch (`wait_s`).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import Counter
from contextlib import closing, suppress
from pathlib import Path

BATCH = 32
MAX_AGE_S = 60.0


class ReadCounts:
    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._pending: Counter[int] = Counter()
        self._since = 0.0
        self._lock = threading.Lock()

    def note(self, memory_id: int) -> None:
        """Count one read of `memory_id`; write the batch when it is due."""
        with self._lock:
            if not self._pending:
                self._since = time.monotonic()
            self._pending[memory_id] += 1
            due = (
                sum(self._pending.values()) >= BATCH or time.monotonic() - self._since >= MAX_AGE_S
            )
        if due:
            self.flush()

    def flush(self, wait_s: float = 0.05) -> None:
        """Write every pending count in one transaction, waiting up to `wait_s` for a
        writer that holds the store (or drop them, see above)."""
        with self._lock:
            pending, self._pending = self._pending, Counter()
        if not pending or not self.db_path.is_file():
            return
        rows = [(n, memory_id) for memory_id, n in pending.items()]
        with (
            suppress(sqlite3.Error),
            closing(sqlite3.connect(self.db_path, timeout=wait_s)) as conn,
            conn,
        ):
            # The column is in no index and fires no trigger: one row write each.
            conn.executemany("UPDATE memories SET recalled = recalled + ? WHERE id = ?", rows)
