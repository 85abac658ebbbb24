"""`synapse memory embed`: back-fill the vectors of semantic recall (docs/semantic.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import typer

from synapse_git import exit_codes
from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json, service

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID


def embed(as_json: bool = JSON_OPTION) -> None:
    """Compute the vectors semantic recall needs for memories that lack one.

    Needs the semantic extra (`pip install -e '.[semantic]'` in the clone). Safe to
    interrupt: what is done is kept, and running it again resumes.
    """
    svc = service()
    try:
        with embedding_bar(lambda: not as_json) as advance:
            report = svc.embed(advance)
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


@contextmanager
def embedding_bar(show: Callable[[], bool]) -> Iterator[Callable[[int, int], None]]:
    """How far embedding has come, as a progress bar on stderr drawn from the first
    finished batch when `show()` says so then (none when there is nothing to embed)."""
    bar = _Bar(show)
    try:
        yield bar.advance
    finally:
        if bar.progress is not None and bar.progress.live.is_started:
            bar.progress.stop()


class _Bar:
    def __init__(self, show: Callable[[], bool]) -> None:
        self.show = show
        self.progress: Progress | None = None
        self.task: TaskID | None = None

    def advance(self, done: int, total: int) -> None:
        if self.progress is None:
            if not self.show():
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self.progress = Progress(
                "embedding",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
            )
            self.task = self.progress.add_task("embed", total=None)
            self.progress.start()
        assert self.task is not None
        self.progress.update(self.task, completed=done, total=total)
