"""`synapse memory share | unshare | sync` and the merge driver: team memory (docs/team.md)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from synapse_git import exit_codes
from synapse_git.cli.options import FOLDER_OPTION, JSON_OPTION
from synapse_git.cli.output import print_json, scope_of, service
from synapse_git.errors import BadInput

IDS_ARGUMENT = typer.Argument(..., metavar="ID", help="Ids of project memories.")


def share(
    ids: list[int] = IDS_ARGUMENT,
    force: bool = typer.Option(
        False, "--force", help="Share even what looks like a secret (it is not one)."
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Share project memories with the team: they go into .synapse/memories.jsonl, to commit."""
    svc = service()
    report = svc.share(ids, scope_of(svc, folder, quiet=True), force=force)
    for warning in report.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        print_json(report.as_json())
        return
    if report.shared:
        typer.echo(f"shared {', '.join(map(str, report.shared))} in {report.file}")
        typer.echo("commit the file (and .gitattributes) to share them with the team")
    if report.already:
        typer.echo(f"already shared: {', '.join(map(str, report.already))}")


def unshare(
    ids: list[int] = IDS_ARGUMENT,
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Take memories out of the team file; they stay in your own store."""
    svc = service()
    gone = svc.unshare(ids, scope_of(svc, folder, quiet=True))
    if as_json:
        print_json({"unshared": gone})
    elif gone:
        typer.echo(f"unshared {', '.join(map(str, gone))}; commit the team file")
    else:
        typer.echo("none of these memories was shared")


def sync(folder: Path = FOLDER_OPTION, as_json: bool = JSON_OPTION) -> None:
    """Bring teammates' shared memories from the team file into your store (the hooks do
    this after every checkout and merge)."""
    svc = service()
    report = svc.sync_team(scope_of(svc, folder, quiet=True))
    for skipped in report.skipped:
        typer.echo(f"skipped {skipped}", err=True)
    if as_json:
        print_json(report.as_json())
    else:
        typer.echo(report.summary())
    if report.skipped:
        # The good lines were applied; 1 says some were not (docs/team.md, "Syncing").
        raise typer.Exit(exit_codes.NEEDS_ATTENTION)


def merge_file(
    base: Path = typer.Argument(..., help="The common ancestor's version (git's %O)."),
    ours: Path = typer.Argument(..., help="Our version, overwritten with the result (%A)."),
    theirs: Path = typer.Argument(..., help="Their version (%B)."),
    name: str = typer.Argument(None, help="The file's path in the repository (%P)."),
) -> None:
    """The git merge driver of the team file: merges shared memories by id."""
    for path in (base, ours, theirs):
        if not path.is_file():
            raise BadInput(f"{path}: no such file")
    code, said = service().merge_team_file(base, ours, theirs, name)
    for line in said:
        print(line, file=sys.stderr)
    raise typer.Exit(code)
