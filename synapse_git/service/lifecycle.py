"""Remember, edit, supersede, forget, restore and history (docs/store.md)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from synapse_git.errors import BadInput, NotFound
from synapse_git.git import project_scope
from synapse_git.git.project_scope import Scope
from synapse_git.service.base import StoreAccess
from synapse_git.session import snapshot_file
from synapse_git.store import (
    database,
    memories,
    project_rows,
)
from synapse_git.store.memories import Memory
from synapse_git.textrules import check_body, check_source

# The result types are imported where they are made: every command builds the
# service, and making a frozen dataclass costs what a short command's query does.
if TYPE_CHECKING:
    from synapse_git.service.results import History, Remembered, Replaced


def _live(memory: Memory) -> Memory:
    """`memory`, if it is live: only a live memory replaces or is replaced."""
    if not memory.live:
        raise BadInput(f"memory {memory.id} is {memory.state}; `restore {memory.id}` first")
    return memory


def _branch_text(branch: str | None) -> str | None:
    """`branch` as the store can hold it. Git takes any bytes in a branch name, and
    one that is not UTF-8 reaches here with lone surrogates, which SQLite cannot
    store: its odd bytes are written out (`\\xe9`), as git quotes them."""
    if branch is None or branch.isascii():
        return branch
    return branch.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _refuse_to_share(body: str, source: str) -> None:
    """A new memory to share that looks like a secret is refused before it is stored,
    in words about the text: the share's own refusal named the id the memory would
    have had, and an option `remember` does not take."""
    from synapse_git.team import secrets

    found = secrets.secrets_in(body + "\n" + source)
    if found:
        raise BadInput(
            f"the text seems to hold {', '.join(found)}: nothing was remembered (take it"
            " out; if it is not secret, remember it without sharing, then"
            " `synapse memory share ID --force`)"
        )


def _may_replace(old: Memory, project: str | None) -> None:
    """Refuse a project memory replacing a global one: every project sees a global
    memory, and no project may change what another one sees (docs/store.md)."""
    if old.project is None and project is not None:
        raise BadInput(
            f"memory {old.id} is global and every project sees it: a project memory cannot"
            f" supersede it; supersede it with a global memory (--global), or edit it"
        )


class Lifecycle(StoreAccess):
    """Writes that keep history, each one transaction."""

    def remember(
        self,
        body: str,
        scope: Scope,
        *,
        source: str = "",
        is_global: bool = False,
        supersedes: int | None = None,
        share: bool = False,
        everywhere: bool = False,
    ) -> Remembered:
        """Store a memory in the project of `scope` (or globally); an exact duplicate
        of a live memory in the same scope returns that memory instead. With `share`
        it also goes into the repository's team file (docs/team.md). With `everywhere`
        a project memory holds on every branch, whichever it was written on (an
        existing duplicate is marked so too; docs/branches.md)."""
        from synapse_git.service.results import Remembered

        check_body(body)
        check_source(source)
        if everywhere and is_global:
            raise BadInput("--everywhere is for project memories: a global one holds everywhere")
        if not is_global and scope.project is None:
            raise BadInput(f"{scope.note}: pass --global to remember globally")
        if share and (is_global or scope.checkout is None):
            raise BadInput("only project memories in a repository with a work tree are shared")
        if share:
            _refuse_to_share(body, source)
        project = None if is_global else scope.project
        head = project_scope.head(scope) if project is not None else project_scope.Head(None, None)
        vector = self._vector(body)
        with self.writing() as conn:
            old = None
            if supersedes is not None:
                old = _live(memories.require(conn, supersedes, scope.projects))
                _may_replace(old, project)
            existing = memories.find_duplicate(conn, body, project)
            if existing is not None:
                if everywhere:
                    memories.mark_everywhere(conn, existing)
                if old is not None:
                    # The correction is already stored: it, not a copy, replaces the old one.
                    if existing == old.id:
                        raise BadInput(f"memory {old.id} already says exactly this")
                    memories.set_state(
                        conn, old, "superseded", existing, f"superseded by {existing}"
                    )
                    self._follow(conn, scope, [old.id, existing])
                shared = self._share(conn, scope, [existing], force=False) if share else None
                return Remembered(
                    existing, project, existing, warnings=shared.warnings if shared else []
                )
            if project is not None and not project_rows.root_known(conn, project):
                # Walking history to the root commit is paid once per project, not per memory.
                project_rows.note_project(conn, project, project_scope.root_commit(scope))
            new_id = memories.insert(
                conn,
                body,
                source,
                project,
                head_commit=head.commit,
                branch=_branch_text(head.branch),
                everywhere=everywhere,
            )
            if vector is not None:
                self.semantic.store(conn, [(new_id, body, vector)])
            if old is not None:
                memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
            # Checked before the commit (and before the team file is touched): a damaged
            # index that fails this read rolls the write back, so "nothing was written"
            # is then the truth.
            drift = self._drift_of_new(conn, scope, new_id)
            if old is not None:
                self._follow(conn, scope, [old.id, new_id])
            shared = self._share(conn, scope, [new_id], force=False) if share else None
        return Remembered(new_id, project, None, drift, shared.warnings if shared else [])

    def edit(
        self,
        memory_id: int,
        scope: Scope,
        *,
        body: str | None = None,
        source: str | None = None,
        seen: str | None = None,
    ) -> Memory:
        """Change a memory's body or source. With `seen`, the memory's `updated_at` when
        the new text was made (in an editor, in the viewer's form): when it is no longer
        that, another process changed the memory since, and nothing is written rather
        than that change undone."""
        if body is None and source is None:
            raise BadInput("nothing to change: give a new body or --source")
        if body is not None:
            check_body(body)
        if source is not None:
            check_source(source)
        self._require_store(memory_id)

        vector = None if body is None else self._vector(body)
        with self.writing() as conn:
            old = memories.require(conn, memory_id, scope.projects)
            if seen is not None and old.updated_at != seen:
                raise BadInput(
                    f"memory {memory_id} changed while it was being edited (`memory history"
                    f" {memory_id}` shows how); nothing was written: edit it again"
                )
            memories.update_text(
                conn,
                old,
                old.body if body is None else body,
                old.source if source is None else source,
            )
            if vector is not None and body is not None and body != old.body:
                self.semantic.store(conn, [(memory_id, body, vector)])
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def edit_with(
        self, memory_id: int, scope: Scope, compose: Callable[[str], str | None]
    ) -> Memory | None:
        """Edit a memory's text by `compose`, given the text as it is (`memory edit ID`
        with no text: a person's editor), with no store connection open meanwhile;
        None, and nothing written, when `compose` returns None (no change). A change
        another process made meanwhile is not written over: BadInput, nothing written."""
        current = self.history(memory_id, scope).memory
        body = compose(current.body)
        if body is None:
            return None
        return self.edit(memory_id, scope, body=body, seen=current.updated_at)

    if TYPE_CHECKING:
        # Queries', which `Synapse` joins with this part (service/facade.py).
        def drift_about(self, scope: Scope, ids: Sequence[int]) -> list[dict[str, Any]]: ...

    def follow_renames(self, memory_id: int, scope: Scope) -> Memory:
        """Settle a stale memory whose gone paths git followed to new names: its text
        made to name the new ones, worked out again from the store and the checkout
        as `memory drift` words its settle command."""
        from synapse_git.drift.settle import corrected

        fixed = None
        for found in self.drift_about(scope, [memory_id]):
            if found.get("kind") == "stale" and found.get("ids") == [memory_id]:
                body = self.history(memory_id, scope).memory.body
                renamed = list(dict(found.get("renamed", {})).items())
                fixed = corrected(body, found.get("paths", []), renamed)
        if fixed is None:
            raise BadInput(f"memory {memory_id} names no gone path that git saw renamed")
        return self.edit(memory_id, scope, body=fixed)

    def supersede(self, old_id: int, new_id: int, scope: Scope) -> Memory:
        """Mark memory `old_id` superseded by the existing memory `new_id`."""
        if old_id == new_id:
            raise BadInput("a memory cannot supersede itself")
        self._require_store(old_id)
        with self.writing() as conn:
            old = _live(memories.require(conn, old_id, scope.projects))
            _may_replace(old, _live(memories.require(conn, new_id, scope.projects)).project)
            memories.set_state(conn, old, "superseded", new_id, f"superseded by {new_id}")
            self._follow(conn, scope, [old_id, new_id])
            return memories.require(conn, old_id, scope.projects)

    def replace(
        self,
        old_id: int,
        scope: Scope,
        *,
        body: str | None = None,
        by: int | None = None,
        source: str = "",
        live_only: bool = False,
    ) -> Replaced:
        """Supersede `old_id` by a new memory holding `body` (stored in the old one's
        scope) or by the existing memory `by`. With `live_only` (an agent's view) a
        hidden memory is reported as not found rather than as superseded or forgotten."""
        from synapse_git.service.results import Remembered, Replaced

        if (body is None) == (by is None):
            raise BadInput("give either the corrected text or the id of a memory that replaces it")
        old = self._visible(old_id, scope, live_only=live_only)
        if body is not None:
            new = self.remember(
                body, scope, source=source, is_global=old.project is None, supersedes=old_id
            )
            return Replaced(self._visible(old_id, scope, live_only=False), new)
        assert by is not None
        self._visible(by, scope, live_only=live_only)
        after = self.supersede(old_id, by, scope)
        with self.connection() as conn:
            project = memories.require(conn, by, scope.projects).project
            drift = self._drift_about(conn, scope, [by])
        return Replaced(after, Remembered(by, project, None, drift))

    def _visible(self, memory_id: int, scope: Scope, *, live_only: bool) -> Memory:
        """The memory `memory_id` as `scope` sees it; hidden ones count as missing
        when `live_only`."""
        missing = NotFound.memory(memory_id)
        if not self._exists():
            raise missing
        with self.connection() as conn:
            memory = memories.require(conn, memory_id, scope.projects)
        if live_only and not memory.live:
            raise missing
        return memory

    def forget(self, memory_id: int, scope: Scope, *, live_only: bool = False) -> Memory:
        """Hide a memory. With `live_only` (an agent's view) only a live memory can be
        forgotten: a hidden one is reported as not found."""
        self._visible(memory_id, scope, live_only=live_only)
        with self.writing() as conn:
            old = memories.require(conn, memory_id, scope.projects)
            if old.state == "forgotten":
                return old
            memories.set_state(conn, old, "forgotten", None, "forgotten")
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def purge(self, ids: Sequence[int], scope: Scope) -> list[Memory]:
        """Delete memories for good, with every version, vector and index entry
        (docs/store.md#purge); a shared one must be unshared first."""
        if not ids:
            raise BadInput("give the id of at least one memory to purge")
        from synapse_git.store import purging

        self._require_store(ids[0])
        # Session snapshots quote memories: none may keep the purged text, not even one
        # read before the purge and written after the removal (session/snapshot_file.py).
        with snapshot_file.Held(self.config.data_dir, purge=True):
            found: list[Memory] = []
            try:
                with self.connection() as conn:
                    # Freed pages are zeroed, so the deleted text does not linger in the file.
                    conn.execute("PRAGMA secure_delete = ON")
                    with database.transaction(conn):
                        chosen = purging.visible_any_state(conn, ids, scope.projects)
                        purging.check_not_shared(conn, chosen)
                        purging.purge(conn, chosen)
                    found = chosen
                    purging.scrub(conn)
            finally:
                if found:  # committed: the snapshots go even when the log stays full
                    snapshot_file.remove_all(self.config.data_dir)
        return found

    def restore(self, memory_id: int, scope: Scope) -> Memory:
        self._require_store(memory_id)
        with self.writing() as conn:
            old = memories.require(conn, memory_id, scope.projects)
            if old.live:
                return old
            memories.set_state(conn, old, "live", None, "restored")
            self._follow(conn, scope, [memory_id])
            return memories.require(conn, memory_id, scope.projects)

    def history(self, memory_id: int, scope: Scope) -> History:
        from synapse_git.service.results import History

        if not self._exists():
            raise NotFound.memory(memory_id)
        with self.connection() as conn:
            memory = memories.require(conn, memory_id, scope.projects)
            versions = memories.versions(conn, memory_id)
            # A global memory may have been replaced from inside a project: elsewhere,
            # that replacement's id is not shown.
            pointers = {memory.superseded_by} | {v.superseded_by for v in versions}
            pointers |= {memories.replaced_by(v) for v in versions}
            unseen = {
                other
                for other in pointers
                if other is not None
                and memories.get(conn, other, scope.projects, hidden=True) is None
            }
            if memory.superseded_by in unseen:
                memory = replace(memory, superseded_by=None)
            versions = [
                replace(
                    v,
                    superseded_by=None if v.superseded_by in unseen else v.superseded_by,
                    change="superseded" if memories.replaced_by(v) in unseen else v.change,
                )
                for v in versions
            ]
            return History(
                memory,
                versions,
                memories.superseded(conn, memory_id, scope.projects),
                memories.chain(conn, memory, scope.projects),
            )
