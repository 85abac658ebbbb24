"""`synapse memory check | import | export`: the store as a whole."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

import typer

from synapse_git.cli.memory import app
from synapse_git.cli.output import JSON_OPTION, emit, service
from synapse_git.errors import BadInput

PROGRESS_FROM = 2000


@app.command("check")
def check(
    repair: bool = typer.Option(False, "--repair", help="Rebuild both indexes from the rows."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Verify the two search indexes against the stored rows (exit 1 when damaged)."""
    svc = service()
    report = svc.check(repair=repair)
    vectors = svc.vector_coverage(repair=repair)
    if as_json:
        data = {"ok": report.ok, "live": report.live, "problems": list(report.problems)}
        emit(data if vectors is None else {**data, "vectors": vectors.as_json()})
    elif report.ok:
        typer.echo(f"ok: {report.live} live memories, both indexes in step")
    else:
        for problem in report.problems:
            typer.echo(f"problem: {problem}")
        typer.echo("run `synapse memory check --repair` to rebuild the indexes")
    if vectors is not None and not as_json:
        # Vectors are derived data: lacking them is a task for `embed`, not damage.
        typer.echo(
            f"vectors: {vectors.current} of {vectors.live} live memories;"
            f" {vectors.missing} missing, {vectors.outdated} outdated"
            + ("; run `synapse memory embed`" if vectors.missing or vectors.outdated else "")
        )
    if not report.ok:
        raise typer.Exit(1)


@app.command("export")
def export(
    output: Path = typer.Argument(None, help="File to write (default: standard output)."),
    force: bool = typer.Option(False, "--force", help="Replace OUTPUT if it exists."),
) -> None:
    """Write every live memory as JSON Lines."""
    if output is None:
        # JSON Lines are UTF-8 whatever the terminal's encoding.
        out = sys.stdout.buffer
        for line in service().export():
            out.write(line.encode("utf-8") + b"\n")
        out.flush()
        return
    path, count = service().export_to(output, force=force)
    typer.echo(f"exported {count} memories to {path}", err=True)


@app.command("import")
def import_(
    source: Path = typer.Argument(..., help="A JSON Lines file, or - for standard input."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Import memories from JSON Lines; one bad line stops it and nothing is imported."""
    text = _read(source)
    # Only "\n" ends a line: JSON keeps U+2028, U+0085 and friends raw inside strings,
    # and str.splitlines() would cut a line there.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    svc = service()
    report = svc.import_lines(lines, _progress(len(lines), sys.stderr))
    if as_json:
        emit(vars(report))
    else:
        typer.echo(f"imported {report.imported} memories ({report.duplicates} duplicates skipped)")
    if report.imported and svc.semantic.installed():
        from synapse_git.cli.semantic import run_embed

        # The import is committed; its vectors follow, resumable by `memory embed`.
        embedded = run_embed(svc, show=not as_json and len(lines) > PROGRESS_FROM)
        if embedded.notice is not None:
            typer.echo(f"synapse: semantic recall {embedded.notice}", err=True)


def _read(source: Path) -> str:
    try:
        raw = sys.stdin.buffer.read() if str(source) == "-" else source.read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read {source}: {exc.strerror}") from None
    try:
        # A byte order mark some editors write is not part of the first line.
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise BadInput(f"line {line}: not valid UTF-8; nothing was imported") from None


def _progress(total: int, stream: TextIO) -> Callable[[int], None] | None:
    if total <= PROGRESS_FROM:
        return None
    ticks = _ticks(total)
    live = stream.isatty()

    def show(done: int) -> None:
        if done == next_tick[0] or done == total:
            width = 30
            filled = width * done // total
            bar = "#" * filled + "-" * (width - filled)
            end = "\r" if live and done < total else "\n"
            stream.write(f"importing [{bar}] {done}/{total} lines{end}")
            stream.flush()
            next_tick[0] = next(ticks, total)

    next_tick = [next(ticks, total)]
    return show


def _ticks(total: int) -> Iterator[int]:
    step = max(1, total // 20)
    yield from range(step, total, step)
