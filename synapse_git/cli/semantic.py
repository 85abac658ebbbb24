"""`synapse memory embed`: back-fill the vectors of semantic recall (docs/semantic.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from synapse_git import exit_codes
from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json, service
from synapse_git.service import Synapse

if TYPE_CHECKING:
    from synapse_git.semantic.engine import EmbedReport


def embed(as_json: bool = JSON_OPTION) -> None:
    """Compute the vectors semantic recall needs for memories that lack one.

    Needs the semantic extra (`pip install -e '.[semantic]'` in the clone). Safe to
    interrupt: what is done is kept, and running it again resumes.
    """
    svc = service()
    try:
        report = run_embed(svc, show=not as_json)
    except KeyboardInterrupt:
        typer.echo("interrupted; run `synapse memory embed` again to resume", err=True)
        raise typer.Exit(exit_codes.INTERRUPTED) from None
    if as_json:
        print_json(
            {"embedded": report.embedded, "remaining": report.remaining, "notice": report.notice}
        )
    elif report.notice is None:
        typer.echo(f"embedded {report.embedded} memories; {report.remaining} without a vector")
    if report.notice is not None:
        typer.echo(f"synapse: semantic recall {report.notice}", err=True)
        raise typer.Exit(exit_codes.NEEDS_ATTENTION)


def run_embed(svc: Synapse, *, show: bool) -> EmbedReport:
    """Embed what lacks a vector, with a progress bar on stderr when `show`."""
    with _bar(show) as progress:
        return svc.embed(progress)


@contextmanager
def _bar(show: bool) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on stderr, drawn from the first finished batch (none when
    there is nothing to embed)."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    bar = Progress(
        "embedding",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
    )
    task = bar.add_task("embed", total=None)

    def advance(done: int, total: int) -> None:
        if not bar.live.is_started:
            bar.start()
        bar.update(task, completed=done, total=total)

    try:
        yield advance
    finally:
        if bar.live.is_started:
            bar.stop()
