"""`synapse memory show ID` and `synapse memory blame PATH`: memories looked at through
git (service/inspection.py), the one memory with its anchor, paths and chain, and the
memories naming a path. They join the `memory` group (cli/app.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from synapse_git.cli.colour import paint
from synapse_git.cli.options import FOLDER_OPTION, JSON_OPTION
from synapse_git.cli.output import print_json, scope_of, service, write_bytes
from synapse_git.escaping import first_line, visible
from synapse_git.service.memory_show import PathNow, TeamStatus


def show(
    memory_id: int = typer.Argument(..., metavar="ID", help="The memory to show."),
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
