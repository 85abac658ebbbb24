"""What every command shares: the service, scope notices, JSON, stdin bodies."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from synapse_git.errors import BadInput
from synapse_git.git.project_scope import Scope
from synapse_git.service import Synapse

JSON_OPTION = typer.Option(False, "--json", help="Print JSON instead of text.")


def service() -> Synapse:
    return Synapse()


def here(svc: Synapse, folder: Path | None = None, *, quiet: bool = False) -> Scope:
    """The scope of `folder`; outside a project, say once that only global memory shows."""
    found = svc.scope(folder)
    if found.project is None and not quiet:
        typer.echo(f"note: {found.note}; only global memory is visible.", err=True)
    return found


def emit(data: Any) -> None:
    typer.echo(json.dumps(data, ensure_ascii=False))


def body_arg(text: str) -> str:
    """The body as given, or standard input read as strict UTF-8 when it is `-`."""
    if text != "-":
        return text
    raw = sys.stdin.buffer.read()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"standard input is not valid UTF-8 (byte {exc.start})") from None


def moved_hints(moved_from: list[str], project: str | None) -> list[str]:
    """What to run when this repository's memories still carry its old path."""
    from synapse_git.drift.settle import command

    return [
        f"hint: {old} no longer exists and has this repository's root commit; "
        f"run: {command('synapse', 'project', 'move', old, project or '.')}"
        for old in moved_from
    ]
