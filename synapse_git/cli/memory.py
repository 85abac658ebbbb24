"""`synapse memory …`: remember, read and look after memories.

Other modules of this package add their commands to the group (recall, drift,
check, import, export, show, blame…): `cli/app.py` joins them (its JOINING table).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from synapse_git.cli import reading
from synapse_git.cli.colour import paint
from synapse_git.cli.options import FOLDER_OPTION, JSON_OPTION
from synapse_git.cli.output import (
    body_arg,
    print_json,
    scope_of,
    service,
)
from synapse_git.errors import BadInput
from synapse_git.escaping import counted, first_line
from synapse_git.service import Remembered

if TYPE_CHECKING:
    from synapse_git.answers import MemoryOut

app = typer.Typer(help="Remember, recall, read and look after memories.", no_args_is_help=True)


@app.command("remember")
def remember(
    text: str = typer.Argument(..., help="The memory's text, or - to read it from stdin."),
    source: str = typer.Option("", "--source", "-s", help="Where it comes from (file, URL…)."),
    is_global: bool = typer.Option(False, "--global", help="Store globally, not in the project."),
    supersedes: int = typer.Option(None, "--supersedes", help="Id of the memory this replaces."),
    share: bool = typer.Option(
        False, "--share", help="Also share it with the team through the repository."
    ),
    everywhere: bool = typer.Option(
        False,
        "--everywhere",
        help="It holds on every branch: never labelled or left out as another branch's.",
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Remember a short fact about this project (or, with --global, everywhere)."""
    svc = service()
    # Outside a project the service's own error (or --global) already says where it goes.
    scope = scope_of(svc, folder, quiet=True)
    result = svc.remember(
        body_arg(text),
        scope,
        source=source,
        is_global=is_global,
        supersedes=supersedes,
        share=share,
        everywhere=everywhere,
    )
    _print_remembered(result, as_json, supersedes)


def _print_remembered(result: Remembered, as_json: bool, supersedes: int | None) -> None:
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if as_json:
        print_json(result.as_json())
        return
    where = "global" if result.project is None else result.project
    if result.duplicate_of is not None:
        typer.echo(f"already remembered as {result.id} ({where})")
    else:
        typer.echo(f"remembered {result.id} ({where})")
    if supersedes is not None:
        typer.echo(f"  supersedes {supersedes}")
    for finding in result.drift:
        typer.echo(f"  {finding.get('kind')}: {finding.get('detail')}")


