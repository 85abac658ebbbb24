"""`synapse setup CLIENT`: the MCP server and the hooks wired into a client in one command."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.output import scope_of, service


def setup(
    client: str = typer.Argument(..., help="claude, codex or cursor."),
    scope: str = typer.Option(
        "project",
        "--scope",
        help="project (portable entries in the files a team commits), local (claude only:"
        " yours, this project) or user (yours, every project); local and user pin this"
        " synapse command and store.",
    ),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the changes; write nothing."),
    uninstall: bool = typer.Option(
        False, "--uninstall", help="Take the entries out again (files restored byte for byte)."
    ),
    folder: Path = typer.Option(
        None, "--folder", "-C", help="Act as if run in this folder (default: here)."
    ),
) -> None:
    """Wire Synapse's MCP server, session start and memory at the prompt into a client's
    own files; idempotent, merged with what is there, undone by --uninstall."""
    svc = service()
    outcome = svc.setup_client(
        client, scope_of(svc, folder, quiet=True), scope, dry_run=dry_run, uninstall=uninstall
    )
    for change in outcome.changes:
        typer.echo(f"{change.done:>12}  {change.path}")
        for line in change.diff:
            typer.echo(f"    {line}")
    for note in outcome.notes:
        typer.echo(f"note: {note}")
