"""`synapse memory recall | eval`: answer a question; score recall on labeled cases."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git import exit_codes
from synapse_git.cli import reading
from synapse_git.cli.options import FOLDER_OPTION, JSON_OPTION
from synapse_git.cli.output import print_json, service
from synapse_git.escaping import counted, first_line

BUDGET_OPTION = typer.Option(None, "--budget", "-b", help="lean, balanced (default) or full.")


def recall(
    question: str = typer.Argument("", help="The question; empty for the newest memories."),
    budget: str = BUDGET_OPTION,
    limit: int = typer.Option(None, "--limit", "-n", help="At most this many hits."),
    explain: bool = typer.Option(
        False, "--explain", help="Show every candidate: ranks, score, terms held, verdict."
    ),
    also: list[str] = typer.Option(
        [],
        "--also",
        help="Another wording of the question (repeatable, at most 4): likely words of the"
        " note, identifiers, synonyms. Ranked with it; the question weighs most.",
    ),
    at: str = typer.Option(
        None,
        "--at",
        metavar="REV",
        help="Only the memories visible at this revision (branch, tag, commit).",
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Recall the memories that answer QUESTION, within a budget."""
    reading.recall(
        question,
        budget=budget,
        limit=limit,
        explain=explain,
        also=also,
        at=at,
        folder=folder,
        as_json=as_json,
    )


def eval_(
    cases: Path = typer.Argument(..., help="A CASES.toml file of [[case]] tables."),
    budget: str = BUDGET_OPTION,
    baseline: Path = typer.Option(
        None, "--baseline", help="Exit 1 when a metric falls below this JSON baseline."
    ),
    write_baseline: Path = typer.Option(
        None, "--write-baseline", help="Record this run's metrics as a baseline file."
    ),
    force: bool = typer.Option(False, "--force", help="Replace the --write-baseline file."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Score recall on labeled questions (read-only): top1, found, mrr, survived, noise."""
    run = service().eval_cases(
        cases, budget=budget, baseline=baseline, write_baseline=write_baseline, force=force
    )
    report = run.report
    if run.sample is not None:
        store, imported = run.sample
        # On stderr, so --json output stays one document.
        typer.echo(
            f"eval: {cases} names its store, {store}: {imported} notes in a temporary"
            " store, removed again; your own store is not used",
            err=True,
        )
    if as_json:
        print_json(report.as_json())
    else:
        for outcome in report.outcomes:
            if outcome.case.expect is None:
                mark = f"{counted(outcome.hits, 'hit')} (none expected)"
                mark += f", {outcome.weak} weak" if outcome.weak else ""
            else:
                mark = _found_mark(outcome.rank, outcome.survived)
            typer.echo(f"{first_line(outcome.case.query, 60):<60}  {mark}")
        metrics = "  ".join(
            f"{name} {'-' if value is None else format(value, 'g')}"
            for name, value in report.metrics().items()
        )
        typer.echo(f"{len(report.outcomes)} cases, budget {report.budget}: {metrics}")
        if report.reworded is not None:
            reworded = "  ".join(
                f"{name} {'-' if value is None else format(value, 'g')}"
                for name, value in report.reworded.metrics().items()
            )
            typer.echo(f"with their alternatives: {reworded}")
    if run.baseline_written is not None:
        typer.echo(f"baseline written to {run.baseline_written}", err=True)
    for line in run.regressions:
        typer.echo(f"regression: {line}", err=True)
    if run.regressions:
        raise typer.Exit(exit_codes.NEEDS_ATTENTION)


def _found_mark(rank: int | None, survived: bool) -> str:
    """Where a case's expected text ranked; one never ranked was not found at all."""
    if rank is None:
        return "not found"
    return f"rank {rank}" + ("" if survived else ", cut from the response")
