"""Keeping a drift finding as still true, and taking that back (docs/drift.md#keep)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from synapse_git.errors import BadInput
from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.store import memories

# Imported where it is made: every command builds the service (service/results.py).
if TYPE_CHECKING:
    from synapse_git.service.results import Kept


def _kinds(kinds: Sequence[str] | None) -> tuple[str, ...]:
    from synapse_git.drift.kept import KEEPABLE

    chosen = tuple(kinds) if kinds else KEEPABLE
    unknown = [kind for kind in chosen if kind not in KEEPABLE]
    if unknown:
        choices = ", ".join(KEEPABLE)
        raise BadInput(f"unknown drift kind {', '.join(unknown)}: choose from {choices}")
    return chosen


class Judgements(StoreAccess):
    """A person's word on drift findings, kept in the store."""

    def keepable(self, kind: str) -> bool:
        """Whether a finding of `kind` may be kept as still true."""
        from synapse_git.drift.kept import KEEPABLE

        return kind in KEEPABLE

    def keep(
        self,
        ids: Sequence[int],
        scope: Scope,
        kinds: Sequence[str] | None = None,
        *,
        paired_with: int | None = None,
    ) -> Kept:
        """Keep, as still true, every current finding of `kinds` about the memories `ids`
        (of a pair, only the one with `paired_with` when given): drift stops reporting
        each until one of its memories changes."""
        from synapse_git.drift import findings, kept
        from synapse_git.service.results import Kept

        chosen = _kinds(kinds)
        if not ids:
            raise BadInput("give the id of at least one memory whose findings to keep")
        self._require_store(ids[0])
        head = project_scope.head(scope).commit if scope.project is not None else None
        with self.writing() as conn:
            for memory_id in ids:
                memories.require(conn, memory_id, scope.projects)
            found = findings.about(conn, scope, ids, kinds=chosen, quote=False)
            if paired_with is not None:
                found = [f for f in found if len(f.ids) < 2 or paired_with in f.ids]
            kept.record(conn, found, memories.now(), head)
        return Kept([finding.as_json() for finding in found])

    def unkeep(self, ids: Sequence[int], scope: Scope, kinds: Sequence[str] | None = None) -> Kept:
        """Take back what was kept about the memories `ids`: drift reports it again."""
        from synapse_git.drift import kept
        from synapse_git.service.results import Kept

        chosen = _kinds(kinds)
        if not ids:
            raise BadInput("give the id of at least one memory")
        self._require_store(ids[0])
        with self.writing() as conn:
            for memory_id in ids:
                memories.require(conn, memory_id, scope.projects)
            return Kept([], kept.undo(conn, ids, chosen))
