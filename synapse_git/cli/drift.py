"""`synapse memory drift [FOLDER]`: stale paths, conflicts and duplicates, and `memory keep`
for a finding judged still true (docs/drift.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from synapse_git import exit_codes
from synapse_git.cli.colour import paint
from synapse_git.cli.options import FOLDER_OPTION, JSON_OPTION
from synapse_git.cli.output import print_json, scope_of, service
from synapse_git.errors import BadInput
from synapse_git.escaping import counted


def drift(
    folder: Path = typer.Argument(None, help="Check what this folder sees (default: here)."),
    kind: str = typer.Option(
        None,
        "--kind",
        "-k",
        help="Comma-separated kinds: stale, unverified, conflict, duplicate, changed, "
        "unmerged, orphaned (default: all).",
    ),
    as_json: bool = JSON_OPTION,
) -> None:
    """Find memories that went stale, contradict or repeat each other.

    Exit 0 when clean, 1 when there are findings (other than unverified or changed),
    2 on an error."""
    kinds = _kinds(kind)
    svc = service()
    report = svc.drift(scope_of(svc, folder, quiet=as_json), kinds)
    if as_json:
        print_json(report.as_json())
    else:
        _table([finding.as_json() for finding in report.findings], report.checked)
        if report.kept:
            kept = counted(report.kept, "finding", "findings")
            typer.echo(f"{kept} kept as still true not shown (`synapse memory keep ID --undo`)")
    if report.needs_attention:
        raise typer.Exit(exit_codes.NEEDS_ATTENTION)


def keep(
    ids: list[int] = typer.Argument(..., metavar="ID", help="The memories the findings name."),
    kind: str = typer.Option(
        None,
        "--kind",
        "-k",
        help="Comma-separated kinds to keep: stale, unverified, conflict, duplicate, changed "
        "(default: all).",
    ),
    paired_with: int = typer.Option(
        None, "--with", metavar="ID", help="Of conflicts and duplicates, only those with ID."
    ),
    undo: bool = typer.Option(False, "--undo", help="Take back what was kept: report it again."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Keep the drift findings about these memories as still true: drift stops reporting
    each one until one of its memories changes."""
    kinds = _kinds(kind)
    svc = service()
    scope = scope_of(svc, folder, quiet=as_json)
    if undo:
        done = svc.unkeep(ids, scope, kinds)
    else:
        done = svc.keep(ids, scope, kinds, paired_with=paired_with)
    if as_json:
        print_json(done.as_json())
    elif undo:
        typer.echo(f"took back {counted(done.undone, 'kept finding', 'kept findings')}")
    elif not done.findings:
        typer.echo(f"no drift finding about memory {', '.join(map(str, ids))} to keep")
    for found in done.findings:
        if not as_json:
            ids_text = ", ".join(map(str, found["ids"]))
            typer.echo(f"kept {found['kind']} about {ids_text}: {found['detail']}")


def _kinds(kind: str | None) -> list[str] | None:
    if kind is None:
        return None
    kinds = [part.strip() for part in kind.split(",") if part.strip()]
    if not kinds:
        raise BadInput(
            "--kind needs at least one of stale, unverified, conflict, duplicate, changed"
        )
    return kinds


def _table(rows: list[dict[str, Any]], checked: int) -> None:
    """The findings as their JSON gives them (docs/json.md), one under another."""
    if not rows:
        typer.echo(f"no drift: {counted(checked, 'memory', 'memories')} checked")
        return
    width = max(len(", ".join(map(str, f["ids"]))) for f in rows)
    typer.echo(f"{'KIND':<11} {'IDS':<{width}}  DETAIL")
    for finding in rows:
        ids = ", ".join(map(str, finding["ids"]))
        kind = paint(f"{finding['kind']:<11}", finding["kind"])
        typer.echo(f"{kind} {ids:<{width}}  {finding['detail']}")
        typer.echo(f"{'':<11} {'':<{width}}  settle: {finding['suggest']}")
        for memory_id, who in finding.get("authors", {}).items():
            typer.echo(f"{'':<11} {'':<{width}}  memory {memory_id} shared by {who}")
    counts: dict[str, int] = {}
    for finding in rows:
        counts[finding["kind"]] = counts.get(finding["kind"], 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    plural = "finding" if len(rows) == 1 else "findings"
    checked_text = counted(checked, "memory", "memories")
    typer.echo(f"{len(rows)} {plural} ({summary}) in {checked_text} checked")
