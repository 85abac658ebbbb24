"""`synapse mcp` started in a terminal stops on Ctrl-C: one line, no traceback; stopped by
a signal, it writes the read counts it kept first."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest
from mcp_harness import in_env

from synapse_git.service import Synapse
from synapse_git.settings import Config

SYNAPSE = Path(sys.executable).with_name("synapse")
COMMANDS = {
    "console script": [str(SYNAPSE), "mcp"],
    "python -m": [sys.executable, "-m", "synapse_git", "mcp"],
}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "terminal", "version": "1"},
    },
}


def read_until(fd: int, wanted: bytes, seconds: float) -> bytes:
    """What `fd` gives until `wanted` appears, the end of the output, or `seconds` pass."""
    out = b""
    end = time.monotonic() + seconds
    while wanted not in out and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if not ready:
            continue
        try:
            data = os.read(fd, 65536)
        except OSError:  # the terminal closed: the process is gone
            break
        if not data:
            break
        out += data
    return out


@pytest.mark.parametrize("how", sorted(COMMANDS))
def test_ctrl_c_in_a_terminal_stops_the_server(how: str, repo: Path) -> None:
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        COMMANDS[how],
        cwd=repo,
        stdin=terminal,
        stdout=terminal,
        stderr=terminal,
        start_new_session=True,
    )
    os.close(terminal)
    try:
        # A real exchange first, so the signal reaches a server that is serving.
        os.write(controller, json.dumps(INITIALIZE).encode() + b"\n")
        answered = read_until(controller, b'"serverInfo"', 60)
        assert b'"serverInfo"' in answered
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
        # Everything after the answer's line, to the end of the output.
        rest = (answered + read_until(controller, b"\0", 2)).split(b'"serverInfo"', 1)[1]
        said = rest.partition(b"\n")[2].decode("utf-8", "replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(controller)
    assert proc.returncode == 130
    assert "Traceback" not in said
    assert [line for line in said.splitlines() if line.strip()] == [
        "synapse mcp: interrupted, stopped"
    ]


def test_sigterm_writes_the_read_counts_before_stopping(tmp_path: Path, repo: Path) -> None:
    # A client that finds the server slow to exit after closing stdin sends SIGTERM
    # (the SDK's does after 2 s): the reads counted in memory are written first.
    data = tmp_path / "data"
    svc = Synapse(Config(data_dir=data))
    memory = svc.remember("x" * 9000, svc.scope(repo), is_global=True).id
    proc = subprocess.Popen(
        [str(SYNAPSE), "mcp", "--project", str(repo)],
        cwd=repo,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=in_env(data),
    )
    assert proc.stdin is not None and proc.stdout is not None
    read = {"name": "readmemory", "arguments": {"id": memory, "project": None}}
    try:
        for message in (
            INITIALIZE,
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": read},
        ):
            proc.stdin.write(json.dumps(message).encode() + b"\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["id"] == message["id"]
        proc.send_signal(signal.SIGTERM)  # stdin still open: only the signal stops it
        proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()
    assert proc.returncode == 128 + signal.SIGTERM
    with closing(sqlite3.connect(data / "memory.db")) as conn:
        assert conn.execute("SELECT recalled FROM memories").fetchall() == [(1,)]
