"""`synapse mcp` typed at a terminal says in one line what it is and how to stop it,
where it used to wait in silence; started by a client (stdin a pipe) it says nothing
(docs/mcp.md)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
from pathlib import Path

from support import run_cli_process


def _synapse() -> list[str]:
    exe = Path(sys.executable).with_name("synapse")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "synapse_git"]


def test_typed_at_a_terminal_it_says_what_it_is(repo: Path) -> None:
    controller, terminal = pty.openpty()
    child = subprocess.Popen(
        [*_synapse(), "mcp"],
        cwd=repo,
        stdin=terminal,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(terminal)
    try:
        assert child.stderr is not None
        ready, _, _ = select.select([child.stderr], [], [], 30)
        assert ready, "nothing on stderr"
        line = child.stderr.readline().decode()
        assert line.startswith("synapse mcp: serving MCP on stdin and stdout")
        assert "Ctrl-C" in line and "synapse setup" in line
    finally:
        child.kill()
        child.wait(10)
        os.close(controller)


def test_started_by_a_client_it_says_nothing(repo: Path) -> None:
    # stdin a pipe, closed at once: the server ends at its end, with no word on stderr.
    done = run_cli_process("mcp", cwd=repo, stdin=b"")
    assert done.returncode == 0 and done.stderr == "" and done.stdout == ""
