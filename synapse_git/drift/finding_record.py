"""`Finding`: one drift finding, which memories it names, how to settle it, its JSON.

A value object of its own so the modules that make findings (path_findings,
pair_findings) and the one that gathers them (findings) share it without a cycle.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Finding:
    kind: str
    ids: tuple[int, ...]
    detail: str
    suggest: str
    paths: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    # Deleted paths another file took the place of: (path, replacement, commit added).
    replaced: tuple[tuple[str, str, str], ...] = ()
    newer: int | None = None
    older: int | None = None
    quote: dict[str, Any] | None = field(default=None, compare=False)
    # Who shared each team memory among `ids` (docs/team.md); empty for none.
    authors: tuple[tuple[int, str], ...] = ()
    # `changed`: (path, commits, lines) since the memory's commit `anchor`.
    changes: tuple[tuple[str, int, int], ...] = ()
    anchor: str | None = None
    # `unmerged`: the branch that holds the memory's commit (docs/branches.md).
    branch: str | None = None

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {"kind": self.kind, "ids": list(self.ids)}
        if self.paths:
            found["paths"] = list(self.paths)
        if self.renamed:
            found["renamed"] = dict(self.renamed)
        if self.replaced:
            found["replaced"] = {
                old: {"by": new, "added": added} for old, new, added in self.replaced
            }
        if self.newer is not None:
            found["newer"] = self.newer
            found["older"] = self.older
        if self.changes:
            found["changes"] = {
                path: {"commits": commits, "lines": lines} for path, commits, lines in self.changes
            }
            found["anchor"] = self.anchor
        if self.kind in ("unmerged", "orphaned"):
            found["anchor"] = self.anchor
            found["branch"] = self.branch
        found["detail"] = self.detail
        found["suggest"] = self.suggest
        if self.quote is not None:
            found["quote"] = self.quote
        if self.authors:
            found["authors"] = {str(memory_id): who for memory_id, who in self.authors}
        return found
