"""`synapse memory recall | eval`: answer a question; score recall on labeled cases."""

from __future__ import annotations

from pathlib import Path

import typer

from synapse_git import exit_codes
from synapse_git.cli.colour import paint
from synapse_git.cli.memory import FOLDER_OPTION
from synapse_git.cli.output import JSON_OPTION, print_json, scope_of, service
from synapse_git.recall.response import Recalled
from synapse_git.textrules import counted, first_line

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
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Recall the memories that answer QUESTION, within a budget."""
    svc = service()
    found = svc.recall(
        question,
        scope_of(svc, folder, quiet=as_json),
        budget=budget,
        limit=limit,
        explain=explain,
        alternatives=also,
    )
    if found.semantic is not None and found.semantic.startswith("off"):
        typer.echo(f"note: semantic recall {found.semantic}", err=True)
    if as_json:
        print_json(found.explained_json() if explain else found.as_json())
        return
    _print(found, question)
    if explain:
        _print_explain(found)


def _print(found: Recalled, question: str) -> None:
    for hit in found.hits:
        where = "global" if hit.project is None else "project"
        label = f"  [{hit.source}{'…' if hit.sourceabridged else ''}]" if hit.source else ""
        shared = f"  (shared by {hit.author})" if hit.author else ""
        weak = "  " + paint("weak", "weak") if hit.weak else ""
        typer.echo(f"{hit.id:>6}  {where}  {hit.score:.4f}{weak}{label}{shared}")
        for line in hit.body.splitlines() or [""]:
            typer.echo(f"        {line}")
        if hit.abridged:
            typer.echo(f"        … abridged: {hit.bytes} bytes; synapse memory read {hit.id}")
    for finding in found.drift:
        typer.echo(f"drift: {finding.get('kind')}: {finding.get('detail')}")
    cut = (found.cut_floor, found.cut_limit, found.cut_budget)
    summary = f"{len(found.hits)} of {counted(found.searched, 'memory', 'memories')}"
    if any(cut):
        summary += f"; cut {cut[0]} by the floor, {cut[1]} by the limit, {cut[2]} by the budget"
    if found.cut_weak:
        summary += f"; {found.cut_weak} left out as weak evidence"
    if any(hit.weak for hit in found.hits):
        summary += "; weak: nothing covers much of the question (try other words with --also)"
    if not found.hits:
        among = counted(found.searched, "memory", "memories")
        typer.echo(f"nothing recalled for {first_line(question)!r} among {among}")
        typer.echo("  try `synapse memory list QUERY` for every match, or other words")
        return
    typer.echo(summary)


def _print_explain(found: Recalled) -> None:
    # With semantic recall on, each candidate also has its dense rank and cosine.
    dense = any(hasattr(c, "cosine") for c in found.candidates)
    columns = "porter rank, trigram rank" + (", dense rank, cosine" if dense else "")
    typer.echo(f"explain ({columns}, fused score, terms held, verdict):")
    if found.semantic is not None:
        typer.echo(f"  semantic: {found.semantic}")
    for note in found.notes:
        typer.echo(f"  note: {note}")
    for c in found.candidates:
        ranks = f"{_rank(c.porter):>3}  {_rank(c.trigram):>3}"
        if dense:
            cosine = getattr(c, "cosine", None)
            near = "-" if cosine is None else f"{cosine:.3f}"
            ranks += f"  {_rank(getattr(c, 'dense', None)):>3}  {near:>5}"
        held = ",".join(c.held) or "-"
        typer.echo(f"  {c.id:>6}  {ranks}  {c.score:.4f}  {held}  {c.verdict}")


def _rank(rank: int | None) -> str:
    return "-" if rank is None else str(rank)


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
