"""Raw JSON-RPC lines to a server process, and every message it answers: for holding
the standard-library stdio server to what the SDK-backed server says on the wire."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from mcp_harness import SYNAPSE, server_env

# `synapse mcp` as installed, and the same session served by the SDK from its start.
FAST = [str(SYNAPSE), "mcp"]
SDK = [
    sys.executable,
    "-c",
    "from synapse_git import settings; from synapse_git.mcp import stdio_server; "
    "stdio_server.serve(settings.load(), with_sdk=True)",
]
CLIENT = {"capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", **CLIENT},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
# The last request of every exchange: its answer says every earlier line was read.
LAST = {"jsonrpc": "2.0", "id": "last", "method": "ping"}


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def exchange(
    command: list[str],
    lines: list[bytes],
    *,
    data: Path,
    cwd: Path,
    calls: set[Any] = frozenset(),  # type: ignore[assignment]
    close_early: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[list[dict[str, Any]], str]:
    """Every message `command` writes for `lines` (then `LAST`), until `LAST` and each id
    in `calls` (tool calls, answered in their own time) are answered; with `close_early`,
    stdin is closed right after `lines` and the output read to its end."""
    server = subprocess.Popen(
        command,
        cwd=cwd,
        env={**os.environ, **server_env(data), **(env or {})},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert server.stdin is not None and server.stdout is not None
    answers: list[dict[str, Any]] = []
    try:
        for each in lines:
            server.stdin.write(each)
        if close_early:
            server.stdin.close()
            answers = [json.loads(text) for text in server.stdout.read().splitlines()]
        else:
            server.stdin.write(line(LAST))
            server.stdin.flush()
            wanted = {*calls, "last"}
            end = time.monotonic() + 60
            pending = b""
            while wanted and time.monotonic() < end:
                # The descriptor itself: a buffered reader would hide lines from select.
                ready, _, _ = select.select([server.stdout], [], [], 1)
                chunk = os.read(server.stdout.fileno(), 1 << 20) if ready else b""
                if ready and not chunk:
                    break
                pending += chunk
                *whole, pending = pending.split(b"\n")
                for text in whole:
                    answer = json.loads(text)
                    answers.append(answer)
                    wanted.discard(answer.get("id"))
            assert not wanted, f"no answer to {wanted}: {answers}"
    finally:
        if not server.stdin.closed:
            server.stdin.close()
        server.wait(timeout=60)
    assert server.stderr is not None
    return answers, server.stderr.read().decode()


def by_id(answers: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The answers keyed by their id (as text: ids may be numbers or strings)."""
    return {json.dumps(answer.get("id")): answer for answer in answers if "id" in answer}
