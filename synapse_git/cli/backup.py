"""`synapse memory backup PATH`: a consistent copy of the store, taken while others write."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json, service


def backup(
    path: Path = typer.Argument(..., help="The new file to write the copy to."),
    force: bool = typer.Option(False, "--force", help="Replace PATH if it exists."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Copy the whole store to PATH (a new file) with SQLite's online backup."""
    report = service().backup(path, force=force)
    if as_json:
        print_json({"path": str(report.path), "live": report.live, "bytes": report.bytes})
    else:
        typer.echo(f"backed up {report.live} live memories to {report.path} ({report.bytes} bytes)")
