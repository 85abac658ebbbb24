"""`synapse memory recall | eval`: answer a question; score recall on labeled cases."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from synapse_git import exit_codes
from synapse_git.cli.colour import paint
from synapse_git.cli.memory import FOLDER_OPTION
from synapse_git.cli.output import JSON_OPTION, print_json, scope_of, service
from synapse_git.escaping import counted, first_line

if TYPE_CHECKING:
    from synapse_git.answers import CandidateView, RecalledView

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
    svc = service()
    found = svc.recall(
        question,
        scope_of(svc, folder, quiet=as_json),
        budget=budget,
        limit=limit,
        explain=explain,
        alternatives=also,
        at=at,
    )
    if found.semantic is not None and found.semantic.startswith("off"):
        typer.echo(f"note: semantic recall {found.semantic}", err=True)
    if as_json:
        print_json(found.explained_json() if explain else found.as_json())
        return
    _print(found, question)
    if explain:
        _print_explain(found)


def _print(found: RecalledView, question: str) -> None:
    from synapse_git.service.results import elsewhere_note

    elsewhere = {
        int(f["ids"][0]): f.get("branch")
        for f in found.drift
        if f.get("kind") in ("unmerged", "orphaned")
    }
    for hit in found.hits:
        where = "global" if hit.project is None else "project"
        label = f"  [{hit.source}{'…' if hit.sourceabridged else ''}]" if hit.source else ""
        shared = f"  (shared by {hit.author})" if hit.author else ""
        weak = "  " + paint("weak", "weak") if hit.weak else ""
        typer.echo(f"{hit.id:>6}  {where}  {hit.score:.4f}{weak}{label}{shared}")
        if hit.id in elsewhere:
            typer.echo(f"        ({elsewhere_note(elsewhere[hit.id])})")
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


def _print_explain(found: RecalledView) -> None:
    """Every candidate: the hits in score order, the weak ones last with why, then
    what was left out and by what."""
    # With semantic recall on, each candidate also has its dense rank and cosine,
    # and with rewordings its best cosine to any wording.
    dense = any(hasattr(c, "cosine") for c in found.candidates)
    reworded = any(getattr(c, "reworded", False) for c in found.candidates)
    columns = "porter rank, trigram rank"
    if dense:
        columns += ", dense rank, cosine" + (", best cosine of any wording" if reworded else "")
    typer.echo(f"explain ({columns}, fused score, terms held, verdict):")
    if found.semantic is not None:
        typer.echo(f"  semantic: {found.semantic}")
    for note in found.notes:
        typer.echo(f"  note: {note}")
    returned = {hit.id for hit in found.hits}
    ranked = sorted(found.candidates, key=lambda c: -c.score)
    groups = (
        ("hits", [c for c in ranked if c.id in returned and not c.weak]),
        ("weak hits, given last", [c for c in ranked if c.id in returned and c.weak]),
        ("not given", [c for c in ranked if c.id not in returned]),
    )
    for title, candidates in groups:
        if candidates:
            typer.echo(f"  {title}:")
        for c in candidates:
            typer.echo(f"  {_explained(c, dense, reworded)}")


def _explained(c: CandidateView, dense: bool, reworded: bool) -> str:
    ranks = f"{_rank(c.porter):>3}  {_rank(c.trigram):>3}"
    if dense:
        ranks += f"  {_rank(getattr(c, 'dense', None)):>3}  {_cosine(getattr(c, 'cosine', None))}"
        if reworded:
            ranks += f"  {_cosine(getattr(c, 'near', None))}"
    held = ",".join(c.held) or "-"
    verdict = c.verdict
    if verdict == "kept" and c.weak:
        verdict = f"kept, weak: {c.why_weak}"
    elif verdict.startswith("weak"):
        # Left out as one weak hit too many: say what made it weak.
        verdict = f"weak, left out: {c.why_weak}"
    return f"{c.id:>6}  {ranks}  {c.score:.4f}  {held}  {verdict}"


def _cosine(value: float | None) -> str:
    return f"{'-' if value is None else f'{value:.3f}':>6}"


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
