"""`synapse project …`: which project a folder is, and re-keying a moved repository."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import moved_hints, other_history_hints, print_json, scope_of, service

app = typer.Typer(help="The project (git repository) a folder belongs to.", no_args_is_help=True)


@app.command("show")
def show(
    folder: Path = typer.Argument(None, help="Folder to look from (default: here)."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Print the project key, the checkout, the main worktree and the counts."""
    svc = service()
    info = svc.project_info(scope_of(svc, folder, quiet=True))
    scope = info.scope
    if as_json:
        print_json(info.as_json())
        return
    if scope.project is None:
        typer.echo(f"no project: {scope.note}; only global memory is visible.")
    else:
        typer.echo(f"project        {scope.project}")
        typer.echo(f"checkout       {scope.checkout}")
        typer.echo(f"main worktree  {scope.main_worktree}")
        typer.echo("memories       " + _counts(info.counts))
    typer.echo("global         " + _counts(info.global_counts))
    for line in moved_hints(info.moved_from, scope.project):
        typer.echo(line)
    for line in other_history_hints(info.other_history, scope.project):
        typer.echo(line)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {state}" for state, n in counts.items())


@app.command("move")
def move(
    old: str = typer.Argument(..., help="The project's old folder (its former key)."),
    new: Path = typer.Argument(..., help="Any folder inside the repository's new place."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Re-key the memories of a repository that was moved from OLD to NEW."""
    moved, key = service().move_project(old, str(new))
    if as_json:
        print_json({"moved": moved, "project": key})
    else:
        typer.echo(f"moved {moved} memories to project {key}")
