"""readmemory: one byte-exact page of a stored body (docs/recall.md).

SQLite cuts the slice (`substr` over the body as a BLOB), so serving a page
never brings a whole large body into Python.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.settings import SOURCE_ALLOWANCE
from synapse_git.store.memories import MAX_INT, in_scope_sql
from synapse_git.textrules import cut_utf8

if TYPE_CHECKING:
    from synapse_git.answers import PageOut


@dataclass(frozen=True)
class Page:
    id: int
    project: str | None
    source: str
    sourceabridged: bool
    body: str
    offset: int
    next: int | None
    total: int

    def as_json(self) -> PageOut:
        return {
            "id": self.id,
            "project": self.project,
            "source": self.source,
            "sourceabridged": self.sourceabridged,
            "body": self.body,
            "offset": self.offset,
            "next": self.next,
            "total": self.total,
        }


def abridge_source(source: str) -> tuple[str, bool]:
    data = source.encode("utf-8")
    if len(data) <= SOURCE_ALLOWANCE:
        return source, False
    return cut_utf8(data, SOURCE_ALLOWANCE).decode("utf-8"), True


def read_page(
    conn: sqlite3.Connection,
    memory_id: int,
    projects: Sequence[str],
    *,
    offset: int,
    page_bytes: int,
    project: str | None = None,
    check_project: bool = False,
) -> Page | None:
    """The page at byte `offset`, or None when the id is not a live memory visible
    from `projects` (and, with `check_project`, of exactly `project`)."""
    if offset < 0:
        raise BadInput(f"offset {offset} is negative: offsets count bytes from 0")
    if not 0 < memory_id <= MAX_INT:
        return None
    where, params = in_scope_sql(projects)
    # One byte past the page tells whether the page would end inside a character.
    row = conn.execute(
        "SELECT project, source, length(CAST(body AS BLOB)),"
        " substr(CAST(body AS BLOB), ? + 1, ? + 1)"
        f" FROM memories WHERE id = ? AND state = 'live' AND {where}",
        (min(offset, MAX_INT - page_bytes - 2), page_bytes, memory_id, *params),
    ).fetchone()
    if row is None:
        return None
    owner, source, total, chunk = row
    if check_project and owner != project:
        return None
    if offset > total:
        raise BadInput(f"offset {offset} is past the end: memory {memory_id} has {total} bytes")
    chunk = bytes(chunk or b"")
    if chunk and (chunk[0] & 0xC0) == 0x80:
        raise BadInput(f"offset {offset} is inside a UTF-8 character of memory {memory_id}")
    piece = cut_utf8(chunk, page_bytes)
    end = offset + len(piece)
    label, cut = abridge_source(source)
    return Page(
        id=memory_id,
        project=owner,
        source=label,
        sourceabridged=cut,
        body=piece.decode("utf-8"),
        offset=offset,
        next=end if end < total else None,
        total=total,
    )
