"""`synapse mcp`: serve memory to an agent over MCP stdio.

The console script usually starts this command without typer (see
`cli/entry.py`); this definition gives it help and its place in `synapse --help`.
"""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.mcp.launch import serve_mcp


def mcp(
    project: Path = typer.Option(
        None,
        "--project",
        help="Folder whose repository to serve when the client offers no roots (default: here).",
    ),
    budget: str = typer.Option(
        None, "--budget", help="Default budget for recall and readmemory: lean, balanced or full."
    ),
) -> None:
    """Serve recall, readmemory, remember, supersede and forget to an MCP client over stdio."""
    serve_mcp(project, budget)
