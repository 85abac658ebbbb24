"""`synapse memory …`: remember, read and look after memories.

Other modules of this package add their commands to `app` (recall, drift,
check, import, export); `cli/app.py` imports them all.
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
    write_bytes,
)
from synapse_git.errors import BadInput
from synapse_git.escaping import counted, first_line, visible
from synapse_git.service import Remembered
from synapse_git.service.inspection import PathNow, TeamStatus

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
    memory_id: int = typer.Argument(..., metavar="ID"),
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
    source: str = typer.Option("", "--source", "-s"),
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
    memory_id: int = typer.Argument(None, metavar="ID"),
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
    ids: list[int] = typer.Argument(..., metavar="ID...", help="The memories to delete."),
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
    memory_id: int = typer.Argument(..., metavar="ID"),
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
    memory_id: int = typer.Argument(..., metavar="ID"),
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


@app.command("show")
def show(
    memory_id: int = typer.Argument(..., metavar="ID"),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """One memory whole, with what is known about it: state, scope, source, dates, the
    commit and branch it was written at, the paths it names as they are now and what
    changed in them since, its supersession chain and whether the team shares it."""
    svc = service()
    page = svc.memory_page(memory_id, scope_of(svc, folder, quiet=as_json))
    if as_json:
        print_json(page.as_json())
        return
    found = page.history
    memory = found.memory
    facts = [
        ("state", memory.state),
        ("scope", "global" if memory.project is None else f"project {memory.project}"),
        ("source", memory.source or "-"),
        ("created", memory.created_at),
        ("updated", memory.updated_at),
        (
            "commit",
            _commit_line(memory.head_commit, memory.branch)
            + (" (inferred)" if page.anchor_inferred else ""),
        ),
        ("supersedes", ", ".join(map(str, found.supersedes)) or "-"),
        ("superseded by", "-" if memory.superseded_by is None else str(memory.superseded_by)),
        ("chain", " -> ".join(map(str, found.chain)) if len(found.chain) > 1 else "-"),
        ("versions", f"{len(found.versions) + 1} (synapse memory history {memory.id})"),
        ("team", _team_line(page.team)),
    ]
    typer.echo(f"memory {memory.id}")
    for name, value in facts:
        shown = paint(value, value) if name == "state" else visible(value)
        typer.echo(f"  {name:<14}{shown}")
    if page.paths:
        typer.echo("  paths")
        for path in page.paths:
            said = _path_line(path, memory.head_commit)
            typer.echo(f"    {visible(path.path)}: {visible(said)}")
    typer.echo("")
    sys.stdout.flush()
    write_bytes(visible(memory.body).encode("utf-8"))
    write_bytes(b"" if memory.body.endswith("\n") else b"\n", flush=True)


def _team_line(team: TeamStatus | None) -> str:
    if team is None:
        return "not shared"
    who = "shared from here" if team.origin == "here" else "from the team"
    where = {
        None: "this checkout's team file could not be read",
        True: f"in this checkout's team file ({team.file_state})",
        False: "not in this checkout's team file",
    }[team.in_file]
    return f"{who} as {team.uid}, by {team.author or '?'}; {where}"


def _path_line(path: PathNow, anchor: str | None) -> str:
    if path.state == "stale":
        said = "gone from this checkout"
        if path.renamed_to:
            said += f"; now {path.renamed_to}"
        elif path.deleted:
            said += f"; deleted in {path.deleted}"
        return said
    if path.state == "unverified":
        return path.note or "git has never seen it here"
    if path.state == "outside":
        return "not checked from here (another project, or global)"
    if path.state == "skipped":
        return "never called missing (build output, ignored, or outside the checkout)"
    if path.commits is None:
        return "present" if anchor else "present (no commit known to compare with)"
    if path.commits == 0:
        return f"present, unchanged since {anchor[:12] if anchor else '?'}"
    named = f" ({path.file})" if path.file != path.path else ""
    noun = "commit" if path.commits == 1 else "commits"
    return f"present{named}, {path.commits} {noun} and {path.lines} lines changed since"


def _commit_line(commit: str | None, branch: str | None) -> str:
    if commit is None:
        return "-"
    on = f" on {branch}" if branch else ""
    return f"{commit[:12]}{on}"


@app.command("blame")
def blame(
    target: str = typer.Argument(
        ..., metavar="PATH[:LINE]", help="A file or folder, from here; :LINE for one line."
    ),
    folder: Path = FOLDER_OPTION,
    as_json: bool = JSON_OPTION,
) -> None:
    """The memories that name PATH, also under the names it had before its renames,
    with their commit, author and state; with :LINE, which of them name that line and
    whether it changed since they were written."""
    svc = service()
    found = svc.blame(target, scope_of(svc, folder, quiet=as_json))
    if as_json:
        print_json(found.as_json())
        return
    head = found.path if found.line is None else f"{found.path}:{found.line}"
    if found.line is not None:
        changed = found.line_when or "not committed yet"
        head += f" (line last changed: {changed})"
    typer.echo(visible(head))
    for name, renamed in found.formers:
        typer.echo(f"  formerly {visible(name)}, renamed in {renamed}")
    if not found.memories:
        typer.echo(f"no memory names {visible(found.path)}")
        return
    for named in found.memories:
        memory = named.memory
        anchor = _commit_line(memory.head_commit, memory.branch)
        anchor += " (inferred)" if named.anchor_inferred else ""
        who = f", shared by {named.author}" if named.author else ""
        state = paint(memory.state, memory.state)
        typer.echo(f"memory {memory.id} [{state}] written at {anchor}{who}")
        notes = ["names " + ", ".join(named.named_as)]
        if named.former:
            notes.append(f"by a former name (renamed in {named.former})")
        if named.mentions_line:
            notes.append(f"names line {found.line}")
        if named.line_changed_since:
            notes.append(f"line {found.line} changed since it was written")
        typer.echo("  " + visible("; ".join(notes)))
        typer.echo("  " + visible(first_line(memory.body)))
    rest = found.total - len(found.memories)
    if rest > 0:
        typer.echo(f"… and {rest} more (--json lists the same {len(found.memories)})")


@app.command("read")
def read(
    memory_id: int = typer.Argument(..., metavar="ID"),
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
