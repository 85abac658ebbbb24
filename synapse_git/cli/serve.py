"""`synapse mcp`: serve memory to an agent over MCP stdio."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git import config


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
    settings = config.load()
    if budget is not None:
        settings.budget(budget)  # a bad name fails before the slow import below
    # Imported here: the MCP SDK alone takes over a second to import, and no
    # other command should pay for it.
    from synapse_git import mcp_server

    mcp_server.serve(settings, project=project, budget=budget)
