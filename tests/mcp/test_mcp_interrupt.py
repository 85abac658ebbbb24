"""`synapse mcp` started in a terminal stops on Ctrl-C: one line, no traceback."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

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
