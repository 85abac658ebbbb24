"""`synapse memory check | import | export`: the store as a whole."""

from __future__ import annotations

import itertools
import os
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

import typer

from synapse_git import exit_codes
from synapse_git.cli.options import JSON_OPTION
from synapse_git.cli.output import print_json, service, write_bytes
from synapse_git.cli.semantic import embedding_bar
from synapse_git.errors import BadInput
from synapse_git.escaping import counted
from synapse_git.settings import MAX_BODY_BYTES, MAX_SOURCE_BYTES

if TYPE_CHECKING:
    from synapse_git.answers import ImportOut

# Bytes: a file this large shows a progress bar.
PROGRESS_FROM = 256 * 1024
# A line holding the largest body and source, every character JSON-escaped to six bytes.
MAX_LINE_BYTES = 6 * (MAX_BODY_BYTES + MAX_SOURCE_BYTES) + 4096


def check(
    repair: bool = typer.Option(False, "--repair", help="Rebuild both indexes from the rows."),
    as_json: bool = JSON_OPTION,
) -> None:
    """Verify the two search indexes against the stored rows (exit 1 when damaged)."""
    checked = service().check_store(repair=repair)
    report, vectors = checked.report, checked.vectors
    if as_json:
        print_json(checked.as_json())
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
        raise typer.Exit(exit_codes.NEEDS_ATTENTION)


def export(
    output: Path = typer.Argument(None, help="File to write (default: standard output)."),
    force: bool = typer.Option(False, "--force", help="Replace OUTPUT if it exists."),
) -> None:
    """Write every live memory as JSON Lines."""
    if output is None:
        # JSON Lines are UTF-8 whatever the terminal's encoding.
        for line in service().export():
            write_bytes(line.encode("utf-8") + b"\n")
        write_bytes(b"", flush=True)
        return
    path, count = service().export_to(output, force=force)
    typer.echo(f"exported {counted(count, 'memory', 'memories')} to {path}", err=True)


def import_(
    source: Path = typer.Argument(..., help="A JSON Lines file, or - for standard input."),
    as_json: bool = JSON_OPTION,
    kind: str = typer.Option(
        "jsonl",
        "--from",
        help="jsonl, or claude-md, agents-md or markdown: each bullet point of a Markdown"
        " memory file becomes a memory of the file's project, sourced FILE:LINE.",
    ),
) -> None:
    """Import memories from JSON Lines (or a CLAUDE.md / AGENTS.md file's bullet points);
    one bad line stops it and nothing is imported."""

    def said(report: ImportOut) -> None:
        if as_json:
            print_json(report)
            return
        typer.echo(
            f"imported {report['imported']} memories ({report['duplicates']} duplicates skipped)"
        )
        if report["batch"] is not None:
            batch = report["batch"]
            typer.echo(f"batch {batch}; undo: synapse memory forget --import {batch}")

    if kind != "jsonl":
        # A memory file is small: its vectors are computed without a bar.
        done = service().import_notes(source, kind, said=said)
    else:
        try:
            handle = sys.stdin.buffer if str(source) == "-" else source.open("rb")
        except OSError as exc:
            raise BadInput(f"cannot read {source}: {exc.strerror}") from None
        with handle:
            reader = _Lines(handle)
            progress = _progress(reader, _size(handle), sys.stderr)
            # A bar for the vectors too, after a file large enough to have had one.
            with embedding_bar(lambda: not as_json and reader.done > PROGRESS_FROM) as bar:
                done = service().import_jsonl(reader, progress=progress, said=said, embedding=bar)
    if done.embedded is not None and done.embedded.notice is not None:
        typer.echo(f"synapse: semantic recall {done.embedded.notice}", err=True)


class _Lines:
    """The lines of a JSON Lines input, read one at a time and never more than
    MAX_LINE_BYTES of a line: a line with no end (`< /dev/zero`) is refused at once."""

    def __init__(self, handle: BinaryIO) -> None:
        self.handle = handle
        self.done = 0

    def __iter__(self) -> Iterator[str]:
        for number in itertools.count(1):
            try:
                raw = self.handle.readline(MAX_LINE_BYTES + 1)
            except OSError as exc:
                raise BadInput(f"cannot read line {number}: {exc.strerror}") from None
            if not raw:
                return
            self.done += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                raise BadInput(
                    f"line {number} is over {MAX_LINE_BYTES} bytes, more than any memory "
                    "takes; nothing was imported"
                )
            try:
                # A byte order mark some editors write is not part of the first line.
                text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise BadInput(f"line {number}: not valid UTF-8; nothing was imported") from None
            # Only "\n" ends a line: JSON keeps U+2028, U+0085 and friends raw inside strings.
            yield text.removesuffix("\n").removesuffix("\r")


def _size(handle: BinaryIO) -> int | None:
    """The size of a regular file, for the progress bar; None for a pipe or a terminal."""
    try:
        info = os.fstat(handle.fileno())
    except (OSError, ValueError):
        return None
    return info.st_size if stat.S_ISREG(info.st_mode) else None


def _progress(reader: _Lines, total: int | None, stream: TextIO) -> Callable[[int], None] | None:
    if total is None or total <= PROGRESS_FROM:
        return None
    live = stream.isatty()
    shown = [0]

    def show(lines: int) -> None:
        done = reader.done
        # Twenty steps over the whole file, and the last line when it is reached.
        if done * 20 // total > shown[0] or done >= total:
            shown[0] = done * 20 // total
            width = 30
            filled = min(width, width * done // total)
            bar = "#" * filled + "-" * (width - filled)
            end = "\r" if live and done < total else "\n"
            stream.write(f"importing [{bar}] {lines} lines{end}")
            stream.flush()

    return show