@app.command("edit")
def edit(
    memory_id: int = typer.Argument(..., metavar="ID", help="The memory to change."),
    text: str = typer.Argument(
        None, help="The new text, or - to read it from stdin; none: open $EDITOR."
    ),
    source: str = typer.Option(None, "--source", "-s", help="A new source label."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Change a memory's text or source; the previous version goes to its history.
    With neither TEXT nor --source, the text opens in $VISUAL or $EDITOR."""
    svc = service()
    scope = scope_of(svc, folder)
    body = None if text is None else body_arg(text)
    if body is None and source is None:
        from synapse_git.cli.editor import edited

        done = svc.edit_with(memory_id, scope, lambda now: edited(memory_id, now))
        if done is None:
            typer.echo(f"no change: memory {memory_id} is as it was")
            return
        _print_state(done.as_json(), "edited", as_json)
        return
    memory = svc.edit(memory_id, scope, body=body, source=source)
    _print_state(memory.as_json(), "edited", as_json)


@app.command("supersede")
def supersede(
    old_id: int = typer.Argument(..., metavar="OLD_ID", help="The memory that is out of date."),
    text: str = typer.Argument(None, help="The corrected text (or - for stdin)."),
    by: int = typer.Option(None, "--by", help="An existing memory that replaces OLD_ID."),
    source: str = typer.Option("", "--source", "-s", help="The source of the corrected TEXT."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Replace a memory: by new TEXT (stored in OLD_ID's scope) or by an existing one (--by)."""
    svc = service()
    if (text is None) == (by is None):
        raise typer.BadParameter("give either the corrected TEXT or --by ID")
    body = None if text is None else body_arg(text)
    done = svc.replace(old_id, scope_of(svc, folder), body=body, by=by, source=source)
    if by is not None:
        _print_state(done.old.as_json(), "superseded", as_json, f" by {by}")
    else:
        _print_remembered(done.new, as_json, old_id)


@app.command("forget")
def forget(
    memory_id: int = typer.Argument(None, metavar="ID", help="The memory to forget."),
    batch: int = typer.Option(
        None, "--import", metavar="BATCH", help="Instead of ID: every memory import BATCH stored."
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Hide a memory from recall, reading, drift and sessions (restore brings it back)."""
    svc = service()
    if (memory_id is None) == (batch is None):
        raise BadInput("give a memory ID or --import BATCH (the batch `memory import` printed)")
    if batch is not None:
        undone = svc.forget_import(batch)
        if as_json:
            print_json(vars(undone))
        else:
            forgot = counted(undone.forgotten, "memory", "memories")
            left = f" ({undone.left} already hidden, left as they were)" if undone.left else ""
            typer.echo(f"forgot {forgot} of import {batch}{left}")
        return
    _print_state(svc.forget(memory_id, scope_of(svc, folder)).as_json(), "forgotten", as_json)


@app.command("purge")
def purge(
    ids: list[int] = typer.Argument(..., metavar="ID", help="The memories to delete."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask: delete them."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Delete memories for good: the text, every version, the vector and the index
    entries leave the store's files. `forget` only hides; this cannot be undone."""
    if not yes:
        if not sys.stdin.isatty():
            raise BadInput("purge deletes for good and cannot be undone: pass --yes to do it")
        words = counted(len(ids), "memory", "memories")
        typer.confirm(f"Delete {words} for good (this cannot be undone)?", abort=True)
    svc = service()
    done = svc.purge(ids, scope_of(svc, folder, quiet=as_json))
    if as_json:
        print_json({"purged": [memory.id for memory in done]})
    else:
        for memory in done:
            typer.echo(f"purged {memory.id}: {first_line(memory.body)}")
    typer.echo(
        "note: backups made before now (synapse memory backup, copies of memory.db) and"
        " exports still hold what was purged",
        err=True,
    )


@app.command("restore")
def restore(
    memory_id: int = typer.Argument(..., metavar="ID", help="The memory to restore."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Bring back a superseded or forgotten memory."""
    svc = service()
    _print_state(svc.restore(memory_id, scope_of(svc, folder)).as_json(), "restored", as_json)


def _print_state(memory: MemoryOut, what: str, as_json: bool, why: str = "") -> None:
    if as_json:
        print_json(memory)
    else:
        typer.echo(f"{what} {memory['id']}{why}: {first_line(memory['body'])}")


@app.command("history")
def history(
    memory_id: int = typer.Argument(..., metavar="ID", help="The memory whose versions to show."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Every version of a memory and its supersession chain."""
    svc = service()
    found = svc.history(memory_id, scope_of(svc, folder))
    if as_json:
        print_json(found.as_json())
        return
    memory = found.memory
    typer.echo(
        f"memory {memory.id} ({paint(memory.state, memory.state)}), created {memory.created_at}"
    )
    for number, version in enumerate(found.versions, start=1):
        state = paint(version.state, version.state)
        typer.echo(f"  v{number} [{state}] until {version.changed_at} ({version.change})")
        typer.echo(f"     {first_line(version.body)}")
    state = paint(memory.state, memory.state)
    typer.echo(f"  v{len(found.versions) + 1} [{state}] current, since {memory.updated_at}")
    typer.echo(f"     {first_line(memory.body)}")
    if memory.superseded_by is not None:
        typer.echo(f"  superseded by {memory.superseded_by}")
    if found.supersedes:
        typer.echo("  supersedes " + ", ".join(map(str, found.supersedes)))
    if len(found.chain) > 1:
        typer.echo("  chain " + " -> ".join(map(str, found.chain)))


@app.command("read")
def read(
    memory_id: int = typer.Argument(..., metavar="ID", help="The memory to read."),
    offset: int = typer.Option(0, "--offset", help="Byte offset to start at (a page's next)."),
    budget: str = typer.Option(None, "--budget", help="lean, balanced or full: the page size."),
    project: str = typer.Option(None, "--project", help="Only if the memory is of this project."),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Print one exact page of a memory; follow `next` until it is null."""
    reading.read(
        memory_id, offset=offset, budget=budget, project=project, folder=folder, as_json=as_json
    )


@app.command("list")
def list_(
    query: str = typer.Argument(
        None, help="Only memories matching these words (every match: no floor or limit)."
    ),
    limit: int = typer.Option(
        None, "--limit", "-n", min=1, help="Show at most this many (default: 50 without QUERY)."
    ),
    scope_name: str = typer.Option(None, "--scope", help="Only project or only global ones."),
    source: str = typer.Option(None, "--source", "-s", help="Only those whose source holds this."),
    author: str = typer.Option(
        None, "--author", help="Only team memories whose author holds this."
    ),
    since: str = typer.Option(
        None, "--since", help="Only those stored since a date (2026-11-30) or an age (7d, 2w)."
    ),
    state: str = typer.Option(
        None, "--state", help="live (default), superseded, forgotten, or any."
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """Visible memories, newest first; with QUERY, every memory that matches it."""
    reading.list_(
        query,
        limit=limit,
        scope_name=scope_name,
        source=source,
        author=author,
        since=since,
        state=state,
        folder=folder,
        as_json=as_json,
    )
