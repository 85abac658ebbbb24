"""The drift page's findings, worked out once and shown again while nothing they
depend on changed.

A whole drift check costs about a second of CPU at 10,000 memories: more than a
page may take. The viewer works it out in the background as it starts and keeps
the answer while its stamp holds (the store's version, HEAD, git's index: a few
reads), for at most MAX_AGE seconds, since a file deleted in the work tree and not
yet staged is not in the stamp. The page says when its findings were worked out,
with a link to work them out again.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Generic, TypeVar

MAX_AGE = 30.0
T = TypeVar("T")


class Cached(Generic[T]):
    def __init__(
        self, compute: Callable[[], T], stamp: Callable[[], str], max_age: float = MAX_AGE
    ) -> None:
        self._compute = compute
        self._stamp = stamp
        self._max_age = max_age
        self._lock = threading.Lock()
        self._value: T | None = None
        self._at = 0.0
        self._stamped = ""

    def get(self, *, fresh: bool = False) -> tuple[T, float]:
        """The value and when it was worked out (`time.time()`); one caller computes
        while the others wait for it, never two at once."""
        with self._lock:
            stamp = self._stamp()
            old = self._value is None or time.time() - self._at > self._max_age
            if fresh or old or stamp != self._stamped:
                self._value = self._compute()
                self._at = time.time()
                self._stamped = stamp
            assert self._value is not None
            return self._value, self._at

    def drop(self) -> None:
        with self._lock:
            self._value = None

    def warm(self) -> None:
        """Work the value out in the background (a failure is left for the page)."""

        def run() -> None:
            try:
                self.get()
            except Exception:  # the page that asks next meets it, as one line
                return

        threading.Thread(target=run, name="drift-warm-up", daemon=True).start()
