"""The drift page's cache: worked out once while its stamp holds, never twice at once."""

from __future__ import annotations

import threading
import time

from synapse_git.ui.drift_cache import Cached


def test_the_value_is_worked_out_again_only_when_asked_or_changed() -> None:
    calls: list[int] = []
    stamp = ["a"]

    def count() -> int:
        calls.append(1)
        return len(calls)

    cached = Cached(count, lambda: stamp[0], max_age=60)
    assert cached.get()[0] == 1 and cached.get()[0] == 1
    stamp[0] = "b"
    assert cached.get()[0] == 2
    assert cached.get(fresh=True)[0] == 3
    cached.drop()
    assert cached.get()[0] == 4
    old = Cached(count, lambda: "", max_age=0)
    first = old.get()[0]
    time.sleep(0.01)
    assert old.get()[0] == first + 1


def test_callers_during_the_warm_up_wait_for_it() -> None:
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow() -> int:
        calls.append(1)
        started.set()
        release.wait(5)
        return 7

    cached = Cached(slow, lambda: "")
    cached.warm()
    assert started.wait(5)
    answers: list[int] = []
    waiter = threading.Thread(target=lambda: answers.append(cached.get()[0]))
    waiter.start()
    release.set()
    waiter.join(5)
    assert answers == [7] and len(calls) == 1
