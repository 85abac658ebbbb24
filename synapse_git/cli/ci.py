"""`synapse ci check`: a pull request's change checked against the team's shared
memories, with no store (docs/ci.md)."""

from __future__ import annotations

import os
from pathlib import Path

import typer

app = typer.Typer(
    help="Checks for continuous integration; they use no store.", no_args_is_help=True
)


@app.command("check")
def check(
    base: str = typer.Option(
        ...,
        "--base",
        metavar="REF",
        # What `pre-commit run --from-ref REF` hands its hooks (docs/ci.md).
        envvar="PRE_COMMIT_FROM_REF",
        show_envvar=False,
        help="The branch or commit the change is to be merged into"
        " (default: $PRE_COMMIT_FROM_REF).",
    ),
    output: str = typer.Option(
        "text", "--format", metavar="FORMAT", help="text, github, markdown, sarif or json."
    ),
    folder: Path = typer.Option(
        None, "--folder", "-C", help="Check the repository of this folder (default: here)."
    ),
) -> None:
    """Report the shared memories that the change BASE...HEAD makes stale or
    contradicts, and new ones naming paths HEAD lacks. Reads the team file at both
    commits from git; opens no store and writes nothing (but the job summary of
    --format github). Exit 1 on blocking findings, 0 otherwise, 2 on an error."""
    from synapse_git.service import Synapse

    report = Synapse().ci_report(folder, base, output)
    typer.echo(report.text, nl=False)
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if report.summary is not None and summary:
        try:
            with open(summary, "a", encoding="utf-8") as handle:
                handle.write(report.summary)
        except OSError as exc:
            typer.echo(f"warning: cannot write the job summary: {exc.strerror or exc}", err=True)
    if report.blocking:
        raise typer.Exit(1)
