"""The threads the stdio server runs tool calls on: each call at once on a thread of
its own, a thread that has finished a call kept for the next.

A call never waits for another (one may wait seconds for the client's roots), so
there is no fixed number of threads; but a thread started for every call cost
about 0.15 ms of CPU a call, a tenth of a one-word recall's, so a thread whose
call is done waits for the next one instead of ending. Standard library only.
"""

from __future__ import annotations

import queue
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable


class Workers:
    """Runs each job handed to `run` at once, on an idle thread or a new one."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._lock = threading.Lock()
        # Threads waiting for a job, less the jobs already queued for them: a job is
        # queued only when one of them is sure to take it.
        self._idle = 0
        self._busy = 0
        self._all_done = threading.Condition(self._lock)

    def run(self, job: Callable[[], None]) -> None:
        with self._lock:
            self._busy += 1
            if self._idle:
                self._idle -= 1
                self._jobs.put(job)
                return
        # Daemons: an idle thread never holds the process open once the session ends.
        threading.Thread(target=self._work, args=(job,), daemon=True).start()

    def wait(self) -> None:
        """Until every job handed over has finished."""
        with self._all_done:
            self._all_done.wait_for(lambda: self._busy == 0)

    def _work(self, job: Callable[[], None]) -> None:
        while True:
            try:
                job()
            except BaseException:
                # The thread ends as a plain one would, its error reported by
                # threading's hook; it is not counted idle, so nothing waits for it.
                self._finished(idle=False)
                raise
            self._finished(idle=True)
            job = self._jobs.get()

    def _finished(self, *, idle: bool) -> None:
        with self._lock:
            self._busy -= 1
            self._idle += idle
            self._all_done.notify_all()
