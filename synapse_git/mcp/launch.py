"""Starting `synapse mcp`: checks its options, then serves stdio (mcp/stdio_server.py).

Kept apart from the servers so that both ways of reaching `synapse mcp`
(the console script's fast path and the typer command) share this body
without importing the server until it really starts.
"""

from __future__ import annotations

import sys
from pathlib import Path

from synapse_git import settings
from synapse_git.errors import BadInput

# The options `synapse mcp` takes, each with a value; the fast path parses these
# and tests check they are exactly the typer command's.
OPTIONS = ("--project", "--budget")


def serve_mcp(project: Path | None, budget: str | None) -> None:
    """Serve MCP over stdio (the body of `synapse mcp`, whichever way it was reached)."""
    config = settings.load()
    if budget is not None:
        config.budget(budget)
    if project is not None and not project.expanduser().is_dir():
        raise BadInput(f"--project {project}: not a folder")
    if sys.stdin.isatty():
        # A person typed it: with no client on the other end it would wait in silence,
        # which reads as a hang. A client's stdin is a pipe, and it hears nothing of this.
        print(
            "synapse mcp: serving MCP on stdin and stdout for an agent's client, which"
            " starts it (`synapse setup claude|codex|cursor`); Ctrl-C stops it",
            file=sys.stderr,
            flush=True,
        )
    # Imported only now: the other commands need none of it.
    from synapse_git.mcp import stdio_server

    stdio_server.serve(config, project=project, budget=budget)
