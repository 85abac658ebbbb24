"""The drift page's findings: a whole check, kept with the stamp of what it depends on,
shown at once, and worked out again beside the pages when the stamp moves.

A whole check costs over a second of CPU at 10,000 memories: more than a page may
take, and run in the server's process it would hold the interpreter's lock from
every other page while it ran. So a check expected to take longer than SYNC seconds
(the last one here did, or there is none yet) runs as a process of its own
(ui/drift_worker.py), which keeps its answer in the data folder; meanwhile the page
shows the last findings, says when they were worked out and that new ones are on
their way. A check expected to be quick is made while the page waits. The kept check
outlives the run: a viewer started again with nothing changed shows it at once.

The stamp (the store's version, HEAD, git's index: a few reads) leaves out a file
deleted in the work tree and not yet staged, so a check is taken as current for at
most MAX_AGE seconds of a run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from synapse_git.service import Scope, Synapse

if TYPE_CHECKING:
    from synapse_git.answers import DriftCheckOut

MAX_AGE = 30.0
SYNC = 0.05


@dataclass(frozen=True)
class Shown:
    """What the drift page shows: the last check (None before the first), whether a
    new one is under way, the memories written since the check (their findings may be
    settled already), and why the last attempt failed, if it did."""

    check: DriftCheckOut | None
    refreshing: bool
    touched: frozenset[int] = field(default_factory=frozenset)
    error: str = ""


def start_worker(folder: str) -> subprocess.Popen[bytes]:
    """`python -m synapse_git.ui.drift_worker FOLDER`, with this process's settings."""
    return subprocess.Popen(
        [sys.executable, "-m", "synapse_git.ui.drift_worker", folder],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )


class DriftChecks:
    def __init__(
        self,
        svc: Synapse,
        scope: Scope,
        *,
        spawn: Callable[[], subprocess.Popen[bytes]] | None = None,
        max_age: float = MAX_AGE,
        sync: float = SYNC,
    ) -> None:
        self._svc = svc
        self._scope = scope
        self._spawn = spawn or (lambda: start_worker(str(scope.folder)))
        self._max_age = max_age
        self._sync = sync
        # Guards the fields below; never held while a check runs.
        self._lock = threading.Lock()
        # One check made in this process at a time.
        self._work = threading.Lock()
        self._check: DriftCheckOut | None = None
        self._loaded = False
        self._since = 0.0  # when this run took the check (its age counts from here)
        # Each write moves the generation on; a check started before it is out of date.
        self._generation = 0
        self._check_generation = -1
        self._touched: dict[int, int] = {}  # memory written -> the generation it made
        self._worker: subprocess.Popen[bytes] | None = None
        self._worker_generation = 0
        self._error = ""
        self._error_stamp = ""

    def get(self, *, fresh: bool = False) -> Shown:
        stamp = self._svc.drift_stamp(self._scope)
        with self._lock:
            self._reap()
            if not self._loaded:
                self._loaded = True
                kept = self._svc.kept_drift(self._scope)
                if kept is not None:
                    self._take(kept, self._generation)
            check = self._check
            current = (
                check is not None
                and check["stamp"] == stamp
                and self._check_generation == self._generation
                and time.time() - self._since <= self._max_age
            )
            if self._worker is not None:
                return self._shown(True)
            if current and not fresh:
                return self._shown(False)
            if self._error and self._error_stamp == stamp and not fresh:
                return self._shown(False)
            if check is None or check["took"] > self._sync:
                self._error = ""
                self._worker = self._spawn()
                self._worker_generation = self._generation
                return self._shown(True)
            generation = self._generation
        with self._work:
            made = self._svc.keep_drift(self._scope)
        with self._lock:
            self._take(made, generation)
            return self._shown(False)

    def written(self, ids: Iterable[int]) -> None:
        """A write was made here: the check is out of date, and its findings about
        `ids` may be settled already."""
        with self._lock:
            self._generation += 1
            for memory_id in ids:
                self._touched[memory_id] = self._generation

    def warm(self) -> None:
        """Load the kept check, or start working one out, without holding up the first
        page (a failure is left for the drift page)."""

        def run() -> None:
            try:
                self.get()
            except Exception:  # the page that asks next meets it, as one line
                return

        threading.Thread(target=run, name="drift-warm-up", daemon=True).start()

    def close(self) -> None:
        """Stop a check under way (the server is stopping)."""
        with self._lock:
            if self._worker is not None and self._worker.poll() is None:
                self._worker.terminate()

    def _shown(self, refreshing: bool) -> Shown:
        return Shown(self._check, refreshing, frozenset(self._touched), self._error)

    def _take(self, check: DriftCheckOut, generation: int) -> None:
        self._check = check
        self._since = time.time()
        self._check_generation = generation
        self._touched = {i: g for i, g in self._touched.items() if g > generation}

    def _reap(self) -> None:
        """Take the worker's check once it is done (the lock held)."""
        worker = self._worker
        if worker is None or worker.poll() is None:
            return
        self._worker = None
        err = worker.stderr.read().decode("utf-8", "replace") if worker.stderr else ""
        if worker.stderr:
            worker.stderr.close()
        kept = self._svc.kept_drift(self._scope) if worker.returncode == 0 else None
        if kept is None:
            lines = err.strip().splitlines()
            self._error = lines[-1][:300] if lines else f"exit status {worker.returncode}"
            self._error_stamp = self._svc.drift_stamp(self._scope)
            return
        self._take(kept, self._worker_generation)
