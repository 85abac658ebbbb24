"""JSON Lines import and export (docs/store.md): one object a line,
`{"body", "source", "project", "created_at", "head_commit", "everywhere"}`; `project`
is a folder path or null; `head_commit` the commit the memory was written at (its
anchor): a line without one is anchored at the project's current HEAD; `everywhere`
(true, or absent) a project memory that holds on every branch."""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from synapse_git.errors import BadInput, SynapseError
from synapse_git.escaping import json_text
from synapse_git.git import project_scope
from synapse_git.line_fields import check_text, check_times
from synapse_git.store import batches, memories, project_rows, staging
from synapse_git.textrules import key_of, normalize, utf8

if TYPE_CHECKING:
    from synapse_git.answers import ImportOut


@dataclass(frozen=True)
class ImportReport:
    imported: int
    duplicates: int
    lines: int
    batch: int | None = None  # None when nothing new was stored

    def as_json(self) -> ImportOut:
        return {
            "imported": self.imported,
            "duplicates": self.duplicates,
            "lines": self.lines,
            "batch": self.batch,
        }


def export_lines(conn: sqlite3.Connection) -> Iterator[str]:
    for memory, everywhere in memories.live_rows(conn):
        # Escaped as every JSON output is (escaping.py): the exact text when parsed,
        # no bidi or C1 control when the lines are shown on a terminal.
        yield json_text(
            {
                "body": memory.body,
                "source": memory.source,
                "project": memory.project,
                "created_at": memory.created_at,
                "updated_at": memory.updated_at,
                **({"head_commit": memory.head_commit} if memory.head_commit else {}),
                **({"everywhere": True} if everywhere else {}),
            },
        )


def import_lines(
    conn: sqlite3.Connection,
    lines: Iterable[str],
    progress: Callable[[int], None] | None = None,
) -> ImportReport:
    """Store every line; any bad line raises BadInput naming it, and the caller's
    transaction then rolls the whole import back. Blank lines are skipped."""
    projects: dict[str, str] = {}
    heads: dict[str, str | None] = {}
    imported = duplicates = count = 0
    batch: int | None = None
    staged = staging.Staged(conn)
    for count, line in enumerate(lines, start=1):
        if progress is not None:
            progress(count)
        if not line.strip():
            continue
        try:
            body, source, project, created, updated, anchor, everywhere = _parse(
                conn, line, projects
            )
        except SynapseError as exc:
            raise BadInput(f"line {count}: {exc}; nothing was imported") from None
        normal = normalize(body)
        key = key_of(normal)
        if (
            staged.holds(normal, key, project)
            or memories.find_normal(conn, normal, key, project) is not None
        ):
            duplicates += 1
            continue
        if batch is None:
            batch = batches.start(conn)
        if anchor is None and project is not None:
            anchor = _head(project, heads)
        stamp = created or memories.now()
        staged.add(
            body,
            source,
            project,
            created_at=stamp,
            updated_at=updated or stamp,
            normal=normal,
            key=key,
            head_commit=anchor,
            import_id=batch,
            everywhere=everywhere,
        )
        imported += 1
    staged.write()
    return ImportReport(imported, duplicates, count, batch)


def _head(project: str, heads: dict[str, str | None]) -> str | None:
    """The commit the project's checkout is at now, once per import; None when the
    project is not a repository here (or has no commit yet)."""
    if project not in heads:
        heads[project] = None
        if os.path.isdir(project):
            with contextlib.suppress(SynapseError):
                found = project_scope.resolve(project)
                if found.project == project:
                    heads[project] = project_scope.head(found).commit
    return heads[project]


_COMMIT = re.compile(r"[0-9a-f]{40}(?:[0-9a-f]{24})?")


def _parse(
    conn: sqlite3.Connection, line: str, projects: dict[str, str]
) -> tuple[str, str, str | None, str | None, str | None, str | None, bool]:
    try:
        doc: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        raise BadInput(f"not valid JSON ({exc.msg} at column {exc.colno})") from None
    except ValueError as exc:
        # An integer of thousands of digits: Python refuses to read it.
        raise BadInput(f"not usable JSON ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise BadInput("not usable JSON (nested too deep)") from None
    if not isinstance(doc, dict):
        raise BadInput("expected a JSON object")
    body, source = check_text(doc.get("body"), doc.get("source", ""))
    created, updated = check_times(doc.get("created_at"), doc.get("updated_at"))
    anchor = doc.get("head_commit")
    if anchor is not None and (not isinstance(anchor, str) or not _COMMIT.fullmatch(anchor)):
        raise BadInput('"head_commit" must be a full commit id (40 or 64 hex digits) or null')
    everywhere = doc.get("everywhere", False)
    if not isinstance(everywhere, bool):
        raise BadInput('"everywhere" must be true or false')
    project = _project(conn, doc.get("project"), projects)
    if everywhere and project is None:
        raise BadInput('"everywhere" is for project memories: a global one holds everywhere')
    return body, source, project, created, updated or created, anchor, everywhere


def _project(conn: sqlite3.Connection, value: object, cache: dict[str, str]) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not value:
        raise BadInput('"project" must be a folder path or null')
    if value not in cache:
        utf8(value, '"project"')
        try:
            folder = Path(value).expanduser().absolute()
            is_dir = folder.is_dir()
            if not is_dir and folder.exists():
                raise BadInput(f'"project" {value[:200]!r} is a file, not a folder')
            # A repository not cloned here yet keeps its key; `project move` re-keys it later.
            # Normalized like a scope key (`..`, symlinked parents), so it can match one later.
            key = None if is_dir else os.path.realpath(folder)
        except (OSError, ValueError, RuntimeError):
            # NUL bytes, names too long, `~user` of no such user: not a path at all.
            raise BadInput(f'"project" {value[:80]!r} is not a usable folder path') from None
        if key is None:
            found = project_scope.resolve(folder)
            if found.project is None:
                raise BadInput(f"project folder {value} is not inside a git repository")
            key = found.project
            if not project_rows.root_known(conn, found.project):
                # Lets `project show` recognise this repository if it is moved later.
                project_rows.note_project(conn, found.project, project_scope.root_commit(found))
        cache[value] = key
    return cache[value]
