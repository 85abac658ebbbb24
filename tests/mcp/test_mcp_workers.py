"""The threads the stdio server runs tool calls on: a call never waits for another,
and a thread whose call is done takes the next one instead of a new thread."""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from mcp_harness import server_env
from wire import FAST, INITIALIZE, INITIALIZED, line

from synapse_git.mcp.workers import Workers

WAIT_S = 30  # only ever reached when something is broken


def test_calls_one_after_another_run_on_one_thread() -> None:
    workers = Workers()
    seen: list[int] = []
    for _ in range(5):
        workers.run(lambda: seen.append(threading.get_ident()))
        workers.wait()
    assert len(seen) == 5
    assert len(set(seen)) == 1


def test_a_call_never_waits_for_one_under_way() -> None:
    workers = Workers()
    release, second_ran = threading.Event(), threading.Event()
    workers.run(lambda: release.wait(WAIT_S) and None)
    workers.run(second_ran.set)
    assert second_ran.wait(WAIT_S), "the second call waited for the first"
    assert not release.is_set()
    release.set()
    workers.wait()


def test_wait_returns_once_every_call_has_finished() -> None:
    workers = Workers()
    release, finished = threading.Event(), threading.Event()

    def slow() -> None:
        release.wait(WAIT_S)
        finished.set()

    workers.run(slow)
    threading.Timer(0.05, release.set).start()
    workers.wait()
    assert finished.is_set()


def test_a_call_that_raises_leaves_the_next_one_served() -> None:
    workers = Workers()
    hook, threading.excepthook = threading.excepthook, lambda args: None
    try:
        workers.run(lambda: 1 / 0 and None)
        workers.wait()
        ran = threading.Event()
        workers.run(ran.set)
        assert ran.wait(WAIT_S), "a job was queued for the thread that raised"
        workers.wait()
    finally:
        threading.excepthook = hook


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_the_server_keeps_one_thread_for_calls_made_one_at_a_time(
    tmp_path: Path, repo: Path
) -> None:
    server = subprocess.Popen(
        FAST,
        cwd=repo,
        env={**os.environ, **server_env(tmp_path / "data")},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write(line(INITIALIZE) + line(INITIALIZED))
        server.stdin.flush()
        assert json.loads(server.stdout.readline())["id"] == 0
        for number in range(1, 5):
            call = {"name": "recall", "arguments": {"query": "quasar"}}
            request = {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": call}
            server.stdin.write(line(request))
            server.stdin.flush()
            answer = json.loads(server.stdout.readline())
            assert answer["id"] == number and not answer["result"]["isError"]
        # The reading thread and the one kept for calls, for as long as one looks (when
        # every call had a thread of its own, each ended soon after its answer).
        counts = []
        for _ in range(20):
            counts.append(len(list(Path(f"/proc/{server.pid}/task").iterdir())))
            time.sleep(0.01)
        assert min(counts) >= 2, counts
    finally:
        server.stdin.close()
        server.wait(timeout=60)
